/**
 * The customer's papers (contract/calls/statements.ts; docs/statements.md): the statement of trips as JSON, xlsx
 * or PDF, and the act with its invoice.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { RouteModule } from '../context.ts';
import { statementCalls } from '../../contract/calls/statements.ts';
import { registerArea } from './define.ts';
import { PARTY_COLUMNS } from '../../contract/statements.ts';
import { contentDisposition, filePeriod, XLSX } from '../exports/workbook.ts';
import { buildStatement, customerOf } from '../statements/statement.ts';
import { issueInvoice, listInvoices, loadInvoice, markPaid } from '../statements/invoices.ts';
import { renderAct, renderInvoice, renderStatementPdf } from '../statements/papers.ts';
import { writeStatementWorkbook } from '../statements/workbook.ts';

async function sendPdf(reply: FastifyReply, filename: string, bytes: Buffer): Promise<void> {
  await reply.type('application/pdf').header('content-disposition', contentDisposition(filename)).send(bytes);
}

export const statementRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, statementCalls, {
    'GET /counterparties/:id/statement': async ({ user, params, query, reply }) => {
      const customer = await customerOf(db, user, params.id);
      const { billed: _billed, ...statement } = await buildStatement(db, customer, query.from, query.to);
      const name = `Реестр рейсов — ${customer.name}, ${filePeriod(query.from, query.to)}`;
      if (query.format === 'pdf') {
        const seller = await db.kysely
          .selectFrom('companies')
          .select(PARTY_COLUMNS)
          .where('id', '=', customer.company_id)
          .executeTakeFirstOrThrow();
        await sendPdf(reply, `${name}.pdf`, await renderStatementPdf(statement, seller));
      } else if (query.format === 'xlsx') {
        const stream = new PassThrough();
        void writeStatementWorkbook(stream, statement).catch((error: unknown) => stream.destroy(error as Error));
        await reply.type(XLSX).header('content-disposition', contentDisposition(`${name}.xlsx`)).send(stream);
      }
      return statement;
    },
    'GET /invoices/': ({ user, query }) => listInvoices(db, user, query),
    'POST /invoices/': ({ user, body }) => issueInvoice(db, user, body),
    'GET /invoices/:id': ({ user, params }) => loadInvoice(db, user, params.id),
    'GET /invoices/:id/act.pdf': async ({ user, params, reply }) => {
      const invoice = await loadInvoice(db, user, params.id);
      await sendPdf(reply, `Акт № ${invoice.number} от ${invoice.issued_on.split('-').reverse().join('.')} — ${invoice.counterparty_name}.pdf`, await renderAct(invoice));
      return null;
    },
    'GET /invoices/:id/invoice.pdf': async ({ user, params, reply }) => {
      const invoice = await loadInvoice(db, user, params.id);
      await sendPdf(reply, `Счёт № ${invoice.number} от ${invoice.issued_on.split('-').reverse().join('.')} — ${invoice.counterparty_name}.pdf`, await renderInvoice(invoice));
      return null;
    },
    'POST /invoices/:id/paid': ({ user, params, body }) => markPaid(db, user, params.id, body.date),
  });
};
