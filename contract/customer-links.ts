/**
 * The customer's link (issue 34 §3, docs/customer-link.md): staff make a link for a customer (a counterparty with
 * the customer role) valid for a number of days; the customer opens `/c/{token}` on a phone without an account and
 * sees only his trips — today's live, the period's list with tickets, quantities, the receiver's signature and the
 * photos — and may dispute a trip with a reason. The token (≥ 128 bits, base64url) is shown once and stored only
 * as its SHA-256.
 */
import { z } from 'zod';
import { isoDate, text, wireId } from './fields.ts';
import type { TripStep } from './trips.ts';
import { DOCUMENT_STATE_LABELS, type DocumentState } from './waybill.ts';

/** How often the customer's page asks again (it has no session for the change feed). */
export const CUSTOMER_PAGE_POLL_MS = 20_000;

/** How long a link may live, in days. */
export const LINK_DAYS_MAX = 365;

/** The token as it appears in a link: 32 random bytes in base64url (43 characters). */
export const linkTokenSchema = z.string({ message: 'ожидается ссылка заказчика' }).regex(/^[A-Za-z0-9_-]{22,64}$/, 'ссылка заказчика неполная или повреждена');

export const customerLinkCreateSchema = z
  .object({
    counterparty_id: z.number({ message: 'Заказчик: ожидается номер' }).int('Заказчик: ожидается номер').positive('Заказчик: ожидается номер'),
    days: z
      .number({ message: 'Срок: ожидается число дней' })
      .int('Срок: ожидается целое число дней')
      .min(1, 'Срок: не меньше 1 дня')
      .max(LINK_DAYS_MAX, `Срок: не больше ${LINK_DAYS_MAX} дней`),
  })
  .strict();
export type CustomerLinkCreate = z.infer<typeof customerLinkCreateSchema>;

export const customerLinkListQuery = z.object({ counterparty_id: wireId('ожидается номер заказчика') }).strict();

/** POST /customer-links/: the link with its token — the only time the token is shown. */
export interface CustomerLinkCreated {
  id: number;
  /** The page's path with the token: `/c/{token}` (the UI puts the origin before it). */
  url: string;
  token: string;
  expires_at: string;
}

export interface CustomerLink {
  id: number;
  counterparty_id: number;
  company_id: number;
  created_at: string;
  created_by_name: string | null;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** The latest view's page and address, when used. */
  last_page: string | null;
  last_address: string | null;
  views: number;
  state: 'active' | 'expired' | 'revoked';
}

/** A dispute as the customer and the dispatcher see it. */
export interface CustomerDispute {
  id: number;
  report_id: number;
  reason: string;
  created_at: string;
  answer: string | null;
  answered_at: string | null;
  answered_by_name: string | null;
}

export const disputeCreateSchema = z
  .object({ reason: text('Причина: ожидается текст').min(5, 'Причина: напишите, что не так (от 5 символов)').max(1000, 'Причина: не длиннее 1000 символов') })
  .strict();
export type DisputeCreate = z.infer<typeof disputeCreateSchema>;

export const disputeAnswerSchema = z
  .object({ answer: text('Ответ: ожидается текст').min(2, 'Ответ: напишите ответ заказчику').max(1000, 'Ответ: не длиннее 1000 символов') })
  .strict();

/** A trip's place on the customer's page: derived from its timeline's latest stamp. */
export const PUBLIC_TRIP_STATES = ['planned', 'loading', 'on_road', 'unloading', 'delivered'] as const;
export type PublicTripState = (typeof PUBLIC_TRIP_STATES)[number];
export const PUBLIC_TRIP_STATE_LABELS: Record<PublicTripState, string> = {
  planned: 'Ожидается',
  loading: 'На погрузке',
  on_road: 'В пути',
  unloading: 'На выгрузке',
  delivered: 'Доставлен',
};

/** The state after the latest stamped step. */
export function publicTripState(latest: TripStep | null): PublicTripState {
  switch (latest) {
    case null:
      return 'planned';
    case 'loading_arrived':
      return 'loading';
    case 'loading_departed':
      return 'on_road';
    case 'unloading_arrived':
      return 'unloading';
    case 'unloading_departed':
      return 'delivered';
  }
}

