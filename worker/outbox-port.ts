/**
 * Where the report outbox (worker/outbox.ts, worker/images.ts) plugs into the engine. The engine hands
 * the outbox these ports — the authorised multipart POST with upload progress, the assigned-tasks read,
 * the Web Locks, the clock and the network — and calls the module it answers for the OutboxApi methods.
 */
import type { NewReport, OutboxSnapshot, Result } from './api.ts';
import type { EngineDb } from './db.ts';
import { failure, type UploadOptions } from './http.ts';

// Lives in its own file so the service worker can use it without pulling in axios.
export { associationIdsOf } from './assigned-ids.ts';
import type { Clock, Locks, NetworkStatus } from './ports.ts';

export interface OutboxPorts {
  db: EngineDb;
  clock: Clock;
  /** Web Locks: the flush runs under 'outbox-flush' in every mode. */
  locks: Locks;
  /** online/offline events, for a flush when the network returns. */
  network: NetworkStatus;
  now(): number;
  /** navigator.onLine and not in offline mode. */
  isOnline(): boolean;
  /** The signed-in user; a flush sends only their reports. */
  userId(): number | null;
  /**
   * Multipart POST through the engine's axios (bearer, 401 → one shared refresh → one repeat). A failure
   * is an ApiFailure {ok:false, message (server detail or fallback), status, network (SPEC.md section 8)}.
   * Pass `headers: {'Idempotency-Key': record.idempotencyKey}` and `onProgress` (0..1).
   */
  postForm<T>(path: string, form: FormData, options?: UploadOptions): Promise<Result<T>>;
  /** GET /tasks/assigned/ fresh from the server → every association id in it; null when it failed or came from the cache. */
  assignedAssociationIds(): Promise<number[] | null>;
  /**
   * Something changed: the engine pushes a new snapshot, and when `stored` (the default) tells the other
   * engines to re-read the queue; false for what only this engine knows (the item being sent, its progress).
   */
  onChange(stored?: boolean): void;
  /** Tells the user, e.g. an item deleted after 10 failures, with the server's reason. */
  notify(message: string): void;
}

export interface OutboxModule {
  queueReport(report: NewReport): Promise<Result<number>>;
  flush(options?: { everything?: boolean }): Promise<void>;
  discard(id: number): Promise<void>;
  resend?(id: number): Promise<void>;
  snapshot(): OutboxSnapshot | Promise<OutboxSnapshot>;
  compressPreview(photo: Blob): Promise<Blob>;
  /** The first photo of a queued report, or null (none, or gone). */
  firstPhoto?(id: number): Promise<Blob | null>;
  /** Re-reads the queue after another engine (dedicated mode) or the service worker changed it. */
  reload?(): Promise<void>;
  /** Starts the schedule (every 60 s, on 'online', ...); answers the stop function. */
  start?(): () => void;
}

export type OutboxFactory = (ports: OutboxPorts) => OutboxModule;

export const NO_OUTBOX_MESSAGE = 'Очередь отчётов недоступна';

/** The engine without an outbox: nothing is queued, and the UI is told so in Russian. */
export const noOutbox: OutboxFactory = () => ({
  queueReport: async () => failure(NO_OUTBOX_MESSAGE),
  flush: async () => undefined,
  discard: async () => undefined,
  snapshot: () => ({ pending: 0, flushing: false, items: [] }),
  compressPreview: async (photo) => photo,
});
