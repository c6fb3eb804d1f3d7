/**
 * The operator adapter (docs/documents.md «Adapters»): how titles made ready reach the ЭДО operator and how its answers
 * come back. The exchange claims what to send (server/documents/exchange.ts: ready → sent in one conditional update,
 * so a title is handed over once) and applies the answers; an adapter only moves bytes. The files adapter
 * (files-adapter.ts) is the first and the default: the user carries the zip to any operator's portal and brings its
 * answers back. An API adapter (Контур's logistics API, Диадок) implements the same two methods: `send` posts each
 * file under its idempotency key, `answers` polls the operator.
 */

/** A title claimed for sending: its frozen file and the key the operator dedups by. */
export interface OutgoingFile {
  document_id: number;
  title: string;
  /** `ИдФайл`: the file's name without `.xml`. */
  file_name: string;
  /** The XML as frozen (Unicode); the adapter sends its windows-1251 bytes. */
  xml: string;
  idempotency_key: string;
}

/** What sending gave: the files adapter a zip for the user to carry; an API adapter the operator's ids per file. */
export type SendReceipt =
  | { kind: 'file'; name: string; bytes: Uint8Array }
  | { kind: 'api'; sent: { document_id: number; operator_id: string }[] };

/** One answer of the operator about one of our files. */
export interface OperatorAnswer {
  /** The ИдФайл it answers (or, for an API adapter, the idempotency key it was sent under). */
  file: string | null;
  key: string | null;
  status: 'accepted' | 'rejected';
  /** Accepted: the waybill's УИД ТрН and the QR's payload (the УИД itself when the operator gives no other). */
  uid: string | null;
  qr: string | null;
  /**
   * Accepted: the signature of the other party the operator returns with the file (CMS, base64) — our Т1 draft as
   * the shipper signed it, which our Т2 cites (`ИдИнфГО/@ЭП`); null when the operator gives none.
   */
  signature: string | null;
  /** Rejected: the operator's reason (its codes and texts) and what to fix. */
  reason: string | null;
  fix: string | null;
}

/** Answers read, each with where it came from (a file's name); what could not be read, with why. */
export interface AnswerBatch {
  answers: { source: string; answer: OperatorAnswer }[];
  invalid: { source: string; detail: string }[];
}

/** An uploaded answer file (the files adapter's input); an API adapter polls and takes none. */
export interface AnswerFile {
  name: string;
  bytes: Uint8Array;
}

export interface OperatorAdapter {
  /** `files` (the only one built); an API adapter's name once one exists (and a setting to choose it). */
  readonly name: string;
  /** Hands the claimed files to the operator (or packs them for the user). */
  send(day: string, files: OutgoingFile[]): Promise<SendReceipt>;
  /** The operator's answers: the uploaded files read, or the operator polled. */
  answers(files: AnswerFile[]): Promise<AnswerBatch>;
}
