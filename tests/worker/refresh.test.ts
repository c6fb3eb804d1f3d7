import { describe, expect, it } from 'vitest';
import type { CrossTabMessage } from '../../worker/cross-tab.ts';
import { KV } from '../../worker/db.ts';
import { createChannelHub, createFakeServer, createFifoLocks, createManualClock, deferred, networkFailure, settle } from './doubles.ts';
import { driverUser, driverWire, freshDb, makeEngine, seedSession, serveAuth } from './harness.ts';

describe('refresh messages (docs/product.md §8) and offline mode (§4)', () => {
  it("'No refresh token available' when there is none; no offline mode without a session", async () => {
    const { api, server, connectTab } = await makeEngine();
    server.on('GET x/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    const tab = await connectTab();
    expect(await api.get('x/')).toMatchObject({ ok: false, message: 'Требуется вход', status: 401 });
    await settle();
    expect(server.count('POST auth/refresh/')).toBe(0);
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: false, error: null });
  });

  it("'No refresh token available' with an access token alone puts the app in offline mode", async () => {
    const { api, server, db, connectTab } = await makeEngine();
    await seedSession(db, { access: 'only-access' });
    server.on('GET x/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    const tab = await connectTab();
    await api.get('x/');
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: true, error: 'No refresh token available' });
  });

  it("a network error gives 'Network error while refreshing token', flagged network; offline mode, still authenticated", async () => {
    const { api, server, db, connectTab } = await makeEngine();
    await seedSession(db, { access: 'old', refresh: 'r1', profile: driverUser });
    server.on('POST auth/refresh/', () => {
      throw networkFailure();
    });
    // The stored token cannot be read as a live JWT: startup refreshes it, and the network fails.
    expect(await api.startup()).toEqual({ toast: null, redirectToLogin: false });
    const tab = await connectTab();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: true, offlineMode: true, error: 'Network error while refreshing token', user: driverUser });
    expect(await db.get('kv', KV.token)).toBe('old');
  });

  it('a refresh the server fails (5xx) keeps the session in offline mode with Token refresh failed', async () => {
    const { api, server, db, connectTab } = await makeEngine();
    await seedSession(db, { access: 'old', refresh: 'r1', profile: driverUser });
    const tab = await connectTab();
    server.on('POST x/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    server.on('POST auth/refresh/', () => ({ status: 500 }));
    expect(await api.send('POST', 'x/')).toMatchObject({ ok: false, message: 'Требуется вход', status: 401 });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: true, error: 'Token refresh failed' });
    expect(await db.get('kv', KV.refresh)).toBe('r1');
  });

  it('a refresh the server refuses (401: logged out, deactivated) ends the session with its detail', async () => {
    const { api, server, db, connectTab } = await makeEngine();
    await seedSession(db, { access: 'old', refresh: 'r1', profile: driverUser });
    const tab = await connectTab();
    server.on('POST x/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    server.on('POST auth/refresh/', () => ({ status: 401, data: { detail: 'Учётная запись отключена' } }));
    expect(await api.send('POST', 'x/')).toMatchObject({ ok: false, status: 401 });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: false, user: null, offlineMode: false, error: 'Учётная запись отключена' });
    expect(await db.get('kv', KV.token)).toBeUndefined();
    expect(await db.get('kv', KV.refresh)).toBeUndefined();
  });

  it('a successful refresh stores both tokens and clears offline mode', async () => {
    const { api, server, db, clock, connectTab } = await makeEngine();
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'stale', refresh: auth.grant().refresh_token, profile: driverUser });
    server.on('GET users/me/', () => {
      throw networkFailure();
    });
    await api.fetchProfile();
    const tab = await connectTab();
    expect(tab.latest()?.auth.offlineMode).toBe(true);
    // The server is back: a write in offline mode asks it first (a refresh, the stored token being stale).
    server.on('GET users/me/', (request) => (auth.authorised(request.headers) ? { status: 200, data: driverWire } : { status: 401, data: { detail: 'Требуется вход' } }));
    server.on('POST x/', (request) => (auth.authorised(request.headers) ? { status: 200, data: 1 } : { status: 401, data: { detail: 'Требуется вход' } }));
    expect(await api.send('POST', 'x/')).toEqual({ ok: true, data: 1 });
    await settle();
    expect(await db.get('kv', KV.token)).toBe(auth.state.access);
    expect(await db.get('kv', KV.refresh)).toBe(auth.state.refresh);
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: false, error: null });
  });
});

