/**
 * The one typed API that crosses the worker boundary (README.md, "Architecture").
 * The UI holds `Comlink.Remote<WorkerApi>` and imports only these types. Everything that crosses is
 * plain, structured-clone-safe data; errors cross as `ApiFailure` values, never as thrown objects,
 * so the status, the server's detail and the network flag survive the trip.
 */
import type { Role } from '../contract/roles.ts';
import type { NewOdometerReading } from './odometer.ts';
import type { RegistrationReviewer, User } from '../contract/entities.ts';
import type { RegistrationPayload } from '../contract/payloads.ts';
import type { AlertsSnapshot } from './alerts.ts';
import type { AcceptancePayload, Position, StampSource, TripStep } from '../contract/trips.ts';
import type { NewTripStep } from './trip-steps.ts';

/** A per-shift acceptance as the screen hands it to the engine (worker/shift-acceptance.ts checks and queues it). */
export interface NewShiftAcceptance {
  trip_uids: string[];
  /** The device's time of the signature, ISO. */
  at: string;
  position: Position | null;
  acceptance: AcceptancePayload;
  /** The receiver's signature, a PNG drawn on the screen (stored as it is); null for a refusal. */
  signature: Blob | null;
}

export type { NewTripStep } from './trip-steps.ts';
export type { AlertItem, AlertsSnapshot } from './alerts.ts';

/** The auth state of docs/product.md §3, without the tokens (those never leave the worker). */
export interface AuthSnapshot {
  isAuthenticated: boolean;
  loading: boolean;
  error: string | null;
  user: User | null;
  initialized: boolean;
  offlineMode: boolean;
}

export interface NetworkSnapshot {
  online: boolean;
  /** navigator.connection.effectiveType where the browser has it. */
  effectiveType: string | null;
  offlineMode: boolean;
  /**
   * When the engine last came back (network returned, or offline mode ended), epoch ms. A tab that sees
   * it change refetches what it shows (React Query invalidation).
   */
  reconnectedAt?: number | null;
  /**
   * The live change feed as this engine knows it (null: it holds no stream, e.g. another tab's engine does):
   * `connected`, and when the server was last heard from on it (epoch ms; null: never yet).
   */
  live?: { connected: boolean; lastSeenAt: number | null } | null;
}

export type OutboxItemState = 'waiting' | 'sending' | 'retry' | 'sent' | 'failed' | 'undelivered';

export interface OutboxItemView {
  id: number;
  association_id: number;
  state: OutboxItemState;
  attempts: number;
  nextAttemptAt: number | null;
  sentAt: number | null;
  lastError: string | null;
  photoCount: number;
  /** The report's quantity, so the driver can tell queued reports apart. */
  quantity: number | null;
  createdAt: number;
  /** 0..1 while the item's upload is in progress. */
  progress: number | null;
  /** It did not go at once (outbox-view.ts `waited`): its delivery is told by the notice «Отчёт отправлен». */
  waited: boolean;
  /** A trip step (issue 32) rather than a report. */
  trip?: OutboxTripStepView;
  /** The receiver's one signature (or the refusal) for the listed trips of the shift, rather than a report. */
  shiftAcceptance?: { key: string; trip_uids: string[]; kind: 'signed' | 'refused'; at: string };
  /** An odometer reading of a trip sheet (issue 33 §2) rather than a report. */
  odometer?: { sheet_id: number; which: 'start' | 'end'; value: number; at: string };
}

/** A queued trip step as the tabs see it: the current trip's timeline is read from these. */
export interface OutboxTripStepView {
  uid: string;
  step: TripStep;
  /** The device's time of the step, ISO. */
  at: string;
  source: StampSource;
  position: Position | null;
  /** Until when (epoch ms) the step may be taken back (`undoTripStep`); null once that is over. */
  holdUntil: number | null;
  acceptance: 'signed' | 'refused' | null;
}

export interface OutboxSnapshot {
  pending: number;
  /** Reports refused for good, kept in «Не доставлено» (not counted in `pending`). */
  undelivered?: number;
  flushing: boolean;
  items: OutboxItemView[];
}

