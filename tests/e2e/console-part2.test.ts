/**
 * Transfers, announcements and wages as chains in Chromium: a transfer from company A to company B accepted by
 * B, B's driver on it and reporting, A following the progress and both companies' figures showing it; an
 * announcement answered by a driver and confirmed by a manager; the rate ladder edited by an admin; a manager's
 * salary.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { Transfer } from '../../contract/transfers.ts';
import { call, login, makeUser, PASSWORD } from '../fixtures/accounts.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
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

describe('console part 2', () => {
  let a: BrowserContext;
  let b: BrowserContext;
  beforeEach(async () => {
    a = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    b = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });

  it('a transfer A → B: B accepts, B’s driver reports, A sees the progress, both companies’ figures show it', async () => {
    const db = app.server.db.kysely;
    const karpov = await db.selectFrom('companies').select('id').where('name', '=', 'ИП Карпов Логистика').executeTakeFirstOrThrow();
    const managerB = await makeUser(app.server, 'manager', karpov.id, { name: 'Ирина Карпова' });

    // Company A's manager hands 20 т of today's open task to company B.
    const pageA = await signIn(a, app.url, DEMO.manager, DEMO_PASSWORD);
    const errorsA = trackErrors(pageA);
    await pageA.goto(`${app.url}/carrier-transfers`);
    await pageA.getByRole('button', { name: 'Передать задачу' }).click();
    const dialog = pageA.getByRole('dialog');
    await dialog.getByLabel('Найти задачу').fill('Щебень гранитный 5–20');
    await waitFor(async () => (await dialog.getByLabel('Задача', { exact: true }).locator('option').count()) === 2, { message: 'one open task found' });
    await dialog.getByLabel('Задача', { exact: true }).selectOption({ index: 1 });
    await dialog.getByLabel('Кому передать').selectOption({ label: 'ИП Карпов Логистика' });
    await dialog.getByLabel(/^Количество/).fill('500');
    await dialog.getByRole('button', { name: 'Передать' }).click();
    // Too much is refused under the field, and the form keeps what was typed.
    await dialog.getByText(/больше, чем осталось передать/).waitFor();
    await dialog.getByLabel(/^Количество/).fill('20');
    await dialog.getByRole('button', { name: 'Передать' }).click();
    await new Shell(pageA).toast('Задача передана в «ИП Карпов Логистика»: ждём ответа').waitFor();
    const outgoing = pageA.getByRole('row', { name: /Щебень гранитный 5–20/ });
    await outgoing.getByText('Ожидает ответа').waitFor();

    // Company B accepts in its own console.
    const pageB = await signIn(b, app.url, managerB.email, PASSWORD);
    await pageB.goto(`${app.url}/carrier-transfers`);
    const incoming = pageB.getByRole('row', { name: /Щебень гранитный 5–20/ });
    await incoming.getByRole('button', { name: 'Принять' }).click();
    await pageB.getByRole('dialog').getByRole('button', { name: 'Принять' }).click();
    await new Shell(pageB).toast(/ждёт водителей$/).waitFor();
    await incoming.getByText('Принята').waitFor();

    // B puts its driver on its carrier task; the driver reports the 20 т (as the app's outbox would send it).
    const transfers = (await call<Transfer[]>(app.server, 'GET', `/api/transfers/?to_company_id=${karpov.id}&status=accepted`, { token: (await login(app.server, managerB.email)).access_token })).body;
    const transfer = transfers.find((t) => t.task.cargo === 'Щебень гранитный 5–20') as Transfer;
    const carrierTask = transfer.carrier_task_id as number;
    const driverB = await db.selectFrom('users').select('id').where('email', '=', 'karpov@demo.local').executeTakeFirstOrThrow();
    const tokenB = (await login(app.server, managerB.email)).access_token;
    expect((await call(app.server, 'PUT', `/api/tasks/${carrierTask}/drivers/${driverB.id}/`, { token: tokenB })).status).toBe(200);
    const association = await db.selectFrom('task_drivers').select('id').where('task_id', '=', carrierTask).executeTakeFirstOrThrow();
    const driverToken = (await login(app.server, 'karpov@demo.local', DEMO_PASSWORD)).access_token;
    const { payload, headers } = await encodeForm(reportForm({ association_id: association.id, quantity: '20', final: '1' }));
    const report = await app.server.app.inject({
      method: 'POST',
      url: '/api/reports/',
      payload,
      headers: { ...headers, authorization: `Bearer ${driverToken}`, 'idempotency-key': randomUUID() },
    });
    expect(report.statusCode).toBe(201);
    // B's manager approves the load: money figures count approved loads (WAGES.md).
    const reportId = (report.json() as { id: number }).id;
    expect((await call(app.server, 'POST', `/api/reports/${reportId}/review`, { token: tokenB, body: { action: 'approve' } })).status).toBe(200);

    // A follows it read-only.
    await pageA.goto(`${app.url}/carrier-transfers?tab=outgoing`);
    const done = pageA.getByRole('row', { name: /Щебень гранитный 5–20/ });
    await done.getByText(/20 из 20 т/).waitFor();
    await done.getByRole('button', { name: 'Ход выполнения' }).click();
    const progress = pageA.getByRole('dialog');
    await progress.getByText(/Николай Карпов — Выполнена, 20 т/).waitFor();
    await progress.getByText('Задачу ведёт получатель: здесь её можно только смотреть.').waitFor();
    await progress.getByRole('button', { name: 'Закрыть' }).click();

    // Both companies' figures for the month show it (the approved load).
    await pageA.goto(`${app.url}/statistics`);
    await pageA.getByRole('heading', { name: 'Передано другим компаниям' }).waitFor();
    await pageA.getByText(/в «ИП Карпов Логистика»: Щебень гранитный 5–20.*выполнено 20 т из 20 т/).waitFor();
    await pageB.goto(`${app.url}/statistics`);
    await pageB.getByRole('heading', { name: 'Выполнено для других компаний' }).waitFor();
    await pageB.getByText(/от «ООО «СеверТранс»»: Щебень гранитный 5–20.*выполнено 20 т из 20 т/).waitFor();
    await pageB.getByRole('row', { name: /Николай Карпов/ }).waitFor();
    expect(errorsA).toEqual([]);
  });

  it('an announcement answered by a driver and confirmed by a manager; the driver sees it confirmed', async () => {
    const manager = await signIn(a, app.url, DEMO.manager, DEMO_PASSWORD);
    await manager.goto(`${app.url}/announcements`);
    await manager.getByRole('button', { name: 'Новое объявление' }).click();
    const dialog = manager.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Опубликовать' }).click();
    await dialog.getByText('Укажите заголовок').waitFor();
    await dialog.getByLabel('Заголовок').fill('Ночная смена в среду');
    await dialog.getByLabel('Текст').fill('Нужны два водителя с 22:00. Ответьте, кто сможет.');
    await dialog.getByLabel('Требовать ответа от водителей').check();
    await dialog.getByRole('button', { name: 'Опубликовать' }).click();
    await new Shell(manager).toast('Объявление «Ночная смена в среду» опубликовано').waitFor();

    const driver = await signIn(b, app.url, DEMO.driver, DEMO_PASSWORD);
    const badge = new Shell(driver).sidebar.getByRole('link', { name: /Объявления/ }).locator('.nav-count');
    await waitFor(async () => Number((await badge.textContent()) ?? 0) >= 1, { message: 'the unread count in the menu' });
    await new Shell(driver).sidebar.getByRole('link', { name: /Объявления/ }).click();
    const card = driver.locator('.ann-card', { hasText: 'Ночная смена в среду' });
    await card.getByText('Новое').waitFor();
    await card.getByLabel('Ваш ответ').fill('Смогу, Петров');
    await card.getByRole('button', { name: 'Ответить' }).click();
    await card.getByText('На рассмотрении').waitFor();
    await waitFor(async () => !(await badge.isVisible()), { message: 'the unread count gone once read' });

    await manager.goto(`${app.url}/announcements?tab=responses`);
    const response = manager.locator('.ann-card', { hasText: 'Смогу, Петров' });
    await response.getByRole('button', { name: 'Подтвердить' }).click();
    await new Shell(manager).toast('Ответ подтверждён (водитель: Иван Петров)').waitFor();

    await driver.reload();
    await driver.locator('.ann-card', { hasText: 'Ночная смена в среду' }).getByText('Подтверждён').waitFor();
  });

  it('an admin moves a ladder boundary and is told why a middle band cannot go; the example follows; a manager sees their salary', async () => {
    const admin = await signIn(a, app.url, DEMO.admin, DEMO_PASSWORD);
    await admin.goto(`${app.url}/companies/manage`);
    const steps = admin.locator('.ladder-step');
    await waitFor(async () => (await steps.count()) === 3, { message: 'the demo ladder' });
    await steps.nth(0).getByRole('button', { name: 'Изменить' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('До, т').fill('150');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await new Shell(admin).toast('Полоса изменена').waitFor();
    await steps.nth(1).getByText('от 150 до 300 т').waitFor();
    await admin.getByLabel('Пример: объём за месяц, т').fill('120');
    await admin.getByText('За 120 т в месяц водитель получит 120 × 450 ₽/т = 54 000 ₽ (без заданий с собственной ставкой).').waitFor();
    await steps.nth(1).getByRole('button', { name: /Удалить/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Удалить' }).click();
    await new Shell(admin).toast(/^Полосу 150–300 т удалить нельзя: между 150 и 300 т нет полосы/).waitFor();
    expect(await steps.count()).toBe(3);

    const manager = await signIn(b, app.url, DEMO.manager, DEMO_PASSWORD);
    await manager.goto(`${app.url}/manager-salary`);
    await manager.getByText('15 ₽/т').waitFor();
    // All time, so the demo's finished work counts whatever today's date.
    await manager.getByRole('combobox', { name: 'Период' }).selectOption('all');
    await manager.getByRole('row', { name: /Щебень гранитный 5–20/ }).first().waitFor();
    expect(await manager.getByRole('button', { name: 'Изменить ставку' }).count()).toBe(0);
  });
});
