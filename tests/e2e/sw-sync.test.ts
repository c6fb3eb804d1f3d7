/**
 * The service worker's background sync, fired over CDP (ServiceWorker.dispatchSyncEvent and
 * dispatchPeriodicSyncEvent) with every tab of the app closed: the one-off 'sync' delivers a report queued
 * while the server was down, and a notification says so; the periodic 'sync-tasks' refreshes the driver's
 * cached task list, so the app opened later with no network shows a task assigned meanwhile.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { demoDriverId, reportsOn } from './pages/driver-records.ts';
import { queueWithServerDown } from './pages/driver-queue.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';

const suite = useDriverSuite(1);

/** A CDP session on a blank tab (the app's tabs are closed) that knows the app's service worker registration. */
async function serviceWorkerControl(context: BrowserContext, origin: string): Promise<{ blank: Page; session: CDPSession; registrationId: string }> {
  const blank = await context.newPage();
  const session = await context.newCDPSession(blank);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  session.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
  await session.send('ServiceWorker.enable');
  await waitFor(() => registrations.some((r) => r.scopeURL.startsWith(origin) && !r.isDeleted), { message: 'the app’s service worker registration' });
  const registration = registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
  return { blank, session, registrationId: registration!.registrationId };
}

/** In the page: whether the engine's cached GET of tasks/assigned/ mentions `text` (runs in the browser). */
async function cachedAssignedHolds(text: string): Promise<boolean> {
  const db: IDBDatabase = await new Promise((resolve, reject) => {
    const request = indexedDB.open('reis-engine');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const entries: { path: string; data: unknown }[] = await new Promise((resolve, reject) => {
      const request = db.transaction('cache', 'readonly').objectStore('cache').getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return entries.some((e) => e.path === 'tasks/assigned/' && JSON.stringify(e.data).includes(text));
  } finally {
    db.close();
  }
}

describe('background sync fired with every tab closed', () => {
  it('a one-off sync delivers a queued report; a periodic sync refreshes the cached tasks for an offline start', async () => {
    const { server, proxy, browser, url } = suite.app;
    const origin = new URL(url).origin;
    const context = await newContext(browser, 'shared', 390);
    try {
      await context.grantPermissions(['notifications'], { origin });
      // A report queued with the server down; then the app's only tab is closed.
      const { page, associationId } = await queueWithServerDown(suite.app, context, { cargo: 'Песок мытый', quantity: '6', photos: suite.photos });
      const control = await serviceWorkerControl(context, origin);
      await page.close();
      proxy.setDown(false);

      await control.session.send('ServiceWorker.dispatchSyncEvent', { origin, registrationId: control.registrationId, tag: 'sync-tasks', lastChance: false });
      await expect.poll(() => reportsOn(server, associationId), { timeout: 30_000, interval: 250 }).toHaveLength(1);
      // With no tab open to show a toast, the driver is told by a notification (read from a page of the origin
      // that runs no app code).
      const shownTo = await context.newPage();
      await shownTo.goto(`${url}/manifest.webmanifest`);
      await waitFor(
        () =>
          shownTo.evaluate(async () => {
            const registration = await navigator.serviceWorker.getRegistration();
            return registration ? (await registration.getNotifications()).some((n) => n.body === 'Отчёт отправлен') : false;
          }),
        { message: 'a notification says the report was sent' },
      );
      await shownTo.close();

      // A task assigned while no tab is open reaches the cache through the periodic sync.
      const driverId = await demoDriverId(server);
      const fresh = await createTask(server, (await server.db.kysely.selectFrom('users').select('company_id').where('id', '=', driverId).executeTakeFirstOrThrow()).company_id as number, {
        date: dayFromToday(0),
        cargo: 'Гравий для фонового обновления',
        status: 'in_progress',
      });
      await addDriver(server, fresh, driverId, { order_index: 9 });
      const fetched = proxy.count('GET', /\/api\/tasks\/assigned\//);
      await control.session.send('ServiceWorker.dispatchPeriodicSyncEvent', { origin, registrationId: control.registrationId, tag: 'sync-tasks' });
      // The service worker asks the server for the driver's tasks (no tab is open to do it) and stores them in
      // the engine's cache; read it from a page of the origin that runs no app code (the manifest).
      await waitFor(() => proxy.count('GET', /\/api\/tasks\/assigned\//) > fetched, { message: 'the periodic sync fetched the tasks' });
      const probe = await context.newPage();
      await probe.goto(`${url}/manifest.webmanifest`);
      await waitFor(() => probe.evaluate(cachedAssignedHolds, 'Гравий для фонового обновления'), { message: 'the refreshed tasks in the cache' });
      await probe.close();
      // The refresh lands in the engine's IndexedDB cache; open the app with no network and look.
      await waitFor(
        async () => {
          proxy.setDown(true);
          await context.setOffline(true);
          const offline = await context.newPage();
          try {
            await offline.goto(`${url}/current-tasks`);
            await offline.getByRole('heading', { level: 1, name: 'Текущие задачи' }).waitFor();
            return await offline
              .getByRole('heading', { name: 'Гравий для фонового обновления' })
              .waitFor({ timeout: 3_000 })
              .then(() => true)
              .catch(() => false);
          } finally {
            await offline.close();
          }
        },
        { message: 'the task assigned meanwhile, shown offline from the refreshed cache', timeout: 30_000 },
      );
      await control.blank.close();
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});

describe('push messages', () => {
  it('a push delivered over CDP shows a Russian notification that carries the screen to open', async () => {
    const { browser, url } = suite.app;
    const origin = new URL(url).origin;
    const context = await newContext(browser, 'shared', 390);
    try {
      await context.grantPermissions(['notifications'], { origin });
      const page = await context.newPage();
      await signInAsDriver(page, url);
      await waitForServiceWorker(page);
      const control = await serviceWorkerControl(context, origin);
      const data = JSON.stringify({ body: 'Вам назначена задача: Песок мытый, 25.11.2026', url: '/current-tasks' });
      await control.session.send('ServiceWorker.deliverPushMessage', { origin, registrationId: control.registrationId, data });
      const shown = await waitFor(
        async () => {
          const list = await page.evaluate(async () =>
            (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data as unknown })),
          );
          return list.length > 0 ? list : null;
        },
        { message: 'the notification is shown' },
      );
      expect(shown).toEqual([{ title: 'Рейс', body: 'Вам назначена задача: Песок мытый, 25.11.2026', data: { url: '/current-tasks' } }]);
    } finally {
      await context.close();
    }
  });
});
