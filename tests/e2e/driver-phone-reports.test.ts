/**
 * The driver's reports on a 360 px phone (issue 30, items 8–10): the outbox panel readable (its items as wide as
 * the dialog, not squeezed into the bottom bar's four columns); a report the dispatcher disputed on a finished task
 * waiting at the top of /current-tasks with the reason — also from the engine's cache with the server gone —, one
 * tap from the correction form that repeats the reason, and counted on «Отчёты»; and the report form saying what
 * happened: sent when it went, kept on the phone and why when it could not, «Отчёт отправлен» once it went later.
 * E2E_SCREENSHOTS=<dir> saves each dialog a driver opens at 360 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { waitFor } from './harness/wait.ts';
import { demoDriverId } from './pages/driver-records.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';
import { fileReport } from './pages/staff-records.ts';

const shots = process.env.E2E_SCREENSHOTS;
const PHONE = { width: 360, height: 780 };
const DISPUTED_CARGO = 'Спор: щебень 20–40';
const REASON = 'На талоне 20,9 т, а в отчёте 24,9 т';
const OUTBOX_CARGO = 'Очередь: песок';
const FEEDBACK_CARGO = 'Отправка: ПГС';

let app: E2eApp;
let managerAuth: string;

async function createTask(cargo: string, driverId: number): Promise<void> {
  const res = await app.server.app.inject({
    method: 'POST',
    url: '/api/tasks/',
    headers: { authorization: managerAuth },
    payload: { date: dayFromToday(1), cargo, loading_place: 'Карьер «Лесной»', unloading_place: 'ЖК «Северный парк»', planned_quantity: 40, rate: 650, driver_ids: [driverId] },
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  app = await startE2eApp();
  const driverId = await demoDriverId(app.server);
  managerAuth = `Bearer ${(await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token}`;
  for (const cargo of [DISPUTED_CARGO, OUTBOX_CARGO, FEEDBACK_CARGO]) await createTask(cargo, driverId);
  // The last trip finishes the driver's part: the task leaves «Текущие задачи»; then the dispatcher disputes it.
  const report = await fileReport(app, DISPUTED_CARGO, '24.9');
  const disputed = await app.server.app.inject({
    method: 'POST',
    url: `/api/reports/${report.id}/review`,
    headers: { authorization: managerAuth },
    payload: { action: 'dispute', comment: REASON },
  });
  expect(disputed.statusCode, disputed.body).toBe(200);
});
afterAll(async () => {
  await app?.close();
});

async function phone(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await newContext(app.browser, 'shared', PHONE.width, { serviceWorkers: options.serviceWorkers ?? 'block' });
  const page = await context.newPage();
  await page.setViewportSize(PHONE);
  const errors = trackErrors(page);
  await signInAsDriver(page, app.url);
  return { context, page, errors };
}

describe('a driver on a phone', () => {
  it('finds a dispute on a finished task at the top of his home screen, with the reason, one tap from its correction', async () => {
    const { context, page, errors } = await phone({ serviceWorkers: 'allow' });
    try {
      const current = new CurrentTasksPage(page, app.url);
      const disputes = page.getByRole('region', { name: /^Оспорено диспетчером/ });
      await disputes.waitFor();
      expect(await disputes.getByRole('heading').textContent()).toBe('Оспорено диспетчером: 1');
      await disputes.getByText(`Причина: «${REASON}»`).waitFor();
      await disputes.getByText(DISPUTED_CARGO, { exact: false }).waitFor();
      await disputes.getByText('задача завершена', { exact: false }).waitFor();
      // At the top: before every task card, right under the title.
      await current.card(OUTBOX_CARGO).waitFor();
      const top = (await disputes.boundingBox())!;
      expect(top.y + top.height).toBeLessThanOrEqual((await current.card(OUTBOX_CARGO).boundingBox())!.y);
      expect(top.y).toBeLessThan(PHONE.height / 2);
      // The bar's «Отчёты» counts it, with nothing in the queue.
      const reportsEntry = page.getByRole('navigation', { name: 'Разделы водителя' }).getByRole('button', { name: /^Отчёты/ });
      expect(await reportsEntry.locator('.drv-bar__count').textContent()).toBe('1');
      expect(await reportsEntry.getAttribute('aria-label')).toBe('Отчёты. Очередь отчётов: всё отправлено; оспорено диспетчером: 1');
      if (shots) await page.screenshot({ path: `${shots}/disputed-home-360.png` });

      // The server gone and the page reloaded: the list comes from the engine's cache, the correction waits for the server.
      await waitForServiceWorker(page);
      app.proxy.setDown(true);
      await page.reload();
      await disputes.getByText(`Причина: «${REASON}»`).waitFor({ timeout: 20_000 });
      await waitFor(async () => disputes.getByRole('button', { name: 'Исправить' }).isDisabled(), { message: '«Исправить» waits for the server' });
      app.proxy.setDown(false);

      // One tap: the correction form, the dispatcher's reason repeated above the fields.
      const fix = disputes.getByRole('button', { name: 'Исправить' });
      await waitFor(async () => fix.isEnabled(), { message: '«Исправить» back with the server', timeout: 30_000 });
      await fix.click();
      const form = page.getByRole('dialog', { name: 'Исправление отчёта' });
      await form.waitFor();
      await form.getByText(`Диспетчер оспорил отчёт: «${REASON}»`, { exact: false }).waitFor();
      if (shots) await page.screenshot({ path: `${shots}/dispute-correction-360.png` });
      await form.getByLabel(/^Количество/).fill('20,9');
      await form.getByRole('button', { name: 'Сохранить' }).click();
      await page.getByText('Отчёт исправлен').waitFor();
      // Answered: it leaves the home screen and the bar's count.
      await disputes.waitFor({ state: 'detached' });
      await waitFor(async () => (await reportsEntry.locator('.drv-bar__count').count()) === 0, { message: 'the count drops the dispute' });
      expect(errors).toEqual([]);
    } finally {
      app.proxy.setDown(false);
      await context.close();
    }
  });

  it('reads the outbox at 360 px: each queued report as wide as the dialog', async () => {
    // The service worker holds the app's chunks, the panel's among them, as on the driver's phone.
    const { context, page, errors } = await phone({ serviceWorkers: 'allow' });
    try {
      const current = new CurrentTasksPage(page, app.url);
      await current.card(OUTBOX_CARGO).waitFor();
      await waitForServiceWorker(page);
      app.proxy.setDown(true);
      for (const quantity of ['12', '14']) {
        const form = await current.openReport(OUTBOX_CARGO);
        if (shots && quantity === '12') await page.screenshot({ path: `${shots}/report-form-360.png` });
        await form.fill({ quantity, final: false });
        await form.submit();
      }
      const outbox = new OutboxView(page);
      await outbox.open();
      await waitFor(async () => (await outbox.items.count()) === 2, { message: 'two queued reports' });
      const content = (await outbox.panel.locator('.drv-drawer__content').boundingBox())!;
      for (const box of await Promise.all((await outbox.items.all()).map((item) => item.boundingBox()))) {
        // The list fills the dialog's content (its 16 px padding aside), not a quarter of the bar.
        expect(box!.width).toBeGreaterThan(content.width - 40);
        expect(box!.width).toBeGreaterThan(250);
      }
      if (shots) await page.screenshot({ path: `${shots}/outbox-360.png` });
      // Its confirmation, on top of it, is readable too.
      await outbox.items.first().getByRole('button', { name: 'Удалить' }).click();
      const confirm = page.getByRole('dialog', { name: 'Удалить отчёт из очереди?' });
      await confirm.waitFor();
      expect((await confirm.boundingBox())!.width).toBeGreaterThan(280);
      if (shots) await page.screenshot({ path: `${shots}/outbox-confirm-360.png` });
      await confirm.getByRole('button', { name: 'Удалить' }).click();
      await waitFor(async () => (await outbox.items.count()) === 1, { message: 'one left' });
      expect(errors).toEqual([]);
    } finally {
      app.proxy.setDown(false);
      await context.close();
    }
  });

  it('is told «Отчёт отправлен» when a report went, and why it waits when it cannot go — then that it went', async () => {
    const { context, page, errors } = await phone();
    try {
      const current = new CurrentTasksPage(page, app.url);
      await current.card(FEEDBACK_CARGO).waitFor();
      // Online: it goes at once, and the toast says so — not «in the queue».
      let form = await current.openReport(FEEDBACK_CARGO);
      await form.fill({ quantity: '10', final: false });
      await form.submit();
      await waitFor(async () => (await form.submitToast().getAttribute('data-phase')) === 'sent', { message: 'the toast says sent' });
      expect(await form.submitToast().innerText()).toMatch(/^Отчёт отправлен\. Рейс записан; задача остаётся в текущих до последнего рейса\./);
      expect(await page.getByText('поставлен в очередь', { exact: false }).count()).toBe(0);

      // No network: kept on the phone, and the toast says why and when it goes.
      await context.setOffline(true);
      app.proxy.setDown(true);
      form = await current.openReport(FEEDBACK_CARGO);
      await form.fill({ quantity: '11', final: false });
      await form.submit();
      await waitFor(async () => (await form.submitToast().getAttribute('data-phase')) === 'queued', { message: 'the toast says queued' });
      expect(await form.submitToast().innerText()).toMatch(/^Нет сети\. Отчёт сохранён на телефоне и уйдёт сам, как только связь появится\./);
      if (shots) await page.screenshot({ path: `${shots}/report-queued-360.png` });
      // A short spell: back within seconds, and the driver is told it went.
      await context.setOffline(false);
      app.proxy.setDown(false);
      await page.getByText('Отчёт отправлен', { exact: true }).first().waitFor({ timeout: 30_000 });
      await expect.poll(() => new OutboxView(page).pending(), { timeout: 15_000 }).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      app.proxy.setDown(false);
      await context.close();
    }
  });
});
