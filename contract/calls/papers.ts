/**
 * A trip's papers (issues 32 and 33; docs/documents.md): the proof of delivery and the paper transport waybill as
 * PDF, the ЭТрН titles the carrier makes (the shipper's Т1 as a draft it signs, the carrier's Т2 and Т4) as ФНС XML,
 * and the «Документы» panel: which titles are ready and, for each, exactly what is missing and which card holds it.
 * Staff of the trip's company; another company's trip is 404.
 */
import { z } from 'zod';
import { answer, area, GET } from '../call.ts';
import { isoDate, wireId } from '../fields.ts';
import { STAFF } from '../roles.ts';

export const ETRN_FILES = ['t1.xml', 't2.xml', 't4.xml'] as const;
export type EtrnFileName = (typeof ETRN_FILES)[number];

export const etrnFileParams = z.object({
  id: wireId('ожидается номер отчёта'),
  file: z.enum(ETRN_FILES, { message: 'ожидается t1.xml, t2.xml или t4.xml' }),
});

/** Where a missing fact lives, for the panel's link: a counterparty's, place's, vehicle's or driver's card… */
export type DocumentFactCard = 'counterparty' | 'company' | 'place' | 'vehicle' | 'driver' | 'task' | 'timeline' | 'documents';

export interface DocumentTitle {
  title: 't1' | 't2' | 't4';
  /** «Т1 — грузоотправитель (черновик)». */
  name: string;
  /** Whose signature it takes. */
  whose: string;
  ready: boolean;
  missing: { field: string; text: string; card: DocumentFactCard; id: number | null }[];
}

export interface ReportDocuments {
  report_id: number;
  /** The waybill's number: the task's and the trip's. */
  waybill_number: string;
  titles: DocumentTitle[];
}

/** GET /reports/waybills.pdf: the company's trips of a task date, every waybill in one PDF. */
export const waybillsDayQuery = z.object({
  date: isoDate,
  company_id: wireId('ожидается номер компании').optional(),
});

/** How many trips one batch PDF takes at most: a bigger day is asked for task by task. */
export const WAYBILL_BATCH_MAX = 300;

export const paperCalls = area(
  GET('/reports/:id/documents', { roles: STAFF, answer: answer<ReportDocuments>() }),
  GET('/reports/:id/pod.pdf', { roles: STAFF, answer: answer<Blob>() }),
  GET('/reports/:id/waybill.pdf', { roles: STAFF, answer: answer<Blob>() }),
  GET('/reports/:id/etrn/:file', { roles: STAFF, params: etrnFileParams, answer: answer<Blob>() }),
  /** Every trip's paper waybill of a task, in one PDF (each waybill counts its own sheets); 404 with no trip yet. */
  GET('/tasks/:id/waybills.pdf', { roles: STAFF, params: z.object({ id: wireId('ожидается номер задачи') }), answer: answer<Blob>() }),
  /** Every trip of the company's tasks of a date, in one PDF (task by task, trip by trip). */
  GET('/reports/waybills.pdf', { roles: STAFF, query: waybillsDayQuery, answer: answer<Blob>() }),
);
