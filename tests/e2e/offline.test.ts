/**
 * Offline (docs/product.md §2, §4 and §7), with a SharedWorker and without: the driver's lists are cached while
 * online; with the network cut, a reload still opens the app from the service worker, the yellow banner says
 * why, and the lists show from the cache with 'данные от HH:MM'; when the network returns the banner goes away
 * and the lists are fresh again.
 *
 * Playwright's setOffline does not reach a SharedWorker's requests, so the network is cut at the proxy
 * (for real, for every worker) and the context is set offline too, for navigator.onLine.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { waitFor } from './harness/wait.ts';
import { CurrentTasksPage } from './pages/current-tasks-page.ts';
import { signIn } from './pages/login-page.ts';
import { ProfilePage } from './pages/profile-page.ts';
import { Shell } from './pages/shell.ts';

const NO_NETWORK = 'Нет подключения к сети';
const OFFLINE_MODE = 'Приложение работает в офлайн-режиме (данные из кэша)';
const CACHE_NOTE = /^данные от \d{2}:\d{2}$/;
const NEEDS_SERVER = 'Нужна связь с сервером';
/** Set E2E_SCREENSHOTS to a folder to keep pictures of the offline states at 360 and 1440 px. */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

const MODES: EngineMode[] = ['shared', 'dedicated'];

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The viewport, not fullPage: a full-page capture draws the cards' sticky action bars out of place.
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

async function bannerIs(shell: Shell, text: string | null, message: string): Promise<void> {
  let seen: string | null = null;
  await waitFor(
    async () => {
      seen = await shell.bannerText();
      return seen === text;
    },
    { message: `${message} (banner: ${JSON.stringify(seen)})` },
  );
}

describe.each(MODES)('offline (%s engine)', (mode) => {
  let context: BrowserContext;

  beforeEach(async () => {
    app.proxy.setDown(false);
    context = await newContext(app.browser, mode, mode === 'shared' ? 1440 : 360);
  });
  afterEach(async () => {
    await context.close();
    app.proxy.setDown(false);
  });

  /** Signs the driver in and visits the screens whose lists must be cached: /profile, /current-tasks. */
  async function driverWithCachedLists(): Promise<{ page: Page; profile: ProfilePage; current: CurrentTasksPage }> {
    const page = await signIn(context, app.url, DEMO.driver, DEMO_PASSWORD);
    const profile = new ProfilePage(page, app.url);
    // Shown from the network (no cache note): both lists are now stored by the engine.
    await profile.transportItems.first().waitFor();
    await profile.fact('E-mail').waitFor();
    expect(await profile.cacheNotes.count()).toBe(0);
    const current = await new CurrentTasksPage(page, app.url).goto();
    await current.cards.first().waitFor();
    expect(await current.cacheNote.count()).toBe(0);
    await waitForServiceWorker(page);
    return { page, profile, current };
  }

  it('no network: the reload comes from the service worker, the banner says so, cached lists show; the network returns', async () => {
    const { page, profile, current } = await driverWithCachedLists();
    const errors = trackErrors(page);
    const shell = new Shell(page);
    const cards = await current.cards.count();

    app.proxy.setDown(true);
    await context.setOffline(true);
    // The running app notices at once.
    await bannerIs(shell, NO_NETWORK, 'network lost while the app runs');
    // Said once, by the banner: the screen's own notice tells what still works instead of repeating it.
    expect(await page.getByText(NO_NETWORK).count()).toBe(1);
    await screenshot(page, `${mode}-no-network-${mode === 'shared' ? 1440 : 360}`);

    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    // A start without network and with a cached profile turns offline mode on (docs/product.md §4, "Startup" step 3),
    // and offline mode's text is the one the banner shows.
    await bannerIs(shell, OFFLINE_MODE, 'after an offline reload');
    await current.title.waitFor();
    await waitFor(async () => (await current.cards.count()) === cards, { message: 'the cached current tasks show' });
    expect(await current.cacheNote.textContent()).toMatch(CACHE_NOTE);
    await screenshot(page, `${mode}-offline-current-tasks-${mode === 'shared' ? 1440 : 360}`);

    const again = await page.goto(`${app.url}/profile`);
    expect(again?.fromServiceWorker()).toBe(true);
    await profile.transportItems.first().waitFor();
    expect(await profile.fact('E-mail').textContent()).toBe(DEMO.driver);
    // Both the profile and the vehicle list came from the cache, and say so.
    await waitFor(async () => (await profile.cacheNotes.count()) === 2, { message: 'two cache notes on /profile' });
    for (const note of await profile.cacheNotes.allTextContents()) expect(note).toMatch(CACHE_NOTE);
    // What needs the server waits for it, and says so.
    expect(await profile.editButton.isDisabled()).toBe(true);
    expect(await profile.editButton.getAttribute('title')).toBe(NEEDS_SERVER);
    expect(await profile.makeCurrentButtons.first().isDisabled()).toBe(true);
    expect(await profile.makeCurrentButtons.first().getAttribute('title')).toBe(NEEDS_SERVER);
    for (const hint of await profile.needsServerHints.allTextContents()) expect(hint.startsWith(NEEDS_SERVER)).toBe(true);
    // Editing the profile, the vehicles, and turning notifications on.
    expect(await profile.needsServerHints.count()).toBe(3);
    expect(await page.getByRole('button', { name: 'Включить уведомления' }).isDisabled()).toBe(true);
    await screenshot(page, `${mode}-offline-profile-${mode === 'shared' ? 1440 : 360}`);

    const sentBefore = app.proxy.requests.length;
    app.proxy.setDown(false);
    await context.setOffline(false);
    await bannerIs(shell, null, 'the network returned');
    // The engine left offline mode and the open screen refetched: fresh data, no cache notes.
    await waitFor(async () => (await profile.cacheNotes.count()) === 0, { message: 'lists refetched after reconnecting' });
    await waitFor(() => profile.editButton.isEnabled(), { message: 'editing the profile is possible again' });
    expect(await profile.makeCurrentButtons.first().isEnabled()).toBe(true);
    expect(await profile.needsServerHints.count()).toBe(0);
    const afterReturn = app.proxy.requests.slice(sentBefore);
    expect(afterReturn.some((r) => r.path === '/api/users/me/' && r.status === 200)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('server unreachable while the device is online: offline mode, banner, cached lists', async () => {
    const { page, profile } = await driverWithCachedLists();
    const shell = new Shell(page);
    await profile.goto();
    await profile.transportItems.first().waitFor();

    // The link is up (navigator.onLine stays true) but nothing reaches the server.
    app.proxy.setDown(true);
    const reloaded = await page.reload();
    expect(reloaded?.fromServiceWorker()).toBe(true);
    // The engine's profile fetch fails with a network error → offline mode (docs/product.md §4).
    await bannerIs(shell, OFFLINE_MODE, 'server unreachable');
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await profile.transportItems.first().waitFor();
    await waitFor(async () => (await profile.cacheNotes.count()) === 2, { message: 'two cache notes on /profile' });
    // Offline mode keeps the session: the header and the driver's menu (sidebar, or the bottom bar at 360 px) stay.
    expect(await shell.userName.textContent()).toBe('Иван Петров');
    await screenshot(page, `${mode}-offline-mode-profile-${mode === 'shared' ? 1440 : 360}`);
  });
});
