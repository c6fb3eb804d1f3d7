import { describe, expect, it } from 'vitest';
import type { Params, Result } from '../../worker/api.ts';
import { GET_LOCK_PREFIX, OFFLINE_NO_CACHE, SLOW_NETWORK_TIMEOUT_MS, cacheKey, createCache } from '../../worker/cache.ts';
import type { CrossTabMessage } from '../../worker/cross-tab.ts';
import type { EngineDb } from '../../worker/db.ts';
import { failure } from '../../worker/http.ts';
import { createIdbStore } from '../../worker/idb-store.ts';
import type { Locks } from '../../worker/ports.ts';
import { createChannelHub, createFakeServer, createFifoLocks, createManualClock, deferred, settle } from './doubles.ts';
import { driverWire, freshDb, makeEngine, serveAuth } from './harness.ts';

type Answer = Result<unknown> | Promise<Result<unknown>>;

/** The cache alone, with a scripted network and switches for every input of the decision table. */
async function setup() {
  const db = await freshDb();
  const clock = createManualClock();
  const inputs = { online: true, offlineMode: false, effectiveType: '4g' as string | null, userId: 7 as number | null };
  const calls: Array<{ path: string; params: Params | undefined }> = [];
  let next: (path: string) => Answer = () => ({ ok: true, data: 'fresh' });
  const cache = createCache({
    store: createIdbStore(db.name).cache,
    clock,
    offline: () => !inputs.online || inputs.offlineMode,
    effectiveType: () => inputs.effectiveType,
    userId: () => inputs.userId,
    fetch: (path, params) => {
      calls.push({ path, params });
      return Promise.resolve(next(path));
    },
  });
  const store = (path: string, data: unknown, storedAt = 1_000, userId = 7, params?: Params) =>
    db.put('cache', { key: cacheKey(userId, path, params), userId, path, data, storedAt });
  return { db, clock, inputs, calls, cache, store, answer: (fn: (path: string) => Answer) => (next = fn) };
}

const networkDown = failure('Нет связи с сервером', true);

describe('cache keys', () => {
  it('are user + path + params sorted by name; a leading slash and null/undefined params do not matter', () => {
    expect(cacheKey(7, '/tasks/completed/', { offset: 0, limit: 50, search: undefined, status: null })).toBe(
      cacheKey(7, 'tasks/completed/', { limit: 50, offset: 0 }),
    );
    expect(cacheKey(7, 'tasks/completed/', { limit: 50, offset: 0 })).toBe('7:tasks/completed/?limit=50&offset=0');
    expect(cacheKey(7, 'a/')).not.toBe(cacheKey(8, 'a/'));
    expect(cacheKey(null, 'companies/')).toBe('anonymous:companies/');
  });
});

