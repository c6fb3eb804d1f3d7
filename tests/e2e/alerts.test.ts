/**
 * Alerts to the dispatcher in Chromium (docs/alerts.md): a manager with two console tabs; a driver takes a task and
 * files a report (through the API, as his phone would). Each alert is a toast in ONE tab — the one the manager last
 * worked in — never in both, and raises the counter beside its menu entry in both; the toast opens its screen.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { call, login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { Shell } from './pages/shell.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

describe('alerts to the dispatcher', () => {
  it('one toast in the tab last worked in, the counter in both; the toast opens the report', async () => {
    const manager = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
    const driver = (await login(app.server, DEMO.driver, DEMO_PASSWORD)).access_token;
    const date = dayFromToday(2);
    const created = await call<{ id: number }>(app.server, 'POST', '/api/tasks/', {
      token: manager,
      body: { date, cargo: 'Оповещение: песок', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 30 },
    });
    expect(created.status).toBe(201);
    const taskId = created.body.id;

    const desk = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const first = await signIn(desk, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(first);
    await first.goto(`${app.url}/tasks/manage`);
    const second = await desk.newPage();
    await second.goto(`${app.url}/payroll`);
    await new Shell(second).sidebar.waitFor();
    const toasts = (p: Page, text: RegExp) => p.locator('.Toastify').getByText(text);
    const dispatchCount = (p: Page) => new Shell(p).sidebar.getByLabel(/новых событий: \d+/);

    // The manager works in the first tab; the driver takes the task.
    await first.bringToFront();
    await first.locator('main h1').click();
    await waitFor(async () => (await first.evaluate(() => document.hasFocus())) === true, { message: 'the first tab in front' });
    const taken = await call(app.server, 'PUT', `/api/tasks/${taskId}/accept/`, { token: driver, body: {} });
    expect(taken.status).toBe(200);
    const takenText = new RegExp(`^Иван Петров взял задачу №${taskId} Оповещение: песок`);
    await toasts(first, takenText).waitFor();
    // Both tabs count it beside «Диспетчерская»: the second heard the alert, and showed no toast of its own.
    for (const p of [first, second]) await waitFor(async () => (await dispatchCount(p).allTextContents()).join() === '1', { message: 'the counter of new events' });
    expect(await toasts(second, takenText).count()).toBe(0);

    // Now the second tab is the one worked in: the report's toast is there only.
    await second.bringToFront();
    await second.locator('main h1').click();
    await waitFor(async () => (await second.evaluate(() => document.hasFocus())) === true, { message: 'the second tab in front' });
    const association = await app.server.db.kysely.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).executeTakeFirstOrThrow();
    const form = reportForm(
      { association_id: association.id, quantity: '24.5', total_loading_quantity: '25', loading_is_buyer: '1', unloading_is_buyer: '0', completed_at: new Date().toISOString() },
      [{ data: JPEG_8x6, filename: 'talon.jpg' }],
    );
    const { payload, headers } = await encodeForm(form);
    const report = await app.server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, authorization: `Bearer ${driver}`, 'idempotency-key': randomUUID() } });
    expect(report.statusCode).toBe(201);
    const reportId = (report.json() as { id: number }).id;
    const reportText = new RegExp(`^Иван Петров: новый отчёт — №${taskId} Оповещение: песок, 24,5 т`);
    await toasts(second, reportText).waitFor();
    // The first tab refetched its counters on the same feed (proof it heard), yet no toast there.
    await waitFor(async () => (await new Shell(first).sidebar.getByLabel(/ждут проверки/).count()) === 1, { message: 'the review counter' });
    expect(await toasts(first, reportText).count()).toBe(0);

    await toasts(second, reportText).click();
    await second.waitForURL(`${app.url}/reports/${reportId}`);
    expect(errors).toEqual([]);
    await desk.close();
  });
});
