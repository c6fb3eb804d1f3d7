/**
 * Each demo role signs in through the login screen, lands on its first screen (a driver's tasks, staff's board), sees exactly the sidebar entries the
 * nav table grants it, and is sent to /login from a route it may not open; a deep link survives a reload.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { Role } from '../../contract/roles.ts';
import { NAV, landingFor, sidebarFor } from '../../src/app/nav.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { LoginPage, signIn } from './pages/login-page.ts';
import { Shell } from './pages/shell.ts';

const ACCOUNTS: [Role, string, string][] = [
  ['driver', DEMO.driver, 'Иван Петров'],
  ['manager', DEMO.manager, 'Ольга Смирнова'],
  ['admin', DEMO.admin, 'Сергей Волков'],
  ['super-admin', DEMO.super, 'Анна Кузнецова'],
];

describe('sign-in and roles', () => {
  let app: E2eApp;
  let context: BrowserContext;

  beforeAll(async () => {
    app = await startE2eApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await context.close();
  });

  it.each(ACCOUNTS)(
    '%s signs in, lands on its first screen, sees only its sidebar entries and is sent to /login from a forbidden route',
    async (role, email, name) => {
      const page = await context.newPage();
      const errors = trackErrors(page);
      const login = await new LoginPage(page, app.url).goto();
      await login.loginAs(email, DEMO_PASSWORD);

      const shell = new Shell(page);
      expect(shell.path()).toBe(landingFor(role));
      await waitFor(async () => (await shell.userNameText()) === name, { message: `header shows ${name}` });
      await waitFor(async () => (await shell.sidebarLabels()).length > 0, { message: 'sidebar rendered' });
      expect(await shell.sidebarLabels()).toEqual(sidebarFor(role).map((entry) => entry.label));
      // The table really differs per role: nothing that only other roles may open leaks in.
      const foreign = NAV.filter((entry) => entry.inSidebar && !entry.roles.includes(role));
      expect(foreign.length).toBeGreaterThan(0);
      for (const entry of foreign) expect(await shell.sidebarLabels()).not.toContain(entry.label);

      const forbidden = foreign[0];
      if (!forbidden) throw new Error(`every role has a route it may not open; ${role} has none`);
      await page.goto(`${app.url}${forbidden.path}`);
      await waitFor(() => shell.path() === '/login', { message: `${role} at ${forbidden.path} is sent to /login` });
      await login.alreadySignedIn.waitFor();
      // An allowed route still opens: the redirect was about the role, not a lost session.
      const allowed = sidebarFor(role).at(-1);
      if (!allowed) throw new Error(`${role} has no sidebar entry`);
      await page.goto(`${app.url}${allowed.path}`);
      await page.getByRole('heading', { level: 1, name: allowed.label }).waitFor();
      expect(shell.path()).toBe(allowed.path);
      expect(errors).toEqual([]);
    },
  );

  it('an empty login shows our Russian field errors, not the browser\'s bubbles', async () => {
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByText('Укажите e-mail').waitFor();
    expect(await page.getByText('Укажите пароль').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('the built app serves no developer documents (public/CONTEXT.md stays out of dist/)', async () => {
    const res = await fetch(`${app.url}/CONTEXT.md`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('public/');
  });

  it('a visitor who is not signed in is sent to /login from a protected route', async () => {
    const page = await context.newPage();
    await page.goto(`${app.url}/profile`);
    const shell = new Shell(page);
    await waitFor(() => shell.path() === '/login', { message: 'redirect to /login' });
    await new LoginPage(page, app.url).email.waitFor();
    expect(await shell.header.count()).toBe(0);
  });

  it('a deep link survives a reload (/tasks/manage for a manager)', async () => {
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    await page.goto(`${app.url}/tasks/manage`);
    const title = page.getByRole('heading', { level: 1, name: 'Управление задачами' });
    await title.waitFor();

    const response = await page.reload();
    expect(response?.status()).toBe(200);
    await title.waitFor();
    expect(new Shell(page).path()).toBe('/tasks/manage');
    expect(await page.title()).toBe('Управление задачами — Рейс');
  });
});
