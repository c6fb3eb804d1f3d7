/**
 * What the service worker does on 'periodicsync' / 'sync' ('sync-tasks'): refresh the driver's assigned
 * tasks into the engine's GET cache, so the app opened later with no network shows today's work.
 * It never refreshes tokens (the engine owns refresh and rotation, single-flight): with an expired token
 * the server answers 401 and this run simply stores nothing.
 */
import { jwtDecode } from 'jwt-decode';
import { KV, openEngineDb, type CacheEntry, type EngineDb } from '../worker/db.ts';
import { cacheKey } from '../worker/cache.ts';

/** As the engine's GET cache stores it: no leading slash (worker/cache.ts normalizePath). */
export const ASSIGNED_PATH = 'tasks/assigned/';
/** docs/product.md §9: API time-out 10 s. */
const FETCH_TIMEOUT_MS = 10_000;

export { cacheKey };

export type SyncOutcome = 'stored' | 'no-token' | 'not-driver' | 'rejected' | 'signed-out' | 'failed';

export interface BackgroundSyncDeps {
  openDb: () => Promise<EngineDb>;
  fetch: typeof fetch;
  /** Where the API lives, without a trailing slash. */
  apiBase: string;
  now: () => number;
}

const defaults: BackgroundSyncDeps = {
  openDb: () => openEngineDb(),
  fetch: (input, init) => fetch(input, init),
  apiBase: '/api',
  now: () => Date.now(),
};

export interface TokenClaims {
  sub?: string;
  role?: string;
  /** Expiry, epoch seconds. */
  exp?: number;
}

/** The access token's claims, read without verifying (the server verifies); null when it is no JWT. */
export function readClaims(token: string): TokenClaims | null {
  try {
    return jwtDecode<TokenClaims>(token);
  } catch {
    return null;
  }
}

/**
 * Never throws: a background event that rejects gains nothing, and a broken run must not disturb the app.
 * The answer says what happened, for tests and for the console.
 */
export async function runBackgroundSync(overrides: Partial<BackgroundSyncDeps> = {}): Promise<SyncOutcome> {
  const deps = { ...defaults, ...overrides };
  let db: EngineDb | null = null;
  try {
    db = await deps.openDb();
    const token = await db.get('kv', KV.token);
    if (typeof token !== 'string' || token === '') return 'no-token';

    const claims = readClaims(token);
    // Only drivers have assigned tasks; any other role would get a 403 for nothing.
    if (claims?.role !== undefined && claims.role !== 'driver') return 'not-driver';
    const userId = claims?.sub !== undefined && Number.isInteger(Number(claims.sub)) ? Number(claims.sub) : null;

    // The connection is released while the request is out, so an engine upgrading the schema is not blocked.
    db.close();
    db = null;
    const response = await deps.fetch(`${deps.apiBase}/${ASSIGNED_PATH}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) return 'rejected';
    const data: unknown = await response.json();

    db = await deps.openDb();
    // The user may have signed out (or another user in) while the request was out: store nothing then.
    if ((await db.get('kv', KV.token)) !== token) return 'signed-out';
    const entry: CacheEntry = { key: cacheKey(userId, ASSIGNED_PATH), userId, path: ASSIGNED_PATH, data, storedAt: deps.now() };
    await db.put('cache', entry);
    return 'stored';
  } catch (error) {
    console.warn('background sync failed', error);
    return 'failed';
  } finally {
    db?.close();
  }
}
