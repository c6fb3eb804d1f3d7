/**
 * The exchange of a trip's titles (issue 33 §3; docs/documents.md «The exchange»): the «Документы» list with its
 * filters, a title taken in as a draft, marked ready (its XML made and frozen) or annulled, its frozen file, and the
 * files adapter — a day's ready titles as a zip (sent exactly once) and the operator's answers uploaded. Staff of the
 * document's company; another company's document or trip is 404.
 */
import { answer, area, GET, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import {
  documentAnnulSchema,
  documentAnswersSchema,
  documentBulkReadySchema,
  documentCreateSchema,
  documentExportQuery,
  documentListQuery,
  type AnswersResult,
  type BulkReadyResult,
  type DocumentItem,
  type DocumentPage,
} from '../documents.ts';

const STAFF_HEAR = ['company-staff:answer.company_id'] as const;

export const documentCalls = area(
  GET('/documents/', { roles: STAFF, query: documentListQuery, answer: answer<DocumentPage>() }),
  /** A trip's title taken into the exchange as a draft; 409 while a live one (not annulled) of that title exists. */
  POST('/documents/', { roles: STAFF, body: documentCreateSchema, status: 201, answer: answer<DocumentItem>(), invalidates: ['reports'], audience: STAFF_HEAR }),
  /** The files adapter: the day's ready titles as a zip, each marked sent once; 409 when none is ready. */
  GET('/documents/export', { roles: STAFF, query: documentExportQuery, answer: answer<Blob>() }),
  /** The operator's answer files: accepted with УИД and QR, rejected with the reason; unknown files reported back. */
  POST('/documents/answers', { roles: STAFF, body: documentAnswersSchema, bodyLimit: 40 * 1024 * 1024, answer: answer<AnswersResult>(), invalidates: ['reports'], audience: ['caller'] }),
  /** «Готов к подписи»: the XML made from the trip now and frozen; 409 naming what is missing, or an illegal move. */
  /**
   * «Готов к подписи» for several documents at once, in one transaction: each one made ready or reported with why
   * it could not be (a missing fact, its state, not found); the others still move.
   */
  POST('/documents/ready', { roles: STAFF, body: documentBulkReadySchema, answer: answer<BulkReadyResult>(), invalidates: ['reports'], audience: ['caller'] }),
  POST('/documents/:id/ready', { roles: STAFF, answer: answer<DocumentItem>(), invalidates: ['reports'], audience: STAFF_HEAR }),
  POST('/documents/:id/annul', { roles: STAFF, body: documentAnnulSchema, answer: answer<DocumentItem>(), invalidates: ['reports'], audience: STAFF_HEAR }),
  /** The frozen XML as it was (or will be) sent, windows-1251. */
  GET('/documents/:id/file.xml', { roles: STAFF, answer: answer<Blob>() }),
);
