import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ASSIGNED_PATH, cacheKey, runBackgroundSync, type BackgroundSyncDeps } from '../../sw/background-sync.ts';
import { KV, openEngineDb, type EngineDb } from '../../worker/db.ts';

function base64url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/** An access token as the server shapes it; the service worker only decodes it, so no signature is needed. */
function accessToken(sub: number, role: string): string {
  return `${base64url({ alg: 'HS256' })}.${base64url({ sub: String(sub), role, typ: 'access', exp: 4_000_000_000 })}.sig`;
}

const assigned = [{ id: 11, status: 'accepted', task: { id: 5, date: '2026-11-21' } }];
let dbName = '';
let seq = 0;

async function withDb<T>(use: (db: EngineDb) => Promise<T>): Promise<T> {
  const db = await openEngineDb(dbName);
  try {
    return await use(db);
  } finally {
    db.close();
  }
}

function deps(fetchDouble: BackgroundSyncDeps['fetch']): Partial<BackgroundSyncDeps> {
  return { openDb: () => openEngineDb(dbName), fetch: fetchDouble, apiBase: 'http://app.test/api', now: () => 1_700_000_000_000 };
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

beforeEach(() => {
  seq += 1;
  dbName = `sw-sync-${seq}`;
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runBackgroundSync', () => {
  it('fetches the assigned tasks with the stored token and stores them in the engine cache', async () => {
    const token = accessToken(7, 'driver');
    await withDb((db) => db.put('kv', token, KV.token));
    const fetchDouble = vi.fn<BackgroundSyncDeps['fetch']>(async () => jsonResponse(assigned));

    await expect(runBackgroundSync(deps(fetchDouble))).resolves.toBe('stored');

    expect(fetchDouble).toHaveBeenCalledTimes(1);
    const [url, init] = fetchDouble.mock.calls[0]!;
    expect(url).toBe('http://app.test/api/tasks/assigned/');
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${token}`);
    const entry = await withDb((db) => db.get('cache', cacheKey(7, ASSIGNED_PATH)));
    expect(entry).toEqual({ key: cacheKey(7, ASSIGNED_PATH), userId: 7, path: ASSIGNED_PATH, data: assigned, storedAt: 1_700_000_000_000 });
  });

  it('does nothing without a token', async () => {
    const fetchDouble = vi.fn<BackgroundSyncDeps['fetch']>(async () => jsonResponse(assigned));

    await expect(runBackgroundSync(deps(fetchDouble))).resolves.toBe('no-token');

    expect(fetchDouble).not.toHaveBeenCalled();
    expect(await withDb((db) => db.count('cache'))).toBe(0);
  });

  it('skips users who are not drivers', async () => {
    await withDb((db) => db.put('kv', accessToken(3, 'manager'), KV.token));
    const fetchDouble = vi.fn<BackgroundSyncDeps['fetch']>(async () => jsonResponse(assigned));

    await expect(runBackgroundSync(deps(fetchDouble))).resolves.toBe('not-driver');
    expect(fetchDouble).not.toHaveBeenCalled();
  });

  it('keeps the previous cache entry when the network fails', async () => {
    const earlier = { key: cacheKey(7, ASSIGNED_PATH), userId: 7, path: ASSIGNED_PATH, data: ['earlier'], storedAt: 1 };
    await withDb(async (db) => {
      await db.put('kv', accessToken(7, 'driver'), KV.token);
      await db.put('cache', earlier);
    });
    const offline = vi.fn<BackgroundSyncDeps['fetch']>(async () => {
      throw new TypeError('Failed to fetch');
    });

    await expect(runBackgroundSync(deps(offline))).resolves.toBe('failed');

    expect(await withDb((db) => db.get('cache', earlier.key))).toEqual(earlier);
    expect(console.warn).toHaveBeenCalled();
  });

  it('stores nothing when the server refuses the token', async () => {
    await withDb((db) => db.put('kv', accessToken(7, 'driver'), KV.token));
    const expired = vi.fn<BackgroundSyncDeps['fetch']>(async () => jsonResponse({ detail: 'Токен истёк' }, 401));

    await expect(runBackgroundSync(deps(expired))).resolves.toBe('rejected');
    expect(await withDb((db) => db.count('cache'))).toBe(0);
  });

  it('stores nothing when the user signed out while the request was out', async () => {
    await withDb((db) => db.put('kv', accessToken(7, 'driver'), KV.token));
    const signOutMidway = vi.fn<BackgroundSyncDeps['fetch']>(async () => {
      await withDb((db) => db.delete('kv', KV.token));
      return jsonResponse(assigned);
    });

    await expect(runBackgroundSync(deps(signOutMidway))).resolves.toBe('signed-out');
    expect(await withDb((db) => db.count('cache'))).toBe(0);
  });

  it('never throws when the database cannot be opened', async () => {
    const broken: Partial<BackgroundSyncDeps> = {
      openDb: () => Promise.reject(new Error('VersionError')),
      fetch: vi.fn<BackgroundSyncDeps['fetch']>(),
    };
    await expect(runBackgroundSync(broken)).resolves.toBe('failed');
  });
});

describe('cacheKey', () => {
  it('sorts params by name and drops empty ones, so equal calls share one key', () => {
    expect(cacheKey(7, '/tasks/completed/', { offset: 0, limit: 50, search: null })).toBe(
      cacheKey(7, '/tasks/completed/', { limit: 50, offset: 0 }),
    );
    expect(cacheKey(7, '/tasks/completed/', { limit: 50, offset: 0 })).toBe('7:tasks/completed/?limit=50&offset=0');
    expect(cacheKey(null, 'users/me/')).toBe('anonymous:users/me/');
  });

  it('treats a path with and without its leading slash as one', () => {
    expect(cacheKey(7, '/tasks/assigned/')).toBe(cacheKey(7, 'tasks/assigned/'));
  });

  it('keeps users apart', () => {
    expect(cacheKey(7, ASSIGNED_PATH)).not.toBe(cacheKey(8, ASSIGNED_PATH));
  });
});
