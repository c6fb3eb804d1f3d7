/**
 * The GET cache (docs/product.md §7). Every GET answer is stored in
 * IndexedDB under user id + path + sorted params, and served from there:
 * - when offline (navigator.onLine false, or offline mode) — the network is not tried;
 * - on a network error (the section 8 test) — a 4xx/5xx is the server's answer and is passed on;
 * - on a '2g'/'slow-2g' connection after 5 s without an answer; the request goes on in the background
 *   and refreshes the entry when it lands.
 * The transports list answers [] when nothing is cached. Identical GETs in flight share one request, from any
 * tab: in the SharedWorker one engine serves every tab, so its in-flight map is enough; in dedicated-worker
 * mode (one engine per tab) the engines also take a Web Lock per cache key — the holder fetches and stores,
 * and an engine that waited for the same key uses the entry whose request began after its own was asked for.
 * A change (a write here or elsewhere, heard on the feed) makes every request already in flight too old to share:
 * a GET asked for after it never joins one that began before it (`invalidate`), and an older answer landing late
 * never overwrites a newer stored one — so a screen refetched after a change always shows it.
 *
 * No network code here: `fetch` is passed in, so the service worker may import `cacheKey` alone.
 */
import type { CachedResult, Params, Result } from './api.ts';
import type { CacheStore } from './store.ts';
import type { Clock, Locks } from './ports.ts';
import { isSlowConnection } from './ports.ts';

export const SLOW_NETWORK_TIMEOUT_MS = 5_000;
export const TRANSPORTS_PATH = 'users/me/transports/';
export const OFFLINE_NO_CACHE = 'Нет подключения к сети, а сохранённых данных нет';
/** The Web Lock per cache key that dedicated-worker engines share a GET through. */
export const GET_LOCK_PREFIX = 'reis-get:';

/** 'users/me/' and '/users/me/' are one path; the key never starts with a slash. */
export function normalizePath(path: string): string {
  return path.replace(/^\/+/, '');
}

