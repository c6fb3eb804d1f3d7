/**
 * The customer's papers (issue 34 §2; docs/statements.md): the statement of trips of a customer for a period (JSON,
 * or with `format=xlsx|pdf` the file as an attachment, fetched with `downloadOnce`), and the act with its invoice —
 * issued, listed, drawn as PDF, marked paid. Staff of the customer's company (a super-admin: any); another
 * company's customer or act is 404.
 */
import { answer, area, GET, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import { invoiceCreateSchema, invoiceListQuery, invoicePaidSchema, statementQuery, type Invoice, type Statement } from '../statements.ts';

export const statementCalls = area(
  GET('/counterparties/:id/statement', { roles: STAFF, query: statementQuery, answer: answer<Statement>() }),
  GET('/invoices/', { roles: STAFF, query: invoiceListQuery, answer: answer<Invoice[]>() }),
  /** One act and invoice; 409 when no approved trip of the period is left to bill, or one has no price. */
  POST('/invoices/', { roles: STAFF, body: invoiceCreateSchema, status: 201, answer: answer<Invoice>(), invalidates: ['counterparties'], audience: ['company-staff:answer.company_id'] }),
  GET('/invoices/:id', { roles: STAFF, answer: answer<Invoice>() }),
  /** The act and the invoice as PDF (attachments). */
  GET('/invoices/:id/act.pdf', { roles: STAFF, answer: answer<unknown>() }),
  GET('/invoices/:id/invoice.pdf', { roles: STAFF, answer: answer<unknown>() }),
  POST('/invoices/:id/paid', { roles: STAFF, body: invoicePaidSchema, answer: answer<Invoice>(), invalidates: ['counterparties'], audience: ['company-staff:answer.company_id'] }),
);
