/**
 * Two tabs, one engine (docs/product.md §4 and §7): with a SharedWorker both tabs talk to the same one; without
 * it each tab runs a dedicated engine and the two stay in step over BroadcastChannel and Web Locks. Either way
 * an expired access token costs exactly one POST /auth/refresh/ for both tabs, and a login or logout in one tab
 * shows in the other.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CLUSTER, DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { engineConnected, engineGet, sharedWorkersOf } from './harness/engine.ts';
import { sleep, waitFor } from './harness/wait.ts';
import { LoginPage, signIn } from './pages/login-page.ts';
import { Shell } from './pages/shell.ts';

/** Short enough to wait out in a test; the engine refreshes any token this close to expiry at startup. */
const ACCESS_TOKEN_TTL_S = 2;
const MANAGER_NAME = 'Ольга Смирнова';
const REFRESH = /^\/api\/auth\/refresh\/?$/;

/** Both engine modes; the two-instance run tests the servers, so one mode is enough there. */
const MODES: EngineMode[] = CLUSTER ? ['shared'] : ['shared', 'dedicated'];
/**
 * The tests about the browser alone (cross-tab login, logout, GET dedup): not run again in the two-instance
 * run, which keeps this file's sign-in and shared-refresh tests.
 */
const browserOnly = CLUSTER ? (): void => undefined : it;

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp({ accessTokenTtl: ACCESS_TOKEN_TTL_S });
});
afterAll(async () => {
  await app?.close();
});

async function showsUserIn(page: Page, name: string, mode: EngineMode = 'shared'): Promise<void> {
  const shell = new Shell(page);
  await waitFor(async () => (await shell.userNameText()) === name, { message: `${mode}: header shows ${name}` });
}

