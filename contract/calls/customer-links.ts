/**
 * The customer's link (issue 34 §3, docs/customer-link.md). Staff (of the customer's company; a super-admin: any)
 * make, list and revoke links and answer a customer's dispute; another company's customer or link is 404. The
 * `/c/{token}/…` calls are open to anyone (roles: null): the token is their credential, checked by the handler —
 * a wrong token 404, a revoked or expired one 410, guesses from one address limited (429). Every one of them is
 * recorded as a view of the link.
 */
import { answer, area, DELETE, GET, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import {
  customerLinkCreateSchema,
  customerLinkListQuery,
  disputeAnswerSchema,
  disputeCreateSchema,
  linkFileParamsSchema,
  linkInvoiceParamsSchema,
  linkParamsSchema,
  linkTripParamsSchema,
  publicStatementQuery,
  publicTripsQuery,
  type PublicInvoice,
  type CustomerDispute,
  type CustomerLink,
  type CustomerLinkCreated,
  type PublicTrip,
  type PublicTrips,
} from '../customer-links.ts';

export const customerLinkCalls = area(
  POST('/customer-links/', { roles: STAFF, body: customerLinkCreateSchema, status: 201, answer: answer<CustomerLinkCreated>(), audience: ['caller'] }),
  GET('/customer-links/', { roles: STAFF, query: customerLinkListQuery, answer: answer<CustomerLink[]>() }),
  DELETE('/customer-links/:id', { roles: STAFF, answer: answer<CustomerLink>(), audience: ['caller'] }),
  /** The dispatcher's answer to a customer's dispute (shown on /reports/{id} and on the customer's page). */
  POST('/customer-links/disputes/:id/answer', { roles: STAFF, body: disputeAnswerSchema, answer: answer<CustomerDispute>(), invalidates: ['reports'], audience: ['caller'] }),
  GET('/c/:token/trips', { roles: null, params: linkParamsSchema, query: publicTripsQuery, answer: answer<PublicTrips>() }),
  GET('/c/:token/trips/:report_id', { roles: null, params: linkTripParamsSchema, answer: answer<PublicTrip>() }),
  /** A photo or the receiver's signature of one of the link's trips (an image sent by the handler). */
  GET('/c/:token/photos/:id', { roles: null, params: linkFileParamsSchema, answer: answer<unknown>() }),
  GET('/c/:token/signatures/:id', { roles: null, params: linkFileParamsSchema, answer: answer<unknown>() }),
  POST('/c/:token/trips/:report_id/dispute', { roles: null, params: linkTripParamsSchema, body: disputeCreateSchema, status: 201, answer: answer<CustomerDispute>() }),
  /** Downloads (files sent by the handler): the statement, the acts and invoices issued to him, a trip's papers. */
  GET('/c/:token/statement', { roles: null, params: linkParamsSchema, query: publicStatementQuery, answer: answer<Blob>() }),
  GET('/c/:token/invoices', { roles: null, params: linkParamsSchema, answer: answer<PublicInvoice[]>() }),
  GET('/c/:token/invoices/:id/act.pdf', { roles: null, params: linkInvoiceParamsSchema, answer: answer<Blob>() }),
  GET('/c/:token/invoices/:id/invoice.pdf', { roles: null, params: linkInvoiceParamsSchema, answer: answer<Blob>() }),
  GET('/c/:token/trips/:report_id/pod.pdf', { roles: null, params: linkTripParamsSchema, answer: answer<Blob>() }),
  GET('/c/:token/trips/:report_id/waybill.pdf', { roles: null, params: linkTripParamsSchema, answer: answer<Blob>() }),
);
