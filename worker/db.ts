/**
 * The engine's IndexedDB (idb). One database, four stores:
 * - kv: tokens under the keys 'token' and 'refresh' (SPEC.md section 3), the cached profile, small facts;
 * - cache: GET answers keyed by user, path and sorted params (ARCHITECTURE.md, GET cache);
 * - outbox: the report queue records (SPEC.md section 3, offline report queue);
 * - photos: compressed photo blobs, bound to their outbox record's id.
 * The database is opened by a function the caller passes in, so tests use fake-indexeddb.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

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
   * Refused 10 times while online (SPEC §4): out of the queue, not thrown away (issue 10 A) — kept with its
   * photos in «Не доставлено» until the driver sends it again or deletes it.
   */
  givenUp?: boolean;
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

export function openEngineDb(name = DB_NAME): Promise<EngineDb> {
  return openDB<EngineSchema>(name, DB_VERSION, {
    upgrade(db) {
      db.createObjectStore('kv');
      const cache = db.createObjectStore('cache', { keyPath: 'key' });
      cache.createIndex('byUser', 'userId');
      const outbox = db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      outbox.createIndex('byAssociation', 'association_id');
      const photos = db.createObjectStore('photos', { keyPath: 'id', autoIncrement: true });
      photos.createIndex('byOutbox', 'outboxId');
    },
  });
}

export const KV = {
  token: 'token',
  refresh: 'refresh',
  profile: 'profile',
} as const;
