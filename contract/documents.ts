/**
 * The exchange of a trip's titles with the ЭДО operator (issue 33 §3; docs/documents.md «The exchange»): a document's
 * life (черновик → готов к подписи → отправлен → принят / отклонён → аннулирован), the list's query, the action bodies
 * and the operator's answer file as the files adapter reads it. Pure: the server enforces the moves
 * (server/documents/states.ts), the «Документы» screen names them with these words.
 */
import { z } from 'zod';
import { isoDate, MAX_ID, text, wireId, wireInt } from './fields.ts';
import type { DocumentTitleCode } from './waybill.ts';

import { DOCUMENT_STATES, type DocumentState } from './waybill.ts';

export { DOCUMENT_STATES, DOCUMENT_STATE_LABELS, type DocumentState } from './waybill.ts';

/** The titles a document can be: ours (Т1 draft, Т2, Т4) and, received later, the shipper's Т1 and consignee's Т3. */
export const DOCUMENT_TITLES = ['t1', 't2', 't3', 't4'] as const satisfies readonly DocumentTitleCode[];
export type { DocumentTitleCode } from './waybill.ts';
/** The titles we make. */
export const OUTGOING_TITLES = ['t1', 't2', 't4'] as const;
export type OutgoingTitle = (typeof OUTGOING_TITLES)[number];

export const DOCUMENT_TITLE_LABELS: Record<DocumentTitleCode, string> = {
  t1: 'Т1 — грузоотправитель',
  t2: 'Т2 — приём груза',
  t3: 'Т3 — грузополучатель',
  t4: 'Т4 — выдача груза',
};

/** `out`: made here and sent; `in`: received from another party (a shipper's Т1, a consignee's Т3). */
export type DocumentDirection = 'out' | 'in';

/** A document as the list and the actions answer it. */
export interface DocumentItem {
  id: number;
  company_id: number;
  report_id: number;
  task_id: number;
  title: DocumentTitleCode;
  direction: DocumentDirection;
  state: DocumentState;
  /** The file's ИдФайл once made (frozen when marked ready); null for a draft. */
  file_name: string | null;
  /** The waybill's number: the task's and the trip's («14-5»). */
  waybill_number: string;
  /** The trip's day (the task's date), YYYY-MM-DD: what the day's export and the date filter read. */
  trip_date: string;
  vehicle_id: number | null;
  vehicle_plate: string | null;
  driver_name: string | null;
  /** The task's customer, shipper and consignee, by name (those that are set). */
  counterparties: { id: number; name: string }[];
  /** УИД ТрН and the QR's payload, once the operator accepted it. */
  uid: string | null;
  qr: string | null;
  /** The operator's reason for a rejection and the fix it needs; or why it was annulled. */
  reason: string | null;
  fix: string | null;
  ready_at: string | null;
  sent_at: string | null;
  answered_at: string | null;
  annulled_at: string | null;
  created_at: string;
  updated_at: string;
  /** What may be done now: mark ready (a draft, or a rejected one after its fix), annul. */
  can_mark_ready: boolean;
  can_annul: boolean;
}

export interface DocumentPage {
  items: DocumentItem[];
  next_offset: number | null;
  total: number;
  /** The counts by state under the same filters except the state (the screen's tabs). */
  counts: Record<DocumentState, number>;
  /** Which adapter the company's titles go through, and the operator job's last pass (the screen's line). */
  exchange: DocumentExchange;
}

/** One pass of the operator job for a company: what it sent, what answers it applied, what failed (Russian). */
export interface OperatorRun {
  at: string;
  sent: number;
  accepted: number;
  rejected: number;
  /** Sent and still without the operator's final answer. */
  waiting: number;
  /** The other parties' titles (Т1, Т3) fetched from the operator's box and linked to their trips (absent in older passes). */
  received?: number;
  errors: string[];
}

export interface DocumentExchange {
  /** `files` (the default: the day's zip and the answers uploaded) or `diadoc` (Контур.Диадок's API, by settings). */
  adapter: 'files' | 'diadoc';
  /** The operator's box the API sends from; null for the files adapter. */
  box_id: string | null;
  last_run: OperatorRun | null;
}

export const DOCUMENT_PAGE_MAX = 200;

