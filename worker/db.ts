/**
 * The engine's IndexedDB (idb). One database, four stores:
 * - kv: tokens under the keys 'token' and 'refresh' (docs/product.md §3), the cached profile, small facts;
 * - cache: GET answers keyed by user, path and sorted params (docs/product.md §7, GET cache);
 * - outbox: the report queue records (docs/product.md §3, outbox record);
 * - photos: compressed photo blobs, bound to their outbox record's id.
 * The database is opened by a function the caller passes in, so tests use fake-indexeddb.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ShiftAcceptanceBody, TripStep, TripStepBody } from '../contract/trips.ts';

export const DB_NAME = 'reis-engine';
export const DB_VERSION = 1;

export interface CacheEntry {
  key: string;
  userId: number | null;
  path: string;
  data: unknown;
  storedAt: number;
  /** When the request behind it began (entries stored before this field existed have none). */
  startedAt?: number;
}

/**
 * A trip step queued in the outbox (worker/trip-steps.ts): `PUT /trips/{uid}/steps/{step}` with `body`. With
 * `signature` true, the record's last photo is the receiver's signature PNG (sent as the `signature` part).
 */
export interface TripStepFacts {
  uid: string;
  step: TripStep;
  body: TripStepBody;
  signature: boolean;
  /** The driver corrected the step's time (`body.source` 'corrected'): it goes again as JSON, without its files. */
  correction?: boolean;
}

/** A per-shift acceptance queued in the outbox (worker/shift-acceptance.ts): `POST /trips/acceptance` with `body`; with `signature` true its one photo is the receiver's signature PNG. */
export interface ShiftAcceptanceFacts {
  body: ShiftAcceptanceBody;
  signature: boolean;
}

/**
 * A driver's odometer reading on his trip sheet (issue 33 §2, worker/odometer.ts): `PUT /trip-sheets/{sheetId}/odometer/{which}`
 * with `{value, at}`; the record's one photo, when there is one, is the dashboard's. Its association_id is 0.
 */
export interface OdometerFacts {
  sheetId: number;
  which: 'start' | 'end';
  value: number;
  at: string;
}

export interface OutboxRecord {
  id?: number;
  association_id: number;
  quantity: number | null;
  total_unloading_quantity: number | null;
  total_loading_quantity: number | null;
  flags: { unloadingIsBuyer: 0 | 1; loadingIsBuyer: 0 | 1 };
  /** Ids of the photo records in the photos store, in order. */
  photos: number[];
  attempts: number;
  nextAttemptAt: number;
  sent: boolean;
  sentAt: number | null;
  resolved: boolean;
  idempotencyKey: string;
  completedAt: string;
  createdAt: number;
  lastError: string | null;
  /** The user who queued it: a flush sends only the signed-in user's own reports. */
  userId: number | null;
  /** Trips the report counts (1 when absent: queued before trips existed). */
  trips?: number;
  ticketNumber?: string | null;
  /**
   * The driver's last trip: the report finishes their part. Absent on a record queued before a task could take
   * several reports — then every report finished its task, so absent sends as final.
   */
  final?: boolean;
  /**
   * Refused 10 times while online (docs/product.md §4): out of the queue, not thrown away — kept with its
   * photos in «Не доставлено» until the driver sends it again or deletes it.
   */
  givenUp?: boolean;
  /**
   * Queued while the outbox could not send (no network, or offline mode): it waits however soon the network
   * returns, so its delivery is told («Отчёт отправлен»). Absent on a record queued while sending was possible.
   */
  heldBack?: boolean;
  /** A trip step rather than a report (issue 32); absent on reports. */
  trip?: TripStepFacts;
  /** An odometer reading (issue 33 §2) rather than a report; absent on reports and trip steps. */
  odometer?: OdometerFacts;
  /** A trip step's undo window: until then no engine sends it, and the driver may take it back. */
  holdUntil?: number;
  /** A report entered after the fact with its trip's times typed (the form fields of POST /reports/). */
  typedTimes?: Partial<Record<'loading_arrived_at' | 'loading_departed_at' | 'unloading_arrived_at' | 'unloading_departed_at', string>>;
  /** The receiver's one signature for the shift's trips (issue 32) rather than a report; absent on reports. */
  acceptance?: ShiftAcceptanceFacts;
}

export interface PhotoRecord {
  id?: number;
  outboxId: number | null;
  blob: Blob;
  name: string;
  type: string;
}

export interface EngineSchema extends DBSchema {
  kv: { key: string; value: unknown };
  cache: { key: string; value: CacheEntry; indexes: { byUser: number } };
  outbox: { key: number; value: OutboxRecord; indexes: { byAssociation: number } };
  photos: { key: number; value: PhotoRecord; indexes: { byOutbox: number } };
}

export type EngineDb = IDBPDatabase<EngineSchema>;

/** Runs `fn` on the store's current connection (idb-store.ts). */
export type RunOnDb = <T>(fn: (db: EngineDb) => Promise<T>) => Promise<T>;

const STORES = ['kv', 'cache', 'outbox', 'photos'] as const;

/** What happens to a connection after it opened (worker/idb-store.ts keeps the engine's connection alive with these). */
export interface OpenEvents {
  /** The database did not exist and was created now, empty. */
  created?(): void;
  /** Another connection asks for a newer version, or to delete the database: this one must close, or it blocks them. */
  versionChange?(db: EngineDb): void;
  /** The browser closed the connection itself (site data cleared, a storage failure): it is unusable. */
  terminated?(db: EngineDb): void;
  /** This open waits for older connections (another tab) to close. */
  blocked?(): void;
}

function createStores(db: IDBPDatabase<EngineSchema>): void {
  db.createObjectStore('kv');
  const cache = db.createObjectStore('cache', { keyPath: 'key' });
  cache.createIndex('byUser', 'userId');
  const outbox = db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
  outbox.createIndex('byAssociation', 'association_id');
  const photos = db.createObjectStore('photos', { keyPath: 'id', autoIncrement: true });
  photos.createIndex('byOutbox', 'outboxId');
}

/**
 * Opens the engine's database at DB_VERSION, creating it when missing. When another tab already upgraded it
 * to a newer version (a newer app), the current version is opened instead as long as it still has the four stores.
 */
export async function openEngineDb(name = DB_NAME, events: OpenEvents = {}): Promise<EngineDb> {
  let opened: EngineDb | null = null;
  const callbacks = {
    upgrade(db: IDBPDatabase<EngineSchema>, oldVersion: number) {
      if (oldVersion !== 0) return;
      createStores(db);
      events.created?.();
    },
    blocked: () => events.blocked?.(),
    blocking: () => opened && events.versionChange?.(opened),
    terminated: () => opened && events.terminated?.(opened),
  };
  try {
    opened = await openDB<EngineSchema>(name, DB_VERSION, callbacks);
    return opened;
  } catch (error) {
    if ((error as { name?: unknown } | null)?.name !== 'VersionError') throw error;
    const current = await openDB<EngineSchema>(name, undefined, callbacks);
    if (!STORES.every((store) => current.objectStoreNames.contains(store))) {
      current.close();
      throw error;
    }
    opened = current;
    return opened;
  }
}

export const KV = {
  token: 'token',
  refresh: 'refresh',
  profile: 'profile',
} as const;