describe('single-flight refresh', () => {
  it('within one engine concurrent 401s share one refresh even when locks do not serialise', async () => {
    const passThrough = { request: <T>(_name: string, fn: () => Promise<T>) => fn(), held: () => false };
    const { api, server, db, clock } = await makeEngine({ locks: passThrough });
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'stale', refresh: auth.grant().refresh_token });
    server.on('GET x/', (request) => (auth.authorised(request.headers) ? { status: 200, data: 1 } : { status: 401, data: { detail: 'Требуется вход' } }));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => api.get('x/', { i })));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(server.count('POST auth/refresh/')).toBe(1);
  });

  it('a 401 for a newer token than the one a waiting refresh started for gets its own refresh', async () => {
    const { api, server, db, clock, locks } = await makeEngine();
    const auth = serveAuth(server, clock);
    const pair = auth.grant();
    auth.state.access = 'nobody-has-this';
    await seedSession(db, { access: 'T0', refresh: pair.refresh_token });
    server.on('GET a/', () => ({ status: 401, data: { detail: 'Требуется вход' } }));
    server.on('GET b/', (request) => (auth.authorised(request.headers) ? { status: 200, data: 'b' } : { status: 401, data: { detail: 'Требуется вход' } }));
    // Another engine holds the refresh lock for a while, and rotates to T1 (already dead) meanwhile.
    let release = () => undefined as void;
    void locks.request('auth-refresh', () => new Promise<void>((resolve) => (release = resolve)));
    const first = api.get('a/');
    await settle();
    await db.put('kv', 'T1', KV.token);
    const second = api.get('b/');
    await settle();
    release();
    expect(await second).toMatchObject({ ok: true, data: { data: 'b' } });
    expect((await first).ok).toBe(false);
    expect(server.count('POST auth/refresh/')).toBe(1);
  });

  it('two engines (dedicated workers) sharing IndexedDB and one lock manager make one refresh', async () => {
    const db = await freshDb();
    const locks = createFifoLocks();
    const clock = createManualClock();
    const server = createFakeServer();
    const auth = serveAuth(server, clock);
    await seedSession(db, { access: 'stale', refresh: auth.grant().refresh_token, profile: driverUser });
    const gate = deferred<void>();
    server.on('POST auth/refresh/', async (request) => {
      await gate.promise;
      // The real server revokes the family when a used refresh token comes back: a second refresh would fail.
      if ((request.body as { refresh_token: string }).refresh_token !== auth.state.refresh) return { status: 401, data: { detail: 'reuse' } };
      return { status: 200, data: auth.grant() };
    });
    server.on('GET x/', (request) => (auth.authorised(request.headers) ? { status: 200, data: 'ok' } : { status: 401, data: { detail: 'Требуется вход' } }));
    const one = await makeEngine({ db, locks, clock, server, mode: 'dedicated' });
    const two = await makeEngine({ db, locks, clock, server, mode: 'dedicated' });

    const calls = [one.api.get('x/', { tab: 1 }), two.api.get('x/', { tab: 2 }), one.api.get('x/', { tab: 3 }), two.api.get('x/', { tab: 4 })];
    await settle(5);
    gate.resolve();
    const results = await Promise.all(calls);
    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
    expect(server.count('POST auth/refresh/')).toBe(1);
  });

  it("a login, a rotation's end of offline mode and a logout in one tab's engine reach the other's snapshot", async () => {
    const db = await freshDb();
    const locks = createFifoLocks();
    const clock = createManualClock();
    const server = createFakeServer();
    const hub = createChannelHub<CrossTabMessage>();
    serveAuth(server, clock);
    const one = await makeEngine({ db, locks, clock, server, mode: 'dedicated', channel: hub.channel() });
    const two = await makeEngine({ db, locks, clock, server, mode: 'dedicated', channel: hub.channel() });
    const tabTwo = await two.connectTab();

    await one.api.login('driver@demo.local', 'demo12345');
    await settle();
    expect(tabTwo.latest()?.auth).toMatchObject({ isAuthenticated: true, user: driverUser });
    expect(tabTwo.latest()?.mode).toBe('dedicated');

    server.on('GET users/me/', () => {
      throw networkFailure();
    });
    await one.api.fetchProfile();
    await settle();
    expect(tabTwo.latest()?.auth).toMatchObject({ offlineMode: true, error: 'offline' });

    await one.api.logout();
    await settle();
    expect(tabTwo.latest()?.auth).toMatchObject({ isAuthenticated: false, user: null, offlineMode: false });
  });
});