export interface Snapshot {
  auth: AuthSnapshot;
  network: NetworkSnapshot;
  outbox: OutboxSnapshot;
  /** Which engine mode this tab runs in. */
  mode: 'shared' | 'dedicated';
  /**
   * Messages for the user from the engine's background work (e.g. a queued report the server refused
   * for good), newest last, the last few only. A tab toasts those newer than its connection.
   */
  notices?: EngineNotice[];
  /**
   * The last writes this browser made (any tab): a tab refetches the queries a newer write touched, so an
   * edit in one tab shows in every other without a reload.
   */
  writes?: EngineWrite[];
  /** Alerts to the dispatcher heard on the change feed: which tab shows each, and the unseen counts per menu entry. */
  alerts?: AlertsSnapshot;
}

export interface EngineWrite {
  /** Increases with every write this engine heard of. */
  seq: number;
  /** The written API path, relative to /api/ ('tasks/5/', '/reports/3'). */
  path: string;
  /** Its method, where known: with the path it names the declared call (contract/calls), whose `invalidates` apply. */
  method?: string;
}

export interface EngineNotice {
  id: number;
  message: string;
  /** epoch ms */
  at: number;
}

/** A failed call, as the UI sees it. `message` is the server's detail or the catalogue's fallback. */
export interface ApiFailure {
  ok: false;
  message: string;
  status: number | null;
  network: boolean;
  /**
   * The server answered but could not take the request now: 502, 503, 504, 429, or a 5xx without our JSON
   * body (a proxy's page). Not a verdict on the request: the outbox does not count it as an attempt.
   */
  unreachable?: boolean;
}

export type Result<T> = { ok: true; data: T } | ApiFailure;

export interface CachedResult<T> {
  data: T;
  fromCache: boolean;
  /** When the data was fetched from the server (epoch ms). */
  storedAt: number;
}

export type Params = Record<string, string | number | boolean | null | undefined>;

/** The text fields of a multipart body (HttpApi.sendForm). */
export type FormFields = Record<string, string | number | null>;

/** What the UI should do after startup (docs/product.md §4, "Startup"). */
export interface StartupOutcome {
  toast: string | null;
  redirectToLogin: boolean;
}

export interface TabInfo {
  /** device_id from the tab's localStorage (workers have none). */
  deviceId: string;
  deviceInfo: string;
  /** A Web Lock name this tab holds for its lifetime; the worker drops the tab when it gets the lock. */
  lockName: string;
}

export interface AuthApi {
  /** Runs the startup sequence once per engine; later callers get the same outcome. */
  startup(): Promise<StartupOutcome>;
  login(username: string, password: string, pushSubscription?: unknown): Promise<Result<User>>;
  /** Sends a sign-up; answers who will review it. */
  register(payload: RegistrationPayload): Promise<Result<RegistrationReviewer>>;
  logout(): Promise<void>;
  fetchProfile(): Promise<Result<User>>;
}

export interface HttpApi {
  /** A cached GET (docs/product.md §7): fresh when it can be, from IndexedDB when it must be. */
  get<T = unknown>(path: string, params?: Params): Promise<Result<CachedResult<T>>>;
  /** A mutation; never cached. `body` is JSON. */
  send<T = unknown>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, params?: Params): Promise<Result<T>>;
  /**
   * A multipart mutation (PUT /reports/{id}: changed quantities plus added photos). The files are compressed
   * as the outbox compresses photos. A null field travels as empty text, which the server reads as null;
   * a field left out of `fields` is not sent at all (for an edit: left as it is).
   * Blobs, unlike FormData, cross Comlink by structured clone, hence fields and files apart.
   */
  sendForm<T = unknown>(
    method: 'POST' | 'PUT',
    path: string,
    fields: FormFields,
    files: Blob[],
    fileField?: string,
  ): Promise<Result<T>>;
  /** A download (exports, xlsx breakdowns); answers the bytes and file name, or null for a 204. */
  download(path: string, params?: Params): Promise<Result<{ blob: Blob; filename: string } | null>>;
}

