/**
 * A trip's papers (issues 32 and 33; docs/documents.md): the proof of delivery and the paper transport waybill as
 * PDF, the ЭТрН titles the carrier makes (the shipper's Т1 as a draft it signs, the carrier's Т2 and Т4) as ФНС XML,
 * and the «Документы» panel: which titles are ready and, for each, exactly what is missing and which card holds it.
 * Staff of the trip's company; another company's trip is 404.
 */
import { z } from 'zod';
import { answer, area, GET, POST } from '../call.ts';
import { isoDate, wireId } from '../fields.ts';
import { STAFF } from '../roles.ts';
import type { DocumentState } from '../waybill.ts';
import type { DriverConfirmation } from '../trips.ts';

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
  /** The title's live document in the exchange (not annulled), or null while it is not taken in. */
  exchange: TitleExchange | null;
}

/** Where a title stands with the operator: its document's state and, by that state, the УИД and QR or the reason and fix. */
export interface TitleExchange {
  document_id: number;
  state: DocumentState;
  uid: string | null;
  qr: string | null;
  reason: string | null;
  fix: string | null;
  updated_at: string;
}

/** A fact of a received title that is not ours: `theirs` as the file says, `ours` as the trip's cards say (null: absent). */
export interface IncomingDifference {
  /** shipper, consignee, carrier, cargo, mass, vehicle, trailer, driver, loading, unloading. */
  field: string;
  /** «Масса груза», in Russian. */
  label: string;
  theirs: string | null;
  ours: string | null;
}

/** A title received from another party (the shipper's Т1, the consignee's Т3), linked to its trip. */
export interface IncomingTitle {
  id: number;
  title: 't1' | 't3';
  /** The file's name as uploaded (or its ИдФайл with .xml). */
  file_name: string;
  /** Файл/@ИдФайл, and the file's date (YYYY-MM-DD) and time (hh:mm:ss): what Т2 (ИдИнфГО) or Т4 (ИдИнфГП) carries. */
  file_id: string;
  file_date: string;
  file_time: string;
  /** The waybill's УИД ТрН (Т3 carries it; for a Т1, as the operator gave it with the file). */
  uid: string | null;
  /** Whether the file's signature (the operator's .sig) came with it: Т2/Т4 need it. */
  signed: boolean;
  report_id: number;
  waybill_number: string;
  /** How it was linked: by the waybill's number, its УИД, or the vehicle and the date. */
  linked_by: 'number' | 'uid' | 'vehicle';
  differences: IncomingDifference[];
  created_at: string;
}

export interface ReportDocuments {
  report_id: number;
  /** The waybill's number: the task's and the trip's. */
  waybill_number: string;
  titles: DocumentTitle[];
  /** The other parties' titles received for this trip, newest first, each with its differences from our facts. */
  received: IncomingTitle[];
  /**
   * The driver's confirmations by his simple electronic signature (ПЭП), loading first — who, when, where, the mass,
   * remarks — when the company asks for them (`driver_confirms`; else empty): he signs the Т2 / Т4 he confirmed.
   */
  driver_confirmed: DriverConfirmation[];
}

/** POST /etrn/incoming with the XML as the body: the waybill's УИД (for a Т1, as the operator gave it) and the file's name. */
export const incomingQuery = z.object({
  uid: z.string().max(1000, 'uid: не длиннее 1000 символов').optional(),
  name: z.string().max(255, 'name: не длиннее 255 символов').optional(),
});

/** The largest title file accepted (a Т1 with many cargo lines is some tens of kB). */
export const INCOMING_MAX_BYTES = 2 * 1024 * 1024;
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
  /**
   * A shipper's Т1 or a consignee's Т3: multipart (`file`; optional `signature` — the operator's .sig —, `uid`,
   * `name`) or the XML itself as the body (`?uid=`). Checked against its title's schema, linked to its trip, compared
   * with our facts; 201 stored, 200 the same file again. Read by the handler, so no `body` is declared.
   */
  POST('/etrn/incoming', { roles: STAFF, query: incomingQuery, status: 201, bodyLimit: INCOMING_MAX_BYTES + 64 * 1024, answer: answer<IncomingTitle>(), invalidates: ['reports'], audience: ['caller'] }),
  /** A received title's XML as it came. */
  GET('/etrn/incoming/:id', { roles: STAFF, answer: answer<Blob>() }),
  /** Every trip's paper waybill of a task, in one PDF (each waybill counts its own sheets); 404 with no trip yet. */
  GET('/tasks/:id/waybills.pdf', { roles: STAFF, params: z.object({ id: wireId('ожидается номер задачи') }), answer: answer<Blob>() }),
  /** Every trip of the company's tasks of a date, in one PDF (task by task, trip by trip). */
  GET('/reports/waybills.pdf', { roles: STAFF, query: waybillsDayQuery, answer: answer<Blob>() }),
);