describe.each(MODES)('two tabs (%s engine)', (mode) => {
  let context: BrowserContext;

  beforeEach(async () => {
    context = await newContext(app.browser, mode, 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await context.close();
  });

  /** A second tab of the same context, opened on `path` once the first is signed in. */
  async function secondTab(path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${app.url}${path}`);
    await waitFor(() => engineConnected(page), { message: 'second tab connected to its engine' });
    return page;
  }

  const showsUser = (page: Page, name: string) => showsUserIn(page, name, mode);

  it('both tabs show one session: one SharedWorker, or one dedicated engine per tab kept in step', async () => {
    const first = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const second = await secondTab('/profile');
    await showsUser(first, MANAGER_NAME);
    await showsUser(second, MANAGER_NAME);
    // The second tab never signed in: it shows the same session as the first.
    // The menu comes with the profile's answer, after the name in the header: read it once it is there.
    let labels: string[] = [];
    await waitFor(async () => (labels = await new Shell(first).sidebarLabels()).length > 0, { message: 'the first tab shows its menu' });
    await waitFor(async () => JSON.stringify(await new Shell(second).sidebarLabels()) === JSON.stringify(labels), { message: 'the second tab shows the same menu' });

    const shared = await sharedWorkersOf(context, first);
    if (mode === 'shared') {
      expect(shared).toHaveLength(1);
      expect(first.workers()).toHaveLength(0);
      expect(second.workers()).toHaveLength(0);
    } else {
      expect(shared).toHaveLength(0);
      // One dedicated engine per tab, started from the fallback entry.
      for (const page of [first, second]) {
        expect(page.workers().map((worker) => new URL(worker.url()).pathname)).toEqual([expect.stringMatching(/\/dedicated-[\w-]+\.js$/)]);
      }
    }
  });

  it('an expired access token makes exactly one POST /auth/refresh/ for both tabs together', async () => {
    const first = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const firstErrors = trackErrors(first);
    const second = await secondTab('/profile');
    await showsUser(first, MANAGER_NAME);
    await showsUser(second, MANAGER_NAME);

    // Wait out the newest token (a dedicated engine refreshed at its startup), then start counting.
    await sleep(ACCESS_TOKEN_TTL_S * 1000 + 1200);
    app.proxy.reset();
    // Hold the refresh a moment, so every call of both tabs meets the expired token while it is on its way.
    app.proxy.delayNext('POST', REFRESH, 1500);
    const firstPaths = ['/users/me/', '/users/drivers/'];
    const secondPaths = ['/registration-requests/', '/auth/roles/'];
    const results = await Promise.all([
      ...firstPaths.map((path) => engineGet(first, path)),
      ...secondPaths.map((path) => engineGet(second, path)),
    ]);

    expect(results.map((result) => result.ok)).toEqual([true, true, true, true]);
    expect(results.map((result) => (result.ok ? result.data.fromCache : null))).toEqual([false, false, false, false]);
    const refused = app.proxy.requests.filter((r) => r.status === 401).map((r) => r.path);
    expect(new Set(refused)).toEqual(new Set(['/api/users/me/', '/api/users/drivers/', '/api/registration-requests/', '/api/auth/roles/']));
    expect(app.proxy.count('POST', REFRESH)).toBe(1);
    expect(firstErrors).toEqual([]);
  });

  browserOnly('a login in one tab shows up in the other', async () => {
    const first = await context.newPage();
    const second = await context.newPage();
    const firstLogin = await new LoginPage(first, app.url).goto();
    const secondLogin = await new LoginPage(second, app.url).goto();
    expect(await new Shell(second).header.count()).toBe(0);

    await firstLogin.loginAs(DEMO.manager, DEMO_PASSWORD);
    await showsUser(second, MANAGER_NAME);
    await secondLogin.alreadySignedIn.waitFor();
    // The other tab may now open a protected screen without signing in.
    await second.goto(`${app.url}/user-registration-requests`);
    await second.getByRole('heading', { level: 1, name: 'Заявки на регистрацию' }).waitFor();
  });

  browserOnly('a logout in one tab logs out the other', async () => {
    const first = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const second = await secondTab('/tasks/manage');
    await second.getByRole('heading', { level: 1, name: 'Управление задачами' }).waitFor();
    const secondShell = new Shell(second);

    await new Shell(first).logout();
    await waitFor(() => new Shell(first).path() === '/login', { message: 'the tab that logged out is on /login' });
    await waitFor(() => secondShell.path() === '/login', { message: 'the other tab is sent to /login' });
    await waitFor(async () => (await secondShell.header.count()) === 0, { message: 'the other tab has no header' });
    expect(app.proxy.count('POST', /^\/api\/auth\/logout\/?$/)).toBeGreaterThanOrEqual(1);

    // The session is gone for good, not only from the screen: a reload does not bring it back.
    await second.goto(`${app.url}/tasks/manage`);
    await waitFor(() => secondShell.path() === '/login', { message: 'still signed out after a reload' });
  });
});

// Browser-only as a whole: not declared in the two-instance run, where it would be an empty suite (a failed file).
if (!CLUSTER) {
  describe.each(MODES)('two tabs (%s engine): identical GETs', (mode) => {
    it('the same GET from both tabs at once is one request on the wire', async () => {
      // Dedicated mode: each tab has its own engine, and they share the request through a Web Lock per key.
      const context = await newContext(app.browser, mode, 1440, { serviceWorkers: 'block' });
      try {
        const first = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
        await showsUserIn(first, MANAGER_NAME, mode);
        const second = await context.newPage();
        await second.goto(`${app.url}/profile`);
        await showsUserIn(second, MANAGER_NAME, mode);
        const drivers = /^\/api\/users\/drivers\/$/;
        const before = app.proxy.requests.length;
        // Held at the proxy, so the second tab's call surely arrives while the first one's is in flight (both
        // start in the same instant). Not longer: this file's tokens live 2 s, and a repeat held as long could
        // reach the server with a token that expired on the way.
        app.proxy.delayNext('GET', drivers, 400, 2);
        const [a, b] = await Promise.all([engineGet(first, '/users/drivers/'), engineGet(second, '/users/drivers/')]);
        expect(a.ok && b.ok).toBe(true);
        expect(JSON.stringify(a.ok ? a.data.data : null)).toBe(JSON.stringify(b.ok ? b.data.data : null));
        // This file's tokens live 2 s: the shared call may meet a 401 once and be repeated after the refresh.
        const sent = app.proxy.requests.slice(before).filter((r) => r.method === 'GET' && drivers.test(r.path));
        expect(sent.filter((r) => r.status !== 401)).toHaveLength(1);
        expect(sent.filter((r) => r.status === 401).length).toBeLessThanOrEqual(1);
      } finally {
        await context.close();
      }
    });
  });
}
