import { describe, expect, it } from 'vitest';
import { KV } from '../../worker/db.ts';
import { cacheKey } from '../../worker/cache.ts';
import { networkFailure, settle } from './doubles.ts';
import { driverUser, driverWire, makeEngine, seedSession, serveAuth } from './harness.ts';

const registration = { email: 'new@demo.local', password: 'secret123', name: 'Новый', phone: '+7 900 1', company_id: 1, role: 'driver' as const };

describe('registration (docs/product.md §8)', () => {
  it('answers the server detail', async () => {
    const { api, server } = await makeEngine();
    server.on('POST users/', () => ({ status: 409, data: { detail: 'Пользователь с таким e-mail уже есть' } }));
    expect(await api.register(registration)).toEqual({ ok: false, message: 'Пользователь с таким e-mail уже есть', status: 409, network: false });
    expect(server.log[0]?.body).toMatchObject({ email: 'new@demo.local', company_id: 1 });
  });
  it("answers 'Registration failed' without a detail", async () => {
    const { api, server } = await makeEngine();
    server.on('POST users/', () => ({ status: 500 }));
    expect(await api.register(registration)).toMatchObject({ ok: false, message: 'Registration failed' });
  });
  it('succeeds, saying who will review the request', async () => {
    const { api, server } = await makeEngine();
    server.on('POST users/', () => ({ status: 201, data: { id: 1, reviewer: 'super-admin' } }));
    expect(await api.register(registration)).toEqual({ ok: true, data: 'super-admin' });
    server.on('POST users/', () => ({ status: 201, data: { id: 2 } }));
    expect(await api.register(registration)).toEqual({ ok: true, data: 'company' });
  });
});

describe('login', () => {
  it('sends username, password, device_id, device_info and push_subscription; stores tokens and the user', async () => {
    const { api, server, db, clock, connectTab } = await makeEngine();
    const auth = serveAuth(server, clock);
    const tab = await connectTab();
    const result = await api.login('driver@demo.local', 'demo12345', { endpoint: 'https://push.example/1' });
    expect(result).toEqual({ ok: true, data: driverUser });
    expect(server.log[0]?.body).toEqual({
      username: 'driver@demo.local',
      password: 'demo12345',
      device_id: 'device-1',
      device_info: 'Vitest',
      push_subscription: { endpoint: 'https://push.example/1' },
    });
    expect(await db.get('kv', KV.token)).toBe(auth.state.access);
    expect(await db.get('kv', KV.refresh)).toBe(auth.state.refresh);
    expect(await db.get('kv', KV.profile)).toEqual(driverUser);
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: true, user: driverUser, offlineMode: false, error: null, loading: false });
  });
  it('answers the server detail', async () => {
    const { api, server, clock } = await makeEngine();
    serveAuth(server, clock);
    expect(await api.login('driver@demo.local', 'wrong')).toMatchObject({ ok: false, message: 'Неверный e-mail или пароль', status: 401 });
  });
  it("answers 'Login failed' without a detail, also on a network error", async () => {
    const { api, server } = await makeEngine();
    server.on('POST auth/login/', () => ({ status: 502 }));
    expect(await api.login('a@b.c', 'x')).toMatchObject({ ok: false, message: 'Login failed', status: 502 });
    server.on('POST auth/login/', () => {
      throw networkFailure();
    });
    expect(await api.login('a@b.c', 'x')).toEqual({ ok: false, message: 'Login failed', status: null, network: true });
  });
  it("keeps only the new user's cached GET answers", async () => {
    const { api, server, db, clock } = await makeEngine();
    serveAuth(server, clock);
    await db.put('cache', { key: cacheKey(99, 'tasks/assigned/'), userId: 99, path: 'tasks/assigned/', data: ['someone else'], storedAt: 1 });
    await db.put('cache', { key: cacheKey(7, 'tasks/assigned/'), userId: 7, path: 'tasks/assigned/', data: ['mine'], storedAt: 1 });
    await api.login('driver@demo.local', 'demo12345');
    expect((await db.getAll('cache')).map((entry) => entry.userId)).toEqual([7]);
  });
});

describe('profile fetch', () => {
  it('flattens the role object to its name and caches the profile', async () => {
    const { api, server, db, clock } = await makeEngine();
    const auth = serveAuth(server, clock);
    const pair = auth.grant();
    await seedSession(db, { access: pair.access_token, refresh: pair.refresh_token });
    const result = await api.fetchProfile();
    expect(result).toEqual({ ok: true, data: driverUser });
    expect(result.ok && result.data.role).toBe('driver');
    expect(await db.get('kv', KV.profile)).toEqual(driverUser);
  });
  it('answers the server detail, else Failed to fetch user', async () => {
    const { api, server } = await makeEngine();
    server.on('GET users/me/', () => ({ status: 403, data: { detail: 'Учётная запись отключена' } }));
    expect(await api.fetchProfile()).toMatchObject({ ok: false, message: 'Учётная запись отключена', status: 403 });
    server.on('GET users/me/', () => ({ status: 500 }));
    expect(await api.fetchProfile()).toMatchObject({ ok: false, message: 'Failed to fetch user', status: 500 });
  });
  it("a network failure sets offline mode with error 'offline'; a success clears it", async () => {
    const { api, server, connectTab } = await makeEngine();
    const tab = await connectTab();
    server.on('GET users/me/', () => {
      throw networkFailure('ECONNABORTED', 'timeout of 10000ms exceeded');
    });
    expect(await api.fetchProfile()).toEqual({ ok: false, message: 'Failed to fetch user', status: null, network: true });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: true, error: 'offline' });
    expect(tab.latest()?.network.offlineMode).toBe(true);
    server.on('GET users/me/', () => ({ status: 200, data: driverWire }));
    await api.fetchProfile();
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: false, error: null, user: driverUser });
  });
});

describe('logout', () => {
  it('posts the refresh token, then clears tokens, user, offline mode and the cache', async () => {
    const { api, server, db, clock, connectTab } = await makeEngine();
    const auth = serveAuth(server, clock);
    await api.login('driver@demo.local', 'demo12345');
    const refreshToken = auth.state.refresh;
    await db.put('cache', { key: cacheKey(7, 'x/'), userId: 7, path: 'x/', data: 1, storedAt: 1 });
    server.on('GET users/me/', () => {
      throw networkFailure();
    });
    await api.fetchProfile(); // offline mode on
    const tab = await connectTab();
    expect(tab.latest()?.auth.offlineMode).toBe(true);

    await api.logout();
    await settle();
    expect(server.log.at(-1)).toMatchObject({ method: 'POST', path: 'auth/logout/', body: { refresh_token: refreshToken } });
    expect(await db.get('kv', KV.token)).toBeUndefined();
    expect(await db.get('kv', KV.refresh)).toBeUndefined();
    expect(await db.get('kv', KV.profile)).toBeUndefined();
    expect(await db.count('cache')).toBe(0);
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: false, user: null, offlineMode: false });
  });
  it('clears everything whatever the network says', async () => {
    const { api, server, db } = await makeEngine();
    await seedSession(db, { access: 'a', refresh: 'r', profile: driverUser });
    await db.put('cache', { key: cacheKey(7, 'x/'), userId: 7, path: 'x/', data: 1, storedAt: 1 });
    server.on('POST auth/logout/', () => {
      throw networkFailure();
    });
    await api.logout();
    expect(await db.get('kv', KV.token)).toBeUndefined();
    expect(await db.count('cache')).toBe(0);
    expect(server.count('POST auth/refresh/')).toBe(0);
  });
});
