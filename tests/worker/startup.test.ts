import { describe, expect, it } from 'vitest';
import { KV } from '../../worker/db.ts';
import { makeJwt, networkFailure, settle } from './doubles.ts';
import { driverUser, makeEngine, seedSession, serveAuth } from './harness.ts';

const OFFLINE_TOAST = 'Необходимо подключение к интернету для входа';
const REFRESH_TOAST = 'Ошибка обновления токена, пожалуйста, войдите заново';
const PROFILE_TOAST = 'Не удалось получить профиль, выполните вход заново';
const proceed = { toast: null, redirectToLogin: false };

/** An engine with a live server session whose access token expires `secondsLeft` from now. */
async function withSession(secondsLeft: number, options: { cached?: boolean; online?: boolean } = {}) {
  const setup = await makeEngine();
  const auth = serveAuth(setup.server, setup.clock);
  const pair = auth.grant();
  const access = makeJwt(Math.floor(setup.clock.now() / 1000) + secondsLeft, '7', 'seeded');
  auth.state.access = access;
  await seedSession(setup.db, { access, refresh: pair.refresh_token, ...(options.cached ? { profile: driverUser } : {}) });
  if (options.online === false) setup.network.setOnline(false);
  const tab = await setup.connectTab();
  return { ...setup, auth, access, tab };
}

describe('startup (docs/product.md §4), step by step', () => {
  it('1. without tokens: initialised, unauthenticated, nothing fetched', async () => {
    const { api, server, connectTab } = await makeEngine();
    const tab = await connectTab();
    expect(tab.latest()?.auth.initialized).toBe(false);
    expect(await api.startup()).toEqual(proceed);
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ initialized: true, isAuthenticated: false, offlineMode: false });
    expect(server.log).toHaveLength(0);
  });

  it('2.+3. authenticated without a user loads the cached profile; offline with it → offline mode, no network', async () => {
    const { api, server, tab } = await withSession(600, { cached: true, online: false });
    expect(await api.startup()).toEqual(proceed);
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ initialized: true, isAuthenticated: true, user: driverUser, offlineMode: true });
    expect(server.log).toHaveLength(0);
  });

  it('4. offline without a cache → the toast and /login; the tokens stay for a start with network', async () => {
    const { api, db, access, tab } = await withSession(600, { online: false });
    expect(await api.startup()).toEqual({ toast: OFFLINE_TOAST, redirectToLogin: true });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ initialized: true, isAuthenticated: false, user: null });
    expect(await db.get('kv', KV.token)).toBe(access);
  });

  it('4. also for a visitor without tokens who opens the app offline', async () => {
    const { api, network } = await makeEngine();
    network.setOnline(false);
    expect(await api.startup()).toEqual({ toast: OFFLINE_TOAST, redirectToLogin: true });
  });

  it('5. a token with more than 60 s left is not refreshed; 6. the profile is fetched', async () => {
    const { api, server, tab } = await withSession(61);
    expect(await api.startup()).toEqual(proceed);
    await settle();
    expect(server.count('POST auth/refresh/')).toBe(0);
    expect(server.count('GET users/me/')).toBe(1);
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: true, user: driverUser, offlineMode: false });
  });

  it('5. a token within 60 s of expiry is refreshed, then the profile is fetched with the new one', async () => {
    const { api, server, auth, db } = await withSession(60);
    expect(await api.startup()).toEqual(proceed);
    expect(server.count('POST auth/refresh/')).toBe(1);
    const profileCall = server.log.find((request) => request.path === 'users/me/');
    expect(profileCall?.headers.authorization).toBe(`Bearer ${auth.state.access}`);
    expect(await db.get('kv', KV.token)).toBe(auth.state.access);
  });

  it('5. an expired token whose refresh fails, with a cache → offline mode on the cached profile', async () => {
    const { api, server, tab } = await withSession(-10, { cached: true });
    server.on('POST auth/refresh/', () => {
      throw networkFailure();
    });
    expect(await api.startup()).toEqual(proceed);
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: true, user: driverUser, offlineMode: true, error: 'Network error while refreshing token' });
    expect(server.count('GET users/me/')).toBe(0);
  });

  it('5. a refused refresh without a cache → the toast and /login; the dead tokens are dropped', async () => {
    const { api, server, db, tab } = await withSession(-10);
    server.on('POST auth/refresh/', () => ({ status: 401, data: { detail: 'Сессия отозвана' } }));
    expect(await api.startup()).toEqual({ toast: REFRESH_TOAST, redirectToLogin: true });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: false, user: null });
    expect(await db.get('kv', KV.token)).toBeUndefined();
    expect(await db.get('kv', KV.refresh)).toBeUndefined();
  });

  it('5. a refresh that meets a network error without a cache → the toast and /login; the tokens stay', async () => {
    const { api, server, db, access } = await withSession(-10);
    server.on('POST auth/refresh/', () => {
      throw networkFailure('ECONNABORTED', 'timeout of 10000ms exceeded');
    });
    expect(await api.startup()).toEqual({ toast: REFRESH_TOAST, redirectToLogin: true });
    expect(await db.get('kv', KV.token)).toBe(access);
  });

  it('6. a failed profile fetch without a cache → the toast and /login', async () => {
    const { api, server, tab } = await withSession(600);
    server.on('GET users/me/', () => ({ status: 500 }));
    expect(await api.startup()).toEqual({ toast: PROFILE_TOAST, redirectToLogin: true });
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: false, user: null });
  });

  it("6. a profile fetch that meets the network with a cache → go on, offline mode with error 'offline'", async () => {
    const { api, server, tab } = await withSession(600, { cached: true });
    server.on('GET users/me/', () => {
      throw networkFailure();
    });
    expect(await api.startup()).toEqual(proceed);
    await settle();
    expect(tab.latest()?.auth).toMatchObject({ isAuthenticated: true, user: driverUser, offlineMode: true, error: 'offline' });
  });

  it('runs once per engine: a later tab gets the same outcome; after a logout it runs again', async () => {
    const { api, server, network } = await withSession(600, { online: false });
    const first = await api.startup();
    expect(await api.startup()).toBe(first);
    network.setOnline(true);
    expect(await api.startup()).toEqual({ toast: OFFLINE_TOAST, redirectToLogin: true });
    await api.logout();
    expect(await api.startup()).toEqual(proceed);
    expect(server.count('POST auth/logout/')).toBe(1);
  });
});
