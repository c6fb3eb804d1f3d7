/**
 * What the report outbox is to the rest of the engine (worker/outbox.ts builds it): its constants and retry rule,
 * what it is given (`OutboxDeps`: the browser primitives as worker/ports.ts names them) and what it answers
 * (`Outbox`); `noOutbox` stands in for it where nothing may be queued.
 */
import type { OutboxRecord } from './db.ts';
import type { NewOdometerReading } from './odometer.ts';
import type { NewReport, OutboxSnapshot, Result } from './api.ts';
import type { Clock, Locks, NetworkStatus } from './ports.ts';
import type { OutboxStore } from './store.ts';
import type { NewTripStep } from './trip-steps.ts';
import type { Position, TripStep } from '../contract/trips.ts';
import type { QueuedShiftAcceptance } from './shift-acceptance.ts';

export const FLUSH_LOCK = 'outbox-flush';
export const FLUSH_INTERVAL_MS = 60_000;
/** Counted (non-network) failures after which an item is given up, when they happen while online. */
export const MAX_ATTEMPTS = 10;
/**
 * Uploads in flight at once within a flush, never two of one association. The first upload of a batch goes
 * alone: only once the server has answered does the batch widen, so a dead network costs one request.
 */
export const FLUSH_CONCURRENCY = 3;

export function retryDelayMs(attempts: number): number {
  return 2 ** attempts * 1000;
}

/** What POST /reports/ answered: the stored report's id, or why not (`network` or `unreachable`: not an attempt). */
export type SendResult = Result<{ id: number }>;

export interface OutboxDeps {
  /** The queue's records and photos (worker/store.ts). */
  store: OutboxStore;
  /** Time, and the timers of the schedule (`start`): the 60 s tick and the retry after 2^attempts s. */
  clock: Clock;
  /** Web Locks: every flush, in every context, runs under FLUSH_LOCK. */
  locks: Locks;
  /** navigator.onLine and not in offline mode. */
  isOnline(): boolean;
  /** The signed-in user: a flush sends only their reports. */
  userId(): number | null;
  /**
   * Sends the record (trip-form.ts outboxRequest: multipart POST /reports/, or PUT /trips/{uid}/steps/{step} for a
   * trip step) with the Idempotency-Key header; `onProgress` gets 0..1. A failure
   * with `network` or `unreachable` set (a dead connection, a busy server) did not refuse the report.
   */
  sendReport(record: OutboxRecord, photos: Blob[], onProgress: (progress: number) => void): Promise<SendResult>;
  /** The association ids of GET /tasks/assigned/, or null when that call failed. */
  assignedAssociationIds(): Promise<number[] | null>;
  /**
   * Something in the outbox changed: push a new snapshot. `stored` is false when only this engine's view
   * changed (the item being sent, its progress): other engines then have nothing to re-read. Called for
   * every change, also per item and per progress event: the engine throttles the pushes.
   */
  onChange(stored: boolean): void;
  /** Tell the driver (a toast), in Russian. */
  notify(message: string): void;
  /**
   * Photo compression before queueing (worker/images.ts compressPhoto in the engines, a double in tests).
   * Null where nothing is queued: the service worker only sends what the engines stored, and must not
   * carry the compression library in its bundle.
   */
  compress: ((photo: Blob) => Promise<Blob>) | null;
  /**
   * Every unsent item counts as due, whatever its retry time: the service worker's 'sync' is the browser
   * saying the network is back, so an item whose last try failed a moment ago goes now (one pass, no loop).
   */
  everythingDue?: boolean;
}

export interface Outbox {
  queueReport(report: NewReport): Promise<Result<number>>;
  /** A trip step (worker/trip-steps.ts), held for its undo window, then sent in its trip's order. */
  queueTripStep(step: NewTripStep): Promise<Result<{ id: number; trip_uid: string }>>;
  /** The receiver's one signature for the shift's trips (worker/shift-acceptance.ts), its body checked and keyed by the engine. */
  queueShiftAcceptance(input: QueuedShiftAcceptance): Promise<Result<{ id: number; key: string }>>;
  undoTripStep(uid: string, step: TripStep): Promise<Result<null>>;
  /** An odometer reading of the driver's trip sheet (worker/odometer.ts), once per (sheet, start|end). */
  queueOdometer(reading: NewOdometerReading): Promise<Result<{ id: number }>>;
  /** A step's time corrected by the driver: sent again as source 'corrected' (without its files once delivered). */
  correctTripStep(uid: string, step: TripStep, at: string): Promise<Result<null>>;
  /** The position read after the tap, added to a step not yet sent. */
  placeTripStep(uid: string, step: TripStep, position: Position): Promise<Result<null>>;
  /**
   * Sends what is due; resolves when this engine's flush (and any flush asked for meanwhile) is over.
   * `everything`: the driver asked («Отправить сейчас») — every unsent item goes, whatever its retry time.
   */
  flush(options?: { everything?: boolean }): Promise<void>;
  /** Fire-and-forget flush for timers, 'online', 'visibilitychange', and the service worker's sync events. */
  triggerFlush(): void;
  /** Deletes the sent items whose association left /tasks/assigned/; answers them, marked resolved. */
  resolve(): Promise<OutboxRecord[]>;
  discard(id: number): Promise<void>;
  /** An undelivered item back in the queue: attempts from zero, due now; a flush follows. */
  resend(id: number): Promise<void>;
  /**
   * Re-reads the store, for changes made by another engine or the service worker (`announce: false` then:
   * announcing it back would ping-pong).
   */
  reload(options?: { announce?: boolean }): Promise<void>;
  snapshot(): OutboxSnapshot;
  /** Starts the schedule: a flush now, every 60 s, when `network` comes back, and when a retry is due. Answers the stop. */
  start(network: NetworkStatus): () => void;
}

/** Builds the outbox from what the engine gives it (worker/outbox.ts createOutbox, `noOutbox`, or a test double). */
export type OutboxFactory = (deps: OutboxDeps) => Outbox;

export const NO_OUTBOX_MESSAGE = 'Очередь отчётов недоступна';

/** The engine without an outbox: nothing is queued, and the UI is told so in Russian. */
export const noOutbox: OutboxFactory = () => ({
  queueReport: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  queueTripStep: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  queueShiftAcceptance: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  undoTripStep: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  queueOdometer: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  correctTripStep: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  placeTripStep: async () => ({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false }),
  flush: async () => undefined,
  triggerFlush: () => undefined,
  resolve: async () => [],
  discard: async () => undefined,
  resend: async () => undefined,
  reload: async () => undefined,
  snapshot: () => ({ pending: 0, flushing: false, items: [] }),
  start: () => () => undefined,
});
