/**
 * The payroll chain in Chromium on the demo data: an admin changes the scale from next month (this month's pay does
 * not move), approves the month's pending load from /payroll's warning, closes the month, downloads the sheet (read
 * with exceljs: its rows and total are the screen's), and the driver sees the closed month in his statistics.
 */
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { monthLabel, monthOf, monthRange, nextMonth, type PayrollMonth } from '../../contract/money.ts';
import { call, login } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext } from './harness/browser.ts';
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

const money = (n: number): string => `${new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 }).format(n)} ₽`.replace(/\u00a0/g, ' ');
const text = async (locator: { innerText(): Promise<string> }): Promise<string> => (await locator.innerText()).replace(/[\u00a0\u202f]/g, ' ');

describe('payroll', () => {
  let desk: BrowserContext;
  let phone: BrowserContext;
  beforeEach(async () => {
    desk = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    phone = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await desk.close();
    await phone.close();
  });

  it('scale from next month, the pending load approved, the month closed, the sheet as on screen, the driver sees it', async () => {
    const db = app.server.db.kysely;
    const pending = await db
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['r.id', 't.date', 't.company_id'])
      .where('r.review_status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const month = monthOf(pending.date);
    const token = (await login(app.server, DEMO.admin, DEMO_PASSWORD)).access_token;
    const api = async () => (await call<PayrollMonth>(app.server, 'GET', `/api/payroll/?month=${month}`, { token })).body;
    const before = await api();

    // 1. The scale's top band from the first day of next month.
    const admin = await signIn(desk, app.url, DEMO.admin, DEMO_PASSWORD);
    await admin.goto(`${app.url}/companies/manage`);
    const top = admin.locator('.ladder-step', { hasText: 'от 300 т и больше' }).first();
    await top.getByRole('button', { name: 'Изменить' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Ставка, ₽ за т').fill('540');
    const from = monthRange(nextMonth(monthOf(new Date().toISOString().slice(0, 10)))).start;
    const fromText = from.split('-').reverse().join('.');
    const date = dialog.getByLabel('Действует с');
    await date.fill(fromText);
    await date.blur();
    await dialog.getByText(`Изменение действует с ${fromText}`).waitFor();
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await new Shell(admin).toast('Полоса изменена').waitFor();
    await admin.getByText(`Версия с ${fromText} — начнёт действовать`).waitFor();
    expect((await api()).total_amount).toBe(before.total_amount);

    // 2. /payroll warns of the pending load; the link leads to it; approved, it counts.
    await admin.goto(`${app.url}/payroll?month=${month}`);
    await admin.getByText(/1 отчёт на 29,8 т ждёт проверки/).waitFor();
    await admin.getByRole('link', { name: 'Перейти к проверке' }).click();
    const row = admin.getByRole('row', { name: /Песок карьерный/ });
    await row.getByRole('button', { name: 'Подтвердить' }).click();
    await new Shell(admin).toast(`Отчёт №${pending.id} подтверждён`).waitFor();
    await admin.goto(`${app.url}/payroll?month=${month}`);
    const after = await api();
    expect(after.pending.loads).toBe(0);
    expect(after.total_amount).toBeGreaterThan(before.total_amount);
    await admin.locator('.salary-total').getByText(money(after.total_amount)).waitFor();

    // 3. Closed: stored, said so.
    await admin.getByRole('button', { name: 'Закрыть месяц' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Закрыть месяц' }).click();
    const label = monthLabel(month);
    await new Shell(admin).toast(`${label.charAt(0).toUpperCase()}${label.slice(1)} закрыт`).waitFor();
    await admin.getByText(/^Месяц закрыт/).waitFor();
    expect((await api()).status).toBe('closed');

    // 4. The sheet: one row per driver as the table shows, the total as «К выплате».
    const downloading = admin.waitForEvent('download', { timeout: 30_000 });
    await admin.getByRole('button', { name: 'Скачать ведомость (xlsx)' }).click();
    const download = await downloading;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Ведомость') as ExcelJS.Worksheet;
    const screenRows = admin.locator('table[aria-label="Водители за месяц"] tbody tr[data-row]');
    await waitFor(async () => (await screenRows.count()) === after.drivers.length, { message: 'the drivers table' });
    for (let i = 0; i < after.drivers.length; i++) {
      const cells = sheet.getRow(i + 2);
      const screen = await text(screenRows.nth(i));
      expect(screen).toContain(String(cells.getCell(2).value));
      expect(screen).toContain(money(Number(cells.getCell(7).value)));
    }
    const total = sheet.getRow(after.drivers.length + 2).getCell(7).value as { result: number };
    expect(await text(admin.locator('.salary-total'))).toBe(money(total.result));
    // A driver's row opens his loads, read as the close stored them.
    const first = after.drivers[0];
    await screenRows.first().click();
    const loadsOf = admin.locator('section[aria-labelledby="payroll-loads"]', { hasText: `Рейсы: ${first?.driver_name ?? ''}` }).locator('.payroll-loads li');
    await waitFor(async () => (await loadsOf.count()) === (first?.loads ?? -1), { message: "the driver's loads" });

    // 5. The driver sees the closed month.
    const driver = await signIn(phone, app.url, DEMO.driver, DEMO_PASSWORD);
    await driver.goto(`${app.url}/statistics`);
    const closed = driver.locator('section', { hasText: 'Закрытые месяцы' }).locator('.drv-wage', { hasText: label }).first();
    await closed.waitFor();
    const mine = after.drivers.find((d) => d.driver_name === 'Иван Петров');
    expect(await text(closed)).toContain(money(mine?.total_amount ?? -1));
    await closed.getByRole('button', { name: 'Показать начисления' }).click();
    const lines = closed.getByRole('list', { name: `Начисления за ${label}` }).locator('.drv-wage');
    await waitFor(async () => (await lines.count()) >= (mine?.loads ?? 1), { message: "the month's lines" });
  });

  it('approve-clean from /payroll’s warning, then back: the screen and the close dialog show the new figures at once', async () => {
    // Three clean loads waiting in a month of their own (June: no demo data), 75 т in all.
    const db = app.server.db.kysely;
    const driver = await db.selectFrom('users').select(['id', 'company_id']).where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
    const task = await createTask(app.server, driver.company_id as number, { date: '2026-06-10', cargo: 'Щебень (проверка расчёта)', rate: 600 });
    const association = await addDriver(app.server, task, driver.id, { transport_rate: 400 });
    for (const quantity of [25, 25, 25]) await addLoad(app.server, association, quantity, { review: 'pending' });
    const token = (await login(app.server, DEMO.admin, DEMO_PASSWORD)).access_token;
    const api = async () => (await call<PayrollMonth>(app.server, 'GET', '/api/payroll/?month=2026-06', { token })).body;
    const before = await api();

    const admin = await signIn(desk, app.url, DEMO.admin, DEMO_PASSWORD);
    await admin.goto(`${app.url}/payroll?month=2026-06`);
    await admin.getByText(/3 отчёта на 75 т ждут проверки/).waitFor();
    await admin.locator('.salary-total').getByText(money(before.total_amount)).waitFor();
    // In the app, no reload: the review queue, approve-clean, and back.
    await admin.getByRole('link', { name: 'Перейти к проверке' }).click();
    await admin.getByRole('button', { name: /Подтвердить все без замечаний/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Подтвердить' }).click();
    await new Shell(admin).toast('Подтверждено отчётов: 3').waitFor();
    await admin.goBack();
    const after = await api();
    expect(Math.round((after.total_amount - before.total_amount) * 100)).toBe(75 * 400 * 100);
    // Fresh at once: the new total, no warning — not the 30 s old answer.
    await admin.locator('.salary-total').getByText(money(after.total_amount)).waitFor();
    expect(await admin.getByText(/(ждёт|ждут) проверки/).count()).toBe(0);
    // The close dialog repeats the same figures, and the close goes through with them.
    await admin.getByRole('button', { name: 'Закрыть месяц' }).click();
    const dialog = admin.getByRole('dialog');
    expect(await text(dialog)).toContain(`К выплате ${money(after.total_amount)}`);
    await dialog.getByRole('button', { name: 'Закрыть месяц' }).click();
    await new Shell(admin).toast('Июнь 2026 закрыт').waitFor();
    expect((await api()).total_amount).toBe(after.total_amount);
  });
  it('a close runs as a job: another admin’s close under way is shown and no second offered; moved figures fail it, named, the month left open', async () => {
    // May 2026: no demo data; one load waiting.
    const db = app.server.db.kysely;
    const driver = await db.selectFrom('users').select(['id', 'company_id']).where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
    const company = driver.company_id as number;
    const task = await createTask(app.server, company, { date: '2026-05-12', cargo: 'Песок (закрытие задачей)', rate: 600 });
    const pending = await addLoad(app.server, await addDriver(app.server, task, driver.id, { transport_rate: 400 }), 20, { review: 'pending' });
    const token = (await login(app.server, DEMO.admin, DEMO_PASSWORD)).access_token;
    const other = await db.selectFrom('users').select(['id', 'name']).where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    const running = await db
      .insertInto('payroll_closes')
      .values({ company_id: company, month: '2026-05', status: 'running', confirmed: '{}', user_id: other.id, started_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();

    const admin = await signIn(desk, app.url, DEMO.admin, DEMO_PASSWORD);
    await admin.goto(`${app.url}/payroll?month=2026-05`);
    await admin.getByRole('status').filter({ hasText: `Месяц закрывается: сохраняем рейсы и суммы` }).filter({ hasText: other.name }).waitFor();
    expect(await admin.getByRole('button', { name: 'Закрываем…' }).isDisabled()).toBe(true);
    // That close ends (failed, as a dead process's would): the screen reads the month again by itself.
    await db.updateTable('payroll_closes').set({ status: 'failed', finished_at: new Date().toISOString(), error: 'прервано', error_status: 500 }).where('id', '=', Number(running.id)).execute();
    await admin.getByText('Месяц открыт: цифры меняются, пока рейсы принимают и правят.').waitFor();

    // The admin confirms the figures on screen; the load is approved before the close runs: it fails, saying what moved.
    await admin.getByRole('button', { name: 'Закрыть месяц' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.waitFor();
    expect((await call(app.server, 'POST', `/api/reports/${pending}/review`, { token, body: { action: 'approve' } })).status).toBe(200);
    await dialog.getByRole('button', { name: 'Закрыть месяц' }).click();
    await new Shell(admin).toast(/^Данные месяца изменились: к выплате: 8\s000\s₽ вместо 0\s₽, принято отчётов: 1 вместо 0/).waitFor();
    await admin.getByText('Месяц открыт: цифры меняются, пока рейсы принимают и правят.').waitFor();
    const month = (await call<PayrollMonth>(app.server, 'GET', '/api/payroll/?month=2026-05', { token })).body;
    expect(month).toMatchObject({ status: 'open', closing: null, total_amount: 8000 });
    // Closed again with the figures now on screen.
    await admin.locator('.salary-total').getByText(money(8000)).waitFor();
    await admin.getByRole('button', { name: 'Закрыть месяц' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Закрыть месяц' }).click();
    await new Shell(admin).toast('Май 2026 закрыт').waitFor();
    await admin.getByText(/^Месяц закрыт/).waitFor();
  });
});