/** The cache key: user, path and params sorted by name (null and undefined params are not sent). */
export function cacheKey(userId: number | null, path: string, params?: Params): string {
  const pairs = Object.entries(params ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => [name, String(value)] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(pairs).toString();
  return `${userId ?? 'anonymous'}:${normalizePath(path)}${query ? `?${query}` : ''}`;
}

export interface CacheDeps {
  store: CacheStore;
  clock: Clock;
  /** navigator.onLine is false, or the app is in offline mode. */
  offline(): boolean;
  effectiveType(): string | null;
  /** The signed-in user: entries of one user are never served to another. */
  userId(): number | null;
  /** The network GET (authorised, with the 401 → refresh rule). */
  fetch(path: string, params: Params | undefined): Promise<Result<unknown>>;
  /**
   * Web Locks shared with the other tabs' engines: dedicated-worker mode only. The SharedWorker leaves it
   * out — it is every tab's one engine, and a lock round trip plus a read per GET would only slow it down.
   */
  locks?: Locks;
}

export interface GetCache {
  get<T = unknown>(path: string, params?: Params): Promise<Result<CachedResult<T>>>;
  clear(): Promise<void>;
  /** After a login: drops every other user's entries (and the anonymous ones). */
  keepOnly(userId: number): Promise<void>;
  /** Something changed on the server: GETs in flight now may answer what was before it, so none is shared. */
  invalidate(): void;
}

type Fresh = Result<{ data: unknown; storedAt: number }>;

export function createCache(deps: CacheDeps): GetCache {
  const { store, clock } = deps;
  const inFlight = new Map<string, { promise: Promise<Fresh>; epoch: number }>();
  // Bumped by clear(): an answer that lands after a logout must not refill the cache.
  let generation = 0;
  // Bumped by invalidate(): a request begun in an older epoch may not answer for a newer one.
  let epoch = 0;
  // When this engine last heard of a change: another engine's entry from a request begun before it is too old.
  let invalidatedAt = -Infinity;
  // A strictly increasing start stamp per request (the clock may not move between two of them).
  let lastStart = 0;
  const startStamp = (): number => (lastStart = Math.max(clock.now(), lastStart + 0.001));

  /**
   * An entry another engine stored after `since` (while this one waited for the key's lock), from a request begun
   * after the last change this engine heard of: the answer to this request too.
   */
  async function storedSince(key: string, since: number): Promise<Fresh | null> {
    try {
      const entry = await store.get(key);
      const fresh = entry && entry.storedAt >= since && (entry.startedAt ?? -Infinity) >= invalidatedAt;
      return fresh ? { ok: true, data: { data: entry.data, storedAt: entry.storedAt } } : null;
    } catch {
      return null;
    }
  }

  function fetchShared(key: string, path: string, params: Params | undefined, userId: number | null): Promise<Fresh> {
    const running = inFlight.get(key);
    if (running && running.epoch === epoch) return running.promise;
    const startedIn = generation;
    const requestedAt = clock.now();
    const fetchAndStore = async (): Promise<Fresh> => {
      const startedAt = startStamp();
      const result = await deps.fetch(path, params);
      if (!result.ok) return result;
      const storedAt = clock.now();
      if (startedIn === generation) {
        try {
          // An answer to an older request than the one stored (it landed late) is not the newest: keep the stored one.
          const current = await store.get(key);
          if (!current || (current.startedAt ?? -Infinity) <= startedAt) await store.put({ key, userId, path: normalizePath(path), data: result.data, storedAt, startedAt });
        } catch (error) {
          // A full or closed store must not cost the user the answer they already have.
          console.warn('GET cache write failed', error);
        }
      }
      return { ok: true, data: { data: result.data, storedAt } };
    };
    const { locks } = deps;
    const shared = locks
      ? locks
          .request(GET_LOCK_PREFIX + key, async () => (await storedSince(key, requestedAt)) ?? fetchAndStore())
          // A lock manager that fails must not cost the answer: fetch as if alone.
          .catch(fetchAndStore)
      : fetchAndStore();
    const entry = { promise: shared.finally(() => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    }), epoch };
    inFlight.set(key, entry);
    return entry.promise;
  }

  /** Resolves with the network's answer, or with 'slow' once the slow-network time-out passes. */
  function withSlowTimeout(network: Promise<Fresh>): Promise<Fresh | 'slow'> {
    return new Promise((resolve) => {
      const timer = clock.setTimeout(() => resolve('slow'), SLOW_NETWORK_TIMEOUT_MS);
      void network.then((result) => {
        clock.clearTimeout(timer);
        resolve(result);
      });
    });
  }

  async function stored<T>(key: string, path: string, otherwise: Result<never>): Promise<Result<CachedResult<T>>> {
    const entry = await store.get(key);
    if (entry) return { ok: true, data: { data: entry.data as T, fromCache: true, storedAt: entry.storedAt } };
    if (normalizePath(path) === TRANSPORTS_PATH) {
      // docs/product.md §7: the transports list answers empty when nothing is cached.
      return { ok: true, data: { data: [] as T, fromCache: false, storedAt: clock.now() } };
    }
    return otherwise;
  }

  return {
    async get<T>(path: string, params?: Params): Promise<Result<CachedResult<T>>> {
      const userId = deps.userId();
      const key = cacheKey(userId, path, params);
      if (deps.offline()) {
        return stored<T>(key, path, { ok: false, message: OFFLINE_NO_CACHE, status: null, network: true });
      }
      const network = fetchShared(key, path, params, userId);
      let result: Fresh | 'slow' = isSlowConnection(deps.effectiveType()) ? await withSlowTimeout(network) : await network;
      if (result === 'slow') {
        const entry = await store.get(key);
        if (entry) return { ok: true, data: { data: entry.data as T, fromCache: true, storedAt: entry.storedAt } };
        result = await network;
      }
      if (result.ok) return { ok: true, data: { data: result.data.data as T, fromCache: false, storedAt: result.data.storedAt } };
      if (!result.network) return result;
      return stored<T>(key, path, result);
    },

    async clear() {
      generation += 1;
      await store.clear();
    },

    invalidate() {
      epoch += 1;
      invalidatedAt = clock.now();
    },

    keepOnly: (userId) => store.keepOnly(userId),
  };
}