/**
 * A trip's waybill on the customer's page (issue 34 §3 «the waybill's state»): the paper's number, and the state of
 * its electronic title (ЭТрН) as the driver's card reads it (contract/waybill.ts `driverWaybill`) — null while no
 * title was made — with the УИД ТрН once the operator accepted it.
 */
export interface PublicWaybill {
  number: string;
  state: DocumentState | null;
  uid: string | null;
}

/** How the page names a waybill: «Накладная № 14-5», «Накладная № 14-5 (ЭТрН): принят». */
export function publicWaybillLine(w: PublicWaybill): string {
  const head = `Накладная № ${w.number}`;
  return w.state === null ? head : `${head} (ЭТрН): ${DOCUMENT_STATE_LABELS[w.state].toLowerCase()}`;
}

/** One trip as the customer sees it: nothing of the carrier's money, nothing of another customer. */
export interface PublicTrip {
  id: number;
  date: string;
  ticket_number: string | null;
  vehicle_plate: string | null;
  driver_name: string;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  unit: string;
  loaded: number | null;
  unloaded: number | null;
  state: PublicTripState;
  /** The device times of the four steps (ISO), null where not stamped. */
  times: Record<TripStep, string | null>;
  receiver_name: string | null;
  acceptance: 'signed' | 'refused' | 'none';
  refused_reason: string | null;
  /** Through the link: `/api/c/{token}/signatures/{id}`. */
  signature_url: string | null;
  photo_urls: string[];
  /** The trip's papers through the link: the proof of delivery and the waybill (PDF). */
  pod_url: string;
  waybill_url: string;
  /** The trip's waybill: its number (the paper's, «ТН № 14-5») and the electronic title's state, if one was made. */
  waybill: PublicWaybill;
  review: 'pending' | 'approved' | 'disputed';
  disputes: CustomerDispute[];
}

export interface PublicTotals {
  trips: number;
  delivered: number;
  signed: number;
  /** Per unit: loaded and unloaded summed. */
  by_unit: { unit: string; loaded: number; unloaded: number }[];
}

/** GET /c/{token}/trips?from&to: the customer's page. */
export interface PublicTrips {
  customer_name: string;
  carrier_name: string;
  expires_at: string;
  today: string;
  from: string;
  to: string;
  /** Trips of today's tasks, live. */
  live: PublicTrip[];
  trips: PublicTrip[];
  totals: PublicTotals;
}

export const publicTripsQuery = z.object({ from: isoDate.optional(), to: isoDate.optional() }).strict();

export const linkParamsSchema = z.object({ token: linkTokenSchema }).strict();
export const linkTripParamsSchema = z.object({ token: linkTokenSchema, report_id: wireId('ожидается номер рейса') }).strict();
export const linkFileParamsSchema = z.object({ token: linkTokenSchema, id: wireId('ожидается номер файла') }).strict();

// ── Downloads through the link (docs/customer-link.md «Downloads») ──

/** An act with its invoice issued to the link's customer, with its papers through the link. */
export interface PublicInvoice {
  id: number;
  number: number;
  year: number;
  issued_on: string;
  from: string;
  to: string;
  total: number;
  /** issued (unpaid), paid, or corrected (replaced by a later act). */
  state: 'issued' | 'paid' | 'corrected';
  paid_on: string | null;
  act_url: string;
  invoice_url: string;
}

/** GET /c/{token}/statement?from&to&format: the statement of trips as a file (at most a year). */
export const publicStatementQuery = z
  .object({ from: isoDate, to: isoDate, format: z.enum(['xlsx', 'pdf'], { message: 'ожидается xlsx или pdf' }) })
  .strict()
  .refine((v) => v.from <= v.to, { message: 'Период: дата «по» раньше даты «с»', path: ['to'] });
export type PublicStatementQuery = z.infer<typeof publicStatementQuery>;
/** The longest period the link's statement covers, days. */
export const PUBLIC_STATEMENT_MAX_DAYS = 366;
export const linkInvoiceParamsSchema = z.object({ token: linkTokenSchema, id: wireId('ожидается номер акта') }).strict();
