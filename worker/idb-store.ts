/**
 * The engine's store (worker/store.ts) in IndexedDB, through idb, on one connection that it keeps usable:
 * - closed under it (the browser's 'close', or a plain close() by anyone) → the next call opens it again;
 * - another tab asking for a newer version or deleting the database ('versionchange') → this connection closes
 *   at once, so it blocks nobody, and the next call reopens (the newer version, while it has our stores);
 * - deleted meanwhile → the next call creates it again, empty, and `onReset` listeners hear so;
 * - out of space → `StoreError('quota')`, nothing of that write kept; not openable → `StoreError('unavailable')`.
 * A call that met a connection lost midway runs once more on a new one: an interrupted transaction kept nothing.
 */
import { DB_NAME, openEngineDb, type EngineDb, type OpenEvents, type RunOnDb } from './db.ts';

export type { RunOnDb };
import { idbOutboxStore } from './outbox-store.ts';
import { StoreError, type EngineStore, type StoreReset } from './store.ts';

export type OpenDb = (name: string, events: OpenEvents) => Promise<EngineDb>;

const QUOTA_ERRORS = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);
/** What a call meets on a connection closed under it: the transaction could not start, or was aborted. */
const LOST_CONNECTION_ERRORS = new Set(['InvalidStateError', 'AbortError']);

const nameOf = (error: unknown): string | null => {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
};

export function createIdbStore(name = DB_NAME, open: OpenDb = openEngineDb): EngineStore {
  /** The connection being opened or open; null when there is none (never opened, or lost). */
  let connection: Promise<EngineDb> | null = null;
  let current: EngineDb | null = null;
  let openedBefore = false;
  const resetListeners = new Set<(reset: StoreReset) => void>();

  function forget(db: EngineDb): void {
    if (current !== db) return;
    current = null;
    connection = null;
  }

  function connect(): Promise<EngineDb> {
    if (connection) return connection;
    let created = false;
    const opening = open(name, {
      created: () => (created = true),
      versionChange(db) {
        db.close();
        forget(db);
      },
      terminated: (db) => forget(db),
      blocked: () => console.warn(`IndexedDB '${name}': waiting for another tab to close it`),
    }).then(
      (db) => {
        current = db;
        // Created now although it was open before: deleted meanwhile, with everything it held.
        if (created && openedBefore) {
          for (const listener of resetListeners) listener({ reason: 'deleted' });
        }
        openedBefore = true;
        return db;
      },
      (error: unknown) => {
        if (connection === opening) connection = null;
        throw new StoreError('unavailable', `IndexedDB '${name}' cannot be opened (${nameOf(error) ?? String(error)})`, error);
      },
    );
    connection = opening;
    return opening;
  }

  const run: RunOnDb = async (fn) => {
    for (let attempt = 0; ; attempt += 1) {
      const db = await connect();
      try {
        return await fn(db);
      } catch (error) {
        const errorName = nameOf(error);
        if (errorName !== null && QUOTA_ERRORS.has(errorName)) {
          throw new StoreError('quota', `IndexedDB '${name}': no space left on the device`, error);
        }
        const lost = current !== db || (errorName !== null && LOST_CONNECTION_ERRORS.has(errorName));
        if (attempt > 0 || !lost) throw error;
        forget(db);
      }
    }
  };

  return {
    kv: {
      get: (key) => run((db) => db.get('kv', key)),
      getMany: (keys) =>
        run(async (db) => {
          const tx = db.transaction('kv', 'readonly');
          const [values] = await Promise.all([Promise.all(keys.map((key) => tx.store.get(key))), tx.done]);
          return values;
        }),
      set: (entries) =>
        run(async (db) => {
          const tx = db.transaction('kv', 'readwrite');
          await Promise.all([...Object.entries(entries).map(([key, value]) => tx.store.put(value, key)), tx.done]);
        }),
      delete: (keys) =>
        run(async (db) => {
          const tx = db.transaction('kv', 'readwrite');
          await Promise.all([...keys.map((key) => tx.store.delete(key)), tx.done]);
        }),
    },
    cache: {
      get: (key) => run((db) => db.get('cache', key)),
      put: (entry) => run(async (db) => void (await db.put('cache', entry))),
      clear: () => run((db) => db.clear('cache')),
      keepOnly: (userId) =>
        run(async (db) => {
          const tx = db.transaction('cache', 'readwrite');
          for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
            if (cursor.value.userId !== userId) await cursor.delete();
          }
          await tx.done;
        }),
    },
    outbox: idbOutboxStore(run),
    onReset(listener) {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
    close() {
      current?.close();
      current = null;
      connection = null;
    },
  };
}

/** The store with its database open: opening fails here, not at the first call. */
export async function openEngineStore(name = DB_NAME): Promise<EngineStore> {
  const store = createIdbStore(name);
  await store.kv.get('');
  return store;
}
