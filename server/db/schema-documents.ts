/** The exchange's documents (migration 026; docs/documents.md «The exchange»): a trip's titles and their states. */
import type { Generated } from 'kysely';
import type { DocumentDirection, DocumentState, DocumentTitleCode } from '../../contract/documents.ts';

/** One title of one trip, made here (`out`) or received (`in`, issue 33's incoming Т1/Т3), with its life. */
export interface EtrnDocumentsTable {
  id: Generated<number>;
  company_id: number;
  report_id: number;
  title: DocumentTitleCode;
  direction: DocumentDirection;
  state: DocumentState;
  /** The trip's day (the task's date), copied when taken in: the export's day and the list's date filter. */
  trip_date: string;
  /** The vehicle the trip's driver drove (his fleet card), copied when taken in and when marked ready. */
  vehicle_id: number | null;
  /** `ИдФайл` and the XML (Unicode text; sent as windows-1251), frozen when marked ready. */
  file_name: string | null;
  xml: string | null;
  /** Per title made ready: the operator adapter sends under it, so one title is never sent twice. */
  idempotency_key: string | null;
  /** The export (or API send) that sent it. */
  sent_batch: string | null;
  uid: string | null;
  qr: string | null;
  /** The signature the operator's answer gives for the file (our Т1 draft signed by the shipper; migration 033). */
  signature: string | null;
  reason: string | null;
  fix: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  ready_at: string | null;
  sent_at: string | null;
  answered_at: string | null;
  annulled_at: string | null;
  /** The operator job's claim (migration 034): a random token and when taken; older than the lease, free again. */
  operator_claim: string | null;
  operator_claimed_at: string | null;
  /** Sending attempts started; past the first, the job asks the operator before it sends again. */
  operator_attempts: Generated<number>;
  /** Not before (the backoff after a failed attempt). */
  operator_next_at: string | null;
  operator_error: string | null;
  /** What the operator named it (Диадок: MessageId, EntityId), polled for its answer. */
  operator_message_id: string | null;
  operator_entity_id: string | null;
}

/** Per company, the operator job's last pass (migration 034): shown on the «Документы» screen. */
export interface EtrnOperatorRunsTable {
  company_id: number;
  adapter: string;
  ran_at: string;
  /** JSON: `OperatorRun` of contract/documents.ts. */
  result: string;
}

/** Per company, the box events the operator job took in (migration 040): each once. */
export interface EtrnOperatorEventsTable {
  company_id: number;
  event_id: string;
  seen_at: string;
}

/** Per company, where the next `GetNewEvents` starts (its `afterIndexKey`; migration 040). */
export interface EtrnOperatorCursorsTable {
  company_id: number;
  after_index_key: string;
}

/**
 * Per company, the operator its titles go through (migration 050): `files` or `diadoc` with the box and the
 * credentials. The secrets (token, refresh token, client secret) are read by the job only, never answered.
 */
export interface CompanyOperatorSettingsTable {
  company_id: number;
  adapter: string;
  box_id: string | null;
  token: string | null;
  refresh_token: string | null;
  client_id: string | null;
  client_secret: string | null;
  updated_at: string;
  updated_by: number | null;
}

export interface DocumentTables {
  company_operator_settings: CompanyOperatorSettingsTable;
  etrn_documents: EtrnDocumentsTable;
  etrn_operator_runs: EtrnOperatorRunsTable;
  etrn_operator_events: EtrnOperatorEventsTable;
  etrn_operator_cursors: EtrnOperatorCursorsTable;
}
