/**
 * The engine's storage, as the engine uses it (worker/idb-store.ts keeps it in IndexedDB): the kv facts (tokens,
 * the cached profile), the GET cache, and the report outbox with its photos. Nothing here names IndexedDB, so
 * the storage's failures reach the engine as one typed error (`StoreError`) it can put into Russian.
 */
import type { CacheEntry, OutboxRecord } from './db.ts';

/** Small facts under string keys. Each call is one transaction: a reader never sees half of a `set`. */
export interface KvStore {
  get(key: string): Promise<unknown>;
  getMany(keys: readonly string[]): Promise<unknown[]>;
  set(entries: Readonly<Record<string, unknown>>): Promise<void>;
  delete(keys: readonly string[]): Promise<void>;
}

export interface CacheStore {
  get(key: string): Promise<CacheEntry | undefined>;
  put(entry: CacheEntry): Promise<void>;
  clear(): Promise<void>;
  /** Drops every entry but `userId`'s (the anonymous ones too). */
  keepOnly(userId: number): Promise<void>;
}

/** The records and photos of the queue, inside one `OutboxStore.write` transaction. */
export interface OutboxWrite {
  get(id: number): Promise<OutboxRecord | undefined>;
  put(record: OutboxRecord): Promise<void>;
  /** Deletes the record and every photo bound to its id (also any its list lost track of). */
  remove(id: number): Promise<void>;
  deletePhotos(ids: readonly number[]): Promise<void>;
}

export interface OutboxStore {
  all(): Promise<OutboxRecord[]>;
  /** Stores the record and its photos (compressed already) in one transaction; answers the record's id. */
  add(record: OutboxRecord, photos: readonly Blob[]): Promise<number>;
  /**
   * Reads every record and adds the one `make` answers, in one strict transaction (a tap's step: one round trip to
   * the database, its check against the records as they are at the write); `make` answering a string refuses,
   * and nothing is written. Answers the id and the records as committed (the new one included), or the refusal.
   */
  addChecked(
    make: (records: readonly OutboxRecord[]) => OutboxRecord | string,
    photos: readonly Blob[],
  ): Promise<{ ok: true; id: number; records: OutboxRecord[] } | { ok: false; message: string }>;
  /** The record with its photos, read in one transaction; null when it is gone. */
  read(id: number): Promise<{ record: OutboxRecord; photos: Blob[] } | null>;
  /** The first photo of a record (the queue's thumbnail), or null. */
  firstPhoto(id: number): Promise<Blob | null>;
  /**
   * One read-write transaction over records and photos, committed durably (a report the driver saw as queued
   * survives a crash or a power cut) before the promise resolves; nothing of it is kept when it fails.
   * `fn` may run twice (again on a new connection when the first was lost): it must only read and write through `tx`.
   */
  write<T>(fn: (tx: OutboxWrite) => Promise<T>): Promise<T>;
}

/**
 * Why the storage failed: 'quota' — the device is out of space (nothing of the write was kept); 'unavailable' —
 * the database cannot be opened (private mode, storage switched off, a newer app version's schema).
 */
export type StoreErrorKind = 'quota' | 'unavailable';

export class StoreError extends Error {
  readonly kind: StoreErrorKind;

  constructor(kind: StoreErrorKind, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StoreError';
    this.kind = kind;
  }
}

export function isStoreError(error: unknown, kind?: StoreErrorKind): error is StoreError {
  return error instanceof StoreError && (kind === undefined || error.kind === kind);
}

/**
 * The database was deleted under the engine (another tab, the browser's "clear site data") and has been created
 * again, empty: the tokens, the cache and the queue it held are gone.
 */
export interface StoreReset {
  reason: 'deleted';
}

export interface EngineStore {
  kv: KvStore;
  cache: CacheStore;
  outbox: OutboxStore;
  /** Calls back after the database was found deleted and created anew; answers the unsubscribe function. */
  onReset(listener: (reset: StoreReset) => void): () => void;
  /** Lets the connection go (the engine shuts down); a later call opens it again. */
  close(): void;
}