export interface NewReport {
  association_id: number;
  /** Trips this report counts (1 by default), the weighbridge ticket's number, and whether it is the last trip. */
  trips?: number;
  ticketNumber?: string | null;
  /** The driver's last trip (it finishes their part); true when not said — one report, one task. */
  final?: boolean;
  quantity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  unloadingIsBuyer: 0 | 1;
  loadingIsBuyer: 0 | 1;
  /** A trip entered after the fact: its typed times, ISO (contract/driver.ts; the last one is its completion). */
  times?: TypedTimes;
  photos: Blob[];
}

/** The typed times of a trip entered after the fact (the form fields of POST /reports/). */
export type TypedTimes = Partial<Record<'loading_arrived_at' | 'loading_departed_at' | 'unloading_arrived_at' | 'unloading_departed_at', string>>;

export interface OutboxApi {
  /** Compresses the photos and queues the report; answers the queue record's id. */
  queueReport(report: NewReport): Promise<Result<number>>;
  flushNow(): Promise<void>;
  discard(id: number): Promise<void>;
  /** Puts an undelivered report back in the queue, its attempts counted from zero, and sends it. */
  resend(id: number): Promise<void>;
  /**
   * Queues a step of a trip (issue 32): photos compressed, the signature kept as drawn; `trip_uid` null starts a
   * new trip with its first step. Answers the record's id and the trip's uid. Sent after UNDO_WINDOW_MS.
   */
  queueTripStep(step: NewTripStep): Promise<Result<{ id: number; trip_uid: string }>>;
  /**
   * Queues the driver's odometer reading of his trip sheet (issue 33 §2): the dashboard's photo compressed; once per
   * (sheet, start|end) on the device — a second is refused in Russian. Sent at once when it can be.
   */
  queueOdometer(reading: NewOdometerReading): Promise<Result<{ id: number }>>;
  /** Takes a step back while its undo window lasts; after it, a failure saying why it stays. */
  undoTripStep(tripUid: string, step: TripStep): Promise<Result<null>>;
  /**
   * Queues the per-shift acceptance (issue 32): the receiver signed once (or refused) for the listed finished trips;
   * sent as POST /trips/acceptance, exactly once by its key. Answers the record's id and that key.
   */
  queueShiftAcceptance(input: NewShiftAcceptance): Promise<Result<{ id: number; key: string }>>;
  /** Corrects a step's time (ISO): it goes again with source 'corrected'. */
  correctTripStep(tripUid: string, step: TripStep, at: string): Promise<Result<null>>;
  /**
   * Adds the position read after the tap to a step not yet sent (the step is queued at the tap, the reading takes up
   * to a few seconds, and the step is held for its undo window anyway); a failure when it went without one.
   */
  placeTripStep(tripUid: string, step: TripStep, position: Position): Promise<Result<null>>;
  /** Compresses one photo for a preview (same settings as the queue). */
  compressPreview(photo: Blob): Promise<Blob>;
  /** The first photo of a queued report (its thumbnail in the queue), or null. */
  outboxPhoto(id: number): Promise<Blob | null>;
}

export interface EngineApi {
  /** Registers a tab: it gets the latest snapshot at once and every change after. */
  connect(tab: TabInfo, onSnapshot: (snapshot: Snapshot) => void): Promise<void>;
  /** A tab came to the front (its lock name): the next alerts show there (worker/alerts.ts). */
  tabFocused(tab: string): Promise<void>;
  /** A tab opened a menu entry: its alert counter starts again from zero in every tab. */
  alertsSeen(path: string): Promise<void>;
  /** A tab saw the 'online' or 'offline' event (a SharedWorker may not get it): the engine re-reads the network. */
  networkChanged(): Promise<void>;
  /**
   * A tab came to the front: in offline mode the engine tries the server at once (and the queue follows
   * if it answers). Answers whether the engine is out of offline mode.
   */
  wake(): Promise<boolean>;
  /** Reports an uncaught client error to the server (best effort). */
  logClientError(error: ClientErrorReport): Promise<void>;
}

export interface ClientErrorReport {
  message: string;
  stack: string | null;
  source: string | null;
  lineno: number | null;
  colno: number | null;
  userAgent: string;
  url: string;
  time: string;
}

export type WorkerApi = EngineApi & AuthApi & HttpApi & OutboxApi;

export type { Role };