export const documentListQuery = z.object({
  state: z.enum(DOCUMENT_STATES, { message: 'неизвестное состояние документа' }).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  vehicle_id: wireId('ожидается номер машины').optional(),
  counterparty_id: wireId('ожидается номер контрагента').optional(),
  report_id: wireId('ожидается номер отчёта').optional(),
  /** A super-admin's company. */
  company_id: wireId('ожидается номер компании').optional(),
  limit: wireInt(1, DOCUMENT_PAGE_MAX).default(50),
  offset: wireInt(0, MAX_ID).default(0),
}).refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'to: конец периода раньше начала', path: ['to'] });
export type DocumentListQuery = z.output<typeof documentListQuery>;

/** A trip's title taken into the exchange as a draft. */
export const documentCreateSchema = z
  .object({
    report_id: z.number({ message: 'ожидается номер отчёта' }).int('ожидается номер отчёта').positive('ожидается номер отчёта').max(MAX_ID, 'ожидается номер отчёта'),
    title: z.enum(OUTGOING_TITLES, { message: 'ожидается t1, t2 или t4' }),
  })
  .strict();

export const documentAnnulSchema = z.object({ reason: text().pipe(z.string().max(500, 'не длиннее 500 символов')).optional() }).strict();

/** A day's export (the files adapter): the ready titles of the trips of that day; `again=1` the day's sent ones once more. */
export const documentExportQuery = z.object({
  date: isoDate,
  again: z.enum(['0', '1'], { message: 'ожидается 0 или 1' }).default('0'),
  company_id: wireId('ожидается номер компании').optional(),
});

export const ANSWER_FILES_MAX = 50;
export const ANSWER_FILE_BYTES = 512 * 1024;

/** The operator's answer files uploaded (the files adapter): each file's name and its bytes as base64. */
export const documentAnswersSchema = z
  .object({
    company_id: z.number({ message: 'ожидается номер компании' }).int('ожидается номер компании').positive('ожидается номер компании').max(MAX_ID, 'ожидается номер компании').optional(),
    files: z
      .array(
        z.object({
          name: z.string().trim().min(1, 'имя файла пустое').max(255, 'имя файла длиннее 255 символов'),
          data: z.string().max(Math.ceil((ANSWER_FILE_BYTES * 4) / 3) + 4, 'файл больше 512 КБ').regex(/^[A-Za-z0-9+/=\s]*$/, 'ожидается содержимое файла в base64'),
        }),
      )
      .min(1, 'добавьте хотя бы один файл ответа')
      .max(ANSWER_FILES_MAX, `не больше ${ANSWER_FILES_MAX} файлов за раз`),
  })
  .strict();

/** What became of each answer: applied, already known (the same answer again), or not applied and why. */
export interface AnswerOutcome {
  /** The uploaded file's name. */
  name: string;
  /** The document's ИдФайл the answer names, when it names one. */
  file: string | null;
  outcome: 'accepted' | 'rejected' | 'unchanged' | 'unknown' | 'invalid';
  document_id: number | null;
  detail: string;
}

export interface AnswersResult {
  applied: number;
  outcomes: AnswerOutcome[];
}

/** The most documents «Готов к подписи» takes at once: a screen's page. */
export const BULK_READY_MAX = 100;

/** POST /documents/ready: several documents marked «Готов к подписи» in one call (the /documents screen's selection). */
export const documentBulkReadySchema = z
  .object({
    ids: z
      .array(z.number({ message: 'ids: ожидаются номера документов' }).int('ids: ожидаются номера документов').positive('ids: ожидаются номера документов').max(MAX_ID, 'ids: ожидаются номера документов'), {
        message: 'ids: ожидается список номеров документов',
      })
      .min(1, 'Выберите хотя бы один документ')
      .max(BULK_READY_MAX, `Не больше ${BULK_READY_MAX} документов за раз`)
      .refine((ids) => new Set(ids).size === ids.length, 'ids: номера документов повторяются'),
  })
  .strict();

/** What became of each document asked: made ready (its item) or not, and why (a missing fact, its state, not found). */
export interface BulkReadyOutcome {
  id: number;
  ok: boolean;
  detail: string | null;
  item: DocumentItem | null;
}

export interface BulkReadyResult {
  /** How many moved to «Готов к подписи». */
  moved: number;
  outcomes: BulkReadyOutcome[];
}
