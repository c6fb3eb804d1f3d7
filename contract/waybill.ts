/**
 * A document's states and their Russian names (contract/documents.ts re-exports them), and a trip's waybill as its
 * driver sees it on his task card (issue 33 §1 «The driver's part», §3). Pure and without zod: the driver's bundle
 * reads it.
 */
export const DOCUMENT_STATES = ['draft', 'ready', 'sent', 'accepted', 'rejected', 'annulled'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** A trip's waybill number: the task's and the trip's («14-5»), unique in the company and saying what it is for. */
export const waybillNumberOf = (taskId: number, reportId: number): string => `${taskId}-${reportId}`;

/** Each state's one Russian name. */
export const DOCUMENT_STATE_LABELS: Record<DocumentState, string> = {
  draft: 'Черновик',
  ready: 'Готов к подписи',
  sent: 'Отправлен',
  accepted: 'Принят',
  rejected: 'Отклонён',
  annulled: 'Аннулирован',
};

/** The titles a document can be: ours (Т1 draft, Т2, Т4) and, received later, the shipper's Т1 and consignee's Т3. */
export type DocumentTitleCode = 't1' | 't2' | 't3' | 't4';

/**
 * A trip's waybill as its driver sees it on his task card (GET /tasks/assigned/ `waybills`, one per trip that has
 * a document): the state in one word, and once accepted the УИД ТрН and what the QR code carries.
 */
export interface DriverWaybill {
  report_id: number;
  /** The trip's id made on the phone (issue 32); null for a trip entered after the fact. */
  trip_uid: string | null;
  state: DocumentState;
  /** The title whose state this is (the accepted one, else the last moved). */
  title: DocumentTitleCode;
  uid: string | null;
  /** What the QR code encodes: the operator's payload, else the УИД; null until accepted. */
  qr: string | null;
}

/** A trip's outgoing document, as much of it as the driver's view reads. */
export interface WaybillDocumentFacts {
  report_id: number;
  title: DocumentTitleCode;
  state: DocumentState;
  uid: string | null;
  qr: string | null;
  updated_at: string;
}

/**
 * The driver's one line for a trip's titles: an accepted (not annulled) title wins — its УИД and QR are what he
 * shows on the road; else the title moved last among the live ones; else (all annulled) «Аннулирован». Null for none.
 */
export function driverWaybill(documents: readonly WaybillDocumentFacts[], tripUid: string | null): DriverWaybill | null {
  const live = documents.filter((d) => d.state !== 'annulled');
  const latest = (list: readonly WaybillDocumentFacts[]) => list.reduce<WaybillDocumentFacts | null>((a, d) => (!a || d.updated_at > a.updated_at ? d : a), null);
  const chosen = latest(live.filter((d) => d.state === 'accepted' && d.uid)) ?? latest(live) ?? latest(documents);
  if (!chosen) return null;
  const accepted = chosen.state === 'accepted';
  const uid = accepted ? chosen.uid : null;
  const qr = accepted ? (chosen.qr?.trim() ? chosen.qr : uid) : null;
  return { report_id: chosen.report_id, trip_uid: tripUid, state: chosen.state, title: chosen.title, uid, qr };
}

/** How the driver's card names the state: «Накладная (ЭТрН): принят». */
export const driverWaybillLine = (state: DocumentState): string => `Накладная (ЭТрН): ${DOCUMENT_STATE_LABELS[state].toLowerCase()}`;
