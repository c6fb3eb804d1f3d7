/**
 * A report queued while the server is unreachable but the network is up, in an engine that was
 * started during the outage (the tab reloaded while the server was down), is delivered once the server is
 * back — without a reload, a click or an 'online' event. Before, the recovery timer's back-off (30 s doubling
 * to 10 min) left it waiting minutes; it now retries every few seconds. The bound below is generous (a shared
 * machine): it is not a timing assertion, it fails only if nothing retries for half a minute.
 */
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext } from './harness/browser.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { engineClock } from './pages/driver-clock.ts';
import { NEEDS_SERVER } from '../../src/engine/use-online.ts';
import { DEMO, DEMO_PASSWORD } from './harness/app.ts';
import { login } from '../fixtures/accounts.ts';
import { queueWithServerDown } from './pages/driver-queue.ts';

const suite = useDriverSuite(1);
const REPORTED = 'ПГС (песчано-гравийная смесь)';

describe('delivery after an outage', () => {
  it.each([
    ['shared', 'Песок мытый'],
    ['dedicated', 'Щебень гранитный 20–40'],
  ] as const)('%s engine: an engine started while the server was down sends the queue by itself once the server answers', async (mode, cargo) => {
    const { server, proxy, browser } = suite.app;
    // The service worker serves the app shell, so the tab can reload while the server is down.
    const context = await newContext(browser, mode, 390);
    try {
      // The server goes away; the browser still says it is online.
      const { page, associationId, outbox } = await queueWithServerDown(suite.app, context, { cargo, quantity: '9', photos: suite.photos });
      // The engine restarts during the outage (the only tab reloads): it starts in offline mode.
      await page.reload();
      await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(1);

      const back = Date.now();
      proxy.setDown(false);
      await expect.poll(() => reportsOn(server, associationId), { timeout: 30_000, interval: 250 }).toHaveLength(1);
      console.info(`${mode}: delivered ${((Date.now() - back) / 1000).toFixed(1)} s after the server came back`);
      await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(0);
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });

  it('with no reload: the engine finds the server down, the banner shows and stays in sight; back, the buttons return and the queue says «Отчёт отправлен»', async () => {
    const { server, proxy, browser, url } = suite.app;
    const context = await newContext(browser, 'shared', 390);
    try {
      // A task of the driver's own for the report (the seed's three accepted ones are used above and below).
      const open = await server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', REPORTED).executeTakeFirstOrThrow();
      const { access_token } = await login(server, DEMO.driver, DEMO_PASSWORD);
      expect((await server.app.inject({ method: 'PUT', url: `/api/tasks/${open.id}/accept/`, headers: { authorization: `Bearer ${access_token}` } })).statusCode).toBe(200);
      const { page, associationId } = await queueWithServerDown(suite.app, context, { cargo: REPORTED, quantity: '7', photos: suite.photos });
      const current = new CurrentTasksPage(page, url);
      const start = current.card('Грунт растительный').getByRole('button', { name: 'Начать рейс' });
      const banner = page.locator('.offline-banner');

      // The failed report send made the engine ask the server; it did not answer: offline mode, without a reload.
      await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toBe('Приложение работает в офлайн-режиме (данные из кэша)');
      // What needs the server is disabled, and says why.
      expect(await start.isDisabled()).toBe(true);
      expect(await start.getAttribute('title')).toBe(NEEDS_SERVER);

      // The banner stays at the top of the viewport while the page scrolls under it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(async () => (await banner.boundingBox())?.y).toBe(0);

      proxy.setDown(false);
      await page.getByText('Отчёт отправлен').first().waitFor({ timeout: 30_000 });
      expect(await reportsOn(server, associationId)).toHaveLength(1);
      await banner.waitFor({ state: 'detached', timeout: 15_000 });
      const ground = await associationFor(server, 'Грунт растительный');
      // Enabled again by itself.
      await start.click();
      await expect.poll(() => associationStatus(server, ground.id), { timeout: 15_000 }).toBe('in_progress');
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});

describe('«Отправить сейчас» in offline mode', () => {
  it('asks the server at once and sends the queue when it is back, before any timer of the engine would', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = 'Асфальтобетонная смесь';
    const task = await server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', cargo).executeTakeFirstOrThrow();
    const { access_token } = await login(server, DEMO.driver, DEMO_PASSWORD);
    expect((await server.app.inject({ method: 'PUT', url: `/api/tasks/${task.id}/accept/`, headers: { authorization: `Bearer ${access_token}` } })).statusCode).toBe(200);
    const associationId = (await associationFor(server, cargo)).id;
    // No service worker: its sync would send the report by itself.
    const context = await newContext(browser, 'shared', 390, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signInAsDriver(page, url);
      const current = await new CurrentTasksPage(page, url).goto();
      await current.card(cargo).waitFor();
      // The engine's timers stand still (recovery ticks, the change feed's reconnects, retries): only the click acts.
      const clock = await engineClock(context, page, 'shared');
      proxy.setDown(true);
      const form = await current.openReport(cargo);
      await form.fill({ quantity: '4' });
      await form.addPhotos(suite.photos);
      await form.submit();
      const outbox = new OutboxView(page);
      await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(1);
      await page.locator('.offline-banner').getByText('Приложение работает в офлайн-режиме (данные из кэша)').waitFor({ timeout: 15_000 });

      proxy.setDown(false);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await reportsOn(server, associationId)).toEqual([]);
      await outbox.open();
      // Its retry time has not come (the engine's clock stands still): the click sends it anyway.
      await outbox.panel.getByRole('button', { name: 'Отправить сейчас' }).click();
      await expect.poll(() => reportsOn(server, associationId), { timeout: 10_000, interval: 250 }).toHaveLength(1);
      await page.locator('.offline-banner').waitFor({ state: 'detached', timeout: 10_000 });
      await clock.close();
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});