describe('the decision table', () => {
  it('online: the fresh answer, stored with its time', async () => {
    const { cache, db, clock } = await setup();
    expect(await cache.get('tasks/assigned/')).toEqual({ ok: true, data: { data: 'fresh', fromCache: false, storedAt: clock.now() } });
    expect((await db.get('cache', cacheKey(7, 'tasks/assigned/')))?.data).toBe('fresh');
  });

  it('offline (navigator.onLine false): the stored answer, the network is not tried', async () => {
    const { cache, inputs, calls, store } = await setup();
    await store('tasks/assigned/', ['stored'], 1_234);
    inputs.online = false;
    expect(await cache.get('tasks/assigned/')).toEqual({ ok: true, data: { data: ['stored'], fromCache: true, storedAt: 1_234 } });
    expect(calls).toHaveLength(0);
  });

  it('offline mode: the stored answer, the network is not tried', async () => {
    const { cache, inputs, calls, store } = await setup();
    await store('tasks/assigned/', ['stored']);
    inputs.offlineMode = true;
    expect(await cache.get('tasks/assigned/')).toMatchObject({ ok: true, data: { data: ['stored'], fromCache: true } });
    expect(calls).toHaveLength(0);
  });

  it('offline with no entry: a Russian failure flagged network', async () => {
    const { cache, inputs } = await setup();
    inputs.online = false;
    expect(await cache.get('tasks/assigned/')).toEqual({ ok: false, message: OFFLINE_NO_CACHE, status: null, network: true });
  });

  it('a network error: the stored answer', async () => {
    const { cache, store, answer } = await setup();
    await store('tasks/assigned/', ['stored'], 5);
    answer(() => networkDown);
    expect(await cache.get('tasks/assigned/')).toEqual({ ok: true, data: { data: ['stored'], fromCache: true, storedAt: 5 } });
  });

  it('a network error with no entry: the error', async () => {
    const { cache, answer } = await setup();
    answer(() => networkDown);
    expect(await cache.get('tasks/assigned/')).toEqual(networkDown);
  });

  it('a 4xx/5xx answer is passed on, never replaced by the stored one', async () => {
    const { cache, store, answer } = await setup();
    await store('tasks/assigned/', ['stored']);
    answer(() => failure('Нет доступа', false, 403));
    expect(await cache.get('tasks/assigned/')).toEqual({ ok: false, message: 'Нет доступа', status: 403, network: false });
    answer(() => failure('Ошибка сервера (код 500)', false, 500));
    expect(await cache.get('tasks/assigned/')).toMatchObject({ ok: false, status: 500 });
  });

  it('2g, slow: the stored answer after 5 s, and the late answer refreshes the entry in the background', async () => {
    const { cache, store, answer, inputs, clock, db } = await setup();
    inputs.effectiveType = '2g';
    await store('tasks/assigned/', ['old'], 5);
    const late = deferred<Result<unknown>>();
    answer(() => late.promise);
    const pending = cache.get('tasks/assigned/');
    await settle();
    clock.advance(SLOW_NETWORK_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    clock.advance(1);
    expect(await pending).toEqual({ ok: true, data: { data: ['old'], fromCache: true, storedAt: 5 } });

    late.resolve({ ok: true, data: ['new'] });
    await settle(4);
    expect(await db.get('cache', cacheKey(7, 'tasks/assigned/'))).toMatchObject({ data: ['new'], storedAt: clock.now() });
  });

  it('slow-2g counts as slow too', async () => {
    const { cache, store, answer, inputs, clock } = await setup();
    inputs.effectiveType = 'slow-2g';
    await store('a/', 'old', 5);
    answer(() => new Promise(() => undefined));
    const pending = cache.get('a/');
    await settle();
    clock.advance(SLOW_NETWORK_TIMEOUT_MS);
    expect(await pending).toMatchObject({ ok: true, data: { data: 'old', fromCache: true } });
  });

  it('2g, fast: the fresh answer, no timer left behind', async () => {
    const { cache, store, inputs, clock } = await setup();
    inputs.effectiveType = '2g';
    await store('tasks/assigned/', ['old']);
    expect(await cache.get('tasks/assigned/')).toMatchObject({ ok: true, data: { data: 'fresh', fromCache: false } });
    expect(clock.pending()).toBe(0);
  });

  it('2g, slow, no entry: waits for the network answer', async () => {
    const { cache, answer, inputs, clock } = await setup();
    inputs.effectiveType = '2g';
    const late = deferred<Result<unknown>>();
    answer(() => late.promise);
    const pending = cache.get('tasks/assigned/');
    await settle();
    clock.advance(SLOW_NETWORK_TIMEOUT_MS * 2);
    late.resolve({ ok: true, data: 'finally' });
    expect(await pending).toMatchObject({ ok: true, data: { data: 'finally', fromCache: false } });
  });

  it('4g never waits on the slow-network timer', async () => {
    const { cache, store, answer, clock } = await setup();
    await store('a/', 'old');
    const late = deferred<Result<unknown>>();
    answer(() => late.promise);
    const pending = cache.get('a/');
    await settle();
    expect(clock.pending()).toBe(0);
    late.resolve({ ok: true, data: 'new' });
    expect(await pending).toMatchObject({ data: { data: 'new', fromCache: false } });
  });
});

describe('the transports list', () => {
  it('answers [] when nothing is cached and the network fails, or when offline', async () => {
    const { cache, answer, inputs } = await setup();
    answer(() => networkDown);
    expect(await cache.get('/users/me/transports/')).toMatchObject({ ok: true, data: { data: [], fromCache: false } });
    inputs.online = false;
    expect(await cache.get('users/me/transports/')).toMatchObject({ ok: true, data: { data: [] } });
  });
  it('answers what is cached when there is something', async () => {
    const { cache, answer, store } = await setup();
    await store('users/me/transports/', [{ id: 1 }]);
    answer(() => networkDown);
    expect(await cache.get('users/me/transports/')).toMatchObject({ ok: true, data: { data: [{ id: 1 }], fromCache: true } });
  });
  it('passes a server refusal on', async () => {
    const { cache, answer } = await setup();
    answer(() => failure('Нет доступа', false, 403));
    expect(await cache.get('users/me/transports/')).toMatchObject({ ok: false, status: 403 });
  });
});

describe('sharing and separation', () => {
  it('identical GETs in flight share one request; different params do not', async () => {
    const { cache, answer, calls } = await setup();
    const gate = deferred<Result<unknown>>();
    answer(() => gate.promise);
    const same = [cache.get('tasks/completed/', { limit: 50, offset: 0 }), cache.get('/tasks/completed/', { offset: 0, limit: 50 })];
    const other = cache.get('tasks/completed/', { limit: 50, offset: 50 });
    await settle();
    gate.resolve({ ok: true, data: 'page' });
    const results = await Promise.all([...same, other]);
    expect(calls).toHaveLength(2);
    expect(results.map((result) => result.ok && result.data.data)).toEqual(['page', 'page', 'page']);
    await cache.get('tasks/completed/', { limit: 50, offset: 0 });
    expect(calls).toHaveLength(3);
  });

  it('after a change, a GET does not join one in flight that began before it; the older answer landing late does not overwrite the newer', async () => {
    const { cache, answer, calls, db } = await setup();
    const before = deferred<Result<unknown>>();
    const after = deferred<Result<unknown>>();
    const gates = [before, after];
    answer(() => gates.shift()!.promise);
    const old = cache.get('tasks/active/');
    await settle();
    cache.invalidate();
    const fresh = cache.get('tasks/active/');
    await settle();
    expect(calls).toHaveLength(2);
    after.resolve({ ok: true, data: 'renamed' });
    expect(await fresh).toMatchObject({ ok: true, data: { data: 'renamed', fromCache: false } });
    before.resolve({ ok: true, data: 'old name' });
    expect(await old).toMatchObject({ ok: true, data: { data: 'old name' } });
    expect((await db.get('cache', cacheKey(7, 'tasks/active/')))?.data).toBe('renamed');
    // With nothing changed since, the next two share one request again.
    answer(() => ({ ok: true, data: 'renamed' }));
    await Promise.all([cache.get('tasks/active/'), cache.get('tasks/active/')]);
    expect(calls).toHaveLength(3);
  });

  it("another user never sees the previous user's entries", async () => {
    const { cache, inputs, store } = await setup();
    await store('tasks/assigned/', ['user 7'], 1, 7);
    inputs.userId = 8;
    inputs.online = false;
    expect(await cache.get('tasks/assigned/')).toMatchObject({ ok: false, message: OFFLINE_NO_CACHE });
  });

  it('an answer that lands after clear() (a logout) is not stored', async () => {
    const { cache, answer, db } = await setup();
    const gate = deferred<Result<unknown>>();
    answer(() => gate.promise);
    const pending = cache.get('tasks/assigned/');
    await settle();
    await cache.clear();
    gate.resolve({ ok: true, data: 'late' });
    await pending;
    expect(await db.count('cache')).toBe(0);
  });

  it('through the engine: entries are keyed by the signed-in user and a logout clears them', async () => {
    const { api, server, clock, db } = await makeEngine();
    serveAuth(server, clock);
    server.on('GET tasks/assigned/', () => ({ status: 200, data: [{ id: 1, driver_associations: [] }] }));
    await api.login('driver@demo.local', 'demo12345');
    await api.get('/tasks/assigned/');
    expect((await db.getAll('cache')).map((entry) => entry.key)).toEqual([`${driverWire.id}:tasks/assigned/`]);
    await api.logout();
    expect(await db.count('cache')).toBe(0);
  });
});

describe('sharing across tabs in dedicated-worker mode (one engine per tab)', () => {
  /** Two tabs' caches on one database and one lock manager, each with its own scripted network. */
  async function twoTabs() {
    const db: EngineDb = await freshDb();
    const clock = createManualClock();
    const locks = createFifoLocks();
    const tab = (name: string) => {
      const calls: string[] = [];
      let next: () => Answer = () => ({ ok: true, data: `${name}'s answer` });
      const cache = createCache({
        store: createIdbStore(db.name).cache,
        clock,
        locks,
        offline: () => false,
        effectiveType: () => '4g',
        userId: () => 7,
        fetch: (path) => {
          calls.push(path);
          return Promise.resolve(next());
        },
      });
      return { cache, calls, answer: (fn: () => Answer) => (next = fn) };
    };
    return { db, clock, locks, a: tab('a'), b: tab('b') };
  }

  it('the same GET at once from two tabs: one request, both get its answer, fresh', async () => {
    const { a, b, clock } = await twoTabs();
    const gate = deferred<Result<unknown>>();
    a.answer(() => gate.promise);
    const both = [a.cache.get('tasks/assigned/'), b.cache.get('/tasks/assigned/')];
    await settle();
    clock.advance(40);
    gate.resolve({ ok: true, data: ['task'] });
    const [fromA, fromB] = await Promise.all(both);
    expect(a.calls.length + b.calls.length).toBe(1);
    expect(fromA).toEqual({ ok: true, data: { data: ['task'], fromCache: false, storedAt: clock.now() } });
    expect(fromB).toEqual(fromA);
  });

  it('a tab asking a moment after the holder began shares its answer, unless it heard of a change in between', async () => {
    const { a, b, clock } = await twoTabs();
    const gate = deferred<Result<unknown>>();
    a.answer(() => gate.promise);
    const first = a.cache.get('tasks/assigned/');
    await settle();
    clock.advance(15);
    const second = b.cache.get('tasks/assigned/');
    await settle();
    gate.resolve({ ok: true, data: ['task'] });
    expect(await second).toMatchObject({ ok: true, data: { data: ['task'] } });
    await first;
    expect(a.calls.length + b.calls.length).toBe(1);

    // Now a change is heard by tab b after tab a's request began: b's answer must come from a request of its own.
    const later = deferred<Result<unknown>>();
    a.answer(() => later.promise);
    const third = a.cache.get('tasks/assigned/');
    await settle();
    clock.advance(15);
    b.cache.invalidate();
    b.answer(() => ({ ok: true, data: ['renamed'] }));
    const fourth = b.cache.get('tasks/assigned/');
    await settle();
    later.resolve({ ok: true, data: ['before the change'] });
    expect(await fourth).toMatchObject({ ok: true, data: { data: ['renamed'] } });
    await third;
    expect(b.calls).toEqual(['tasks/assigned/']);
  });

  it('different keys do not wait for each other', async () => {
    const { a, b } = await twoTabs();
    const gate = deferred<Result<unknown>>();
    a.answer(() => gate.promise);
    const first = a.cache.get('tasks/assigned/');
    await settle();
    expect(await b.cache.get('tasks/available/')).toMatchObject({ ok: true, data: { data: "b's answer", fromCache: false } });
    gate.resolve({ ok: true, data: [] });
    await first;
    expect([a.calls, b.calls]).toEqual([['tasks/assigned/'], ['tasks/available/']]);
  });

  it('a tab that waited fetches on its own when the holder got no answer to share', async () => {
    const { a, b } = await twoTabs();
    const gate = deferred<Result<unknown>>();
    a.answer(() => gate.promise);
    const both = [a.cache.get('tasks/assigned/'), b.cache.get('tasks/assigned/')];
    await settle();
    gate.resolve(failure('Ошибка сервера (код 500)', false, 500));
    const [fromA, fromB] = await Promise.all(both);
    expect(fromA).toMatchObject({ ok: false, status: 500 });
    expect(fromB).toMatchObject({ ok: true, data: { data: "b's answer" } });
    expect(b.calls).toEqual(['tasks/assigned/']);
  });

  it('an entry stored before the request began is not taken for its answer', async () => {
    const { db, a, clock } = await twoTabs();
    await db.put('cache', { key: cacheKey(7, 'tasks/assigned/'), userId: 7, path: 'tasks/assigned/', data: ['old'], storedAt: clock.now() - 1 });
    expect(await a.cache.get('tasks/assigned/')).toMatchObject({ ok: true, data: { data: "a's answer", fromCache: false } });
    expect(a.calls).toHaveLength(1);
  });

  it('through two dedicated engines on one database: the same GET at once goes out once', async () => {
    const db = await freshDb();
    const server = createFakeServer();
    const clock = createManualClock();
    const locks = createFifoLocks();
    const hub = createChannelHub<CrossTabMessage>();
    const shared = { db, server, clock, locks, mode: 'dedicated' as const };
    const one = await makeEngine({ ...shared, channel: hub.channel() });
    const two = await makeEngine({ ...shared, channel: hub.channel() });
    serveAuth(server, clock);
    const gate = deferred<void>();
    server.on('GET tasks/assigned/', async () => {
      await gate.promise;
      return { status: 200, data: [{ id: 1, driver_associations: [{ id: 3 }] }] };
    });
    await one.api.login('driver@demo.local', 'demo12345');
    await settle();
    const both = [one.api.get('tasks/assigned/'), two.api.get('tasks/assigned/')];
    await settle(10);
    gate.resolve();
    const [first, second] = await Promise.all(both);
    expect(server.count('GET tasks/assigned/')).toBe(1);
    expect(first).toMatchObject({ ok: true, data: { data: [{ id: 1 }], fromCache: false } });
    expect(second).toEqual(first);
    expect((await db.getAll('cache')).map((entry) => entry.key)).toEqual([`${driverWire.id}:tasks/assigned/`]);
  });

  it('the SharedWorker engine takes no lock per GET: its one in-flight map already serves every tab', async () => {
    const names: string[] = [];
    const inner = createFifoLocks();
    const spy: Locks & { held(name: string): boolean } = {
      request: (name, fn) => (names.push(name), inner.request(name, fn)),
      held: (name) => inner.held(name),
    };
    const { api, server } = await makeEngine({ locks: spy, mode: 'shared' });
    server.on('GET companies/', () => ({ status: 200, data: [] }));
    await Promise.all([api.get('companies/'), api.get('companies/')]);
    expect(server.count('GET companies/')).toBe(1);
    expect(names.filter((name) => name.startsWith(GET_LOCK_PREFIX))).toEqual([]);
  });
});
