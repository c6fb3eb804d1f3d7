/**
 * The customer's papers (contract/calls/statements.ts; docs/statements.md): the statement of trips as JSON, xlsx
 * or PDF, and the act with its invoice.
 */
import type { RouteModule } from '../context.ts';
import { statementCalls } from '../../contract/calls/statements.ts';
import { registerArea } from './define.ts';
import { buildStatement, customerOf } from '../statements/statement.ts';
import { issueInvoice, listInvoices, loadInvoice, markPaid } from '../statements/invoices.ts';
import { sendInvoicePaper, sendStatement } from '../statements/send.ts';

export const statementRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, statementCalls, {
    'GET /counterparties/:id/statement': async ({ user, params, query, reply }) => {
      const customer = await customerOf(db, user, params.id);
      const { billed: _billed, ...statement } = await buildStatement(db, customer, query.from, query.to);
      if (query.format !== 'json') await sendStatement(db, reply, customer, statement, query.format);
      return statement;
    },
    'GET /invoices/': ({ user, query }) => listInvoices(db, user, query),
    'POST /invoices/': ({ user, body }) => issueInvoice(db, user, body),
    'GET /invoices/:id': ({ user, params }) => loadInvoice(db, user, params.id),
    'GET /invoices/:id/act.pdf': async ({ user, params, reply }) => {
      await sendInvoicePaper(reply, await loadInvoice(db, user, params.id), 'act');
      return null;
    },
    'GET /invoices/:id/invoice.pdf': async ({ user, params, reply }) => {
      await sendInvoicePaper(reply, await loadInvoice(db, user, params.id), 'invoice');
      return null;
    },
    'POST /invoices/:id/paid': ({ user, params, body }) => markPaid(db, user, params.id, body.date),
  });
};
