/**
 * The console's chain, end to end in Chromium against the real server: a manager creates a task with two drivers
 * → orders one driver's day → that driver sees the order in /current-tasks and files a report with two photos
 * → the manager opens /reports/{id} and sees both photos → exports, downloads, and the file (read with
 * exceljs here) has the same rows as the API → /table with the signed link shows them.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Page as TaskPage, Task } from '../../contract/entities.ts';
import { login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { associationFor, reportsOn } from './pages/driver-records.ts';
import { useDriverSuite } from './pages/driver-suite.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';
import { signIn } from './pages/login-page.ts';

const suite = useDriverSuite(2);
const MAIN = 'Цепочка: щебень';
const OTHER = 'Цепочка: песок';

describe('the dispatcher console, one chain', () => {
  it('create → order → driver report with photos → report view → export → /table', async () => {
    const { server, browser, url } = suite.app;
    const date = dayFromToday(45);
    const api = async (method: 'GET' | 'POST', path: string, payload?: object) => {
      const { access_token } = await login(server, DEMO.manager, DEMO_PASSWORD);
      return server.app.inject({ method, url: `/api${path}`, headers: { authorization: `Bearer ${access_token}` }, ...(payload ? { payload } : {}) });
    };
    const ivan = (await server.db.kysely.selectFrom('users').select('id').where('email', '=', DEMO.driver).executeTakeFirstOrThrow()).id;
    // Ivan already has a task that day: ordering needs two.
    expect((await api('POST', '/tasks/', { date, cargo: OTHER, loading_place: 'Карьер', unloading_place: 'Завод', planned_quantity: 30, driver_ids: [ivan] })).statusCode).toBe(201);

    const manager = await newContext(browser, 'shared', 1440, { serviceWorkers: 'block' });
    const page = await signIn(manager, url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);

    // 1. The task, with two drivers, through the form.
    await page.goto(`${url}/tasks/create`);
    const field = (name: string) => page.locator(`[name="${name}"]`);
    // Dates are typed as ДД.ММ.ГГГГ whatever the browser's language.
    await field('date').fill(date.split('-').reverse().join('.'));
    await field('cargo').fill(MAIN);
    await field('loading_place').fill('Карьер «Лесной»');
    await field('unloading_place').fill('ЖК «Северный»');
    await field('planned_quantity').fill('80');
    await field('rate').fill('460');
    for (const name of ['Иван Петров', 'Алексей Соколов']) {
      await page.getByLabel('Добавить водителя').fill(name);
      await page.getByRole('button', { name: new RegExp(name) }).click();
    }
    await page.getByRole('button', { name: 'Создать', exact: true }).click();
    await page.waitForURL(`${url}/tasks/manage`);
    const task = await server.db.kysely.selectFrom('tasks').selectAll().where('cargo', '=', MAIN).executeTakeFirstOrThrow();
    expect(await server.db.kysely.selectFrom('task_drivers').select('driver_id').where('task_id', '=', task.id).execute()).toHaveLength(2);

    // 2. Ivan's day: the new task goes first.
    await page.goto(`${url}/tasks/driverTaskOrder?driver=${ivan}&date=${date}`);
    const items = page.locator('.order-item strong');
    await waitFor(async () => (await items.allTextContents()).join('|') === [OTHER, MAIN].join('|'), { message: 'the day as created' });
    await page.getByRole('button', { name: `Выше: «${MAIN}»` }).click();
    await page.getByRole('button', { name: 'Сохранить порядок' }).click();
    await page.getByText(/Порядок задач на .* сохранён \(водитель: /).waitFor();

    // 3. Ivan sees that order and reports with two photos.
    const driver = await newContext(browser, 'shared', 390);
    const driverPage = await driver.newPage();
    await signInAsDriver(driverPage, url);
    const current = await new CurrentTasksPage(driverPage, url).goto();
    await current.card(MAIN).waitFor();
    const cards = await driverPage.locator('main ul.drv-grid > li h2, main ul.drv-grid > li h3').allTextContents();
    const chain = cards.filter((text) => text.startsWith('Цепочка'));
    expect(chain).toEqual([MAIN, OTHER]);
    const form = await current.openReport(MAIN);
    await form.fill({ quantity: '21,5' });
    await form.addPhotos(suite.photos);
    await form.submit();
    const association = await associationFor(server, MAIN);
    const stored = await waitFor(async () => {
      const reports = await reportsOn(server, association.id);
      return reports.length === 1 ? reports[0] : null;
    }, { message: 'the report reaches the server', timeout: 30_000 });
    expect(stored.photos).toHaveLength(2);
    await driver.close();

    // 4. The manager sees both photos.
    await page.goto(`${url}/reports/${stored.id}`);
    const images = page.locator('.gallery img');
    await waitFor(
      async () => (await images.count()) === 2 && images.evaluateAll((list) => list.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
      { message: 'both photos shown' },
    );

    // 5. Export the chain's tasks, download, and compare with the API.
    await page.goto(`${url}/tasks/manage?status=all&search=${encodeURIComponent('Цепочка')}`);
    await page.locator('table[aria-label="Задачи"] tbody tr[data-row]').first().waitFor();
    const downloading = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Выгрузить в Excel' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Задачи, всё время.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile(await download.path())) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const fileRows: string[] = [];
    // Columns found by their headers, so a column added to the export does not move what is compared.
    const headers = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
    const driverColumn = headers.indexOf('Водитель');
    expect(driverColumn).toBeGreaterThan(0);
    sheet.eachRow((row, n) => {
      // Every row but the header and the totals row («Итого» under «Груз»).
      if (n > 1 && row.getCell(3).value !== 'Итого') fileRows.push(`${String(row.getCell(1).value)}:${String(row.getCell(driverColumn).value ?? '')}`);
    });
    const list = (await (await api('GET', `/tasks/completed/?status=all&search=${encodeURIComponent('Цепочка')}`)).json()) as TaskPage<Task>;
    const apiRows = list.items.flatMap((t) => (t.driver_associations.length ? t.driver_associations.map((a) => `${t.id}:${a.driver_name ?? ''}`) : [`${t.id}:`]));
    expect(fileRows.sort()).toEqual(apiRows.sort());
    expect(fileRows).toHaveLength(3);

    // 6. The same file in /table through the signed link.
    const opening = manager.waitForEvent('page');
    await page.getByRole('button', { name: 'Открыть в таблице' }).click();
    const table = await opening;
    await table.waitForURL(/\/table\?file_id=\d+&token=/);
    await table.getByRole('table').waitFor();
    await waitFor(async () => (await table.getByRole('row').filter({ hasText: MAIN }).count()) === 2, { message: '/table shows both drivers\' rows' });
    // Full screen: none of the shell's header, sidebar or banner.
    expect(await table.locator('.header, .sidebar, .offline-banner').count()).toBe(0);
    if (process.env.E2E_SCREENSHOTS) await table.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/table-1440.png` });
    expect(errors).toEqual([]);
    await manager.close();
  });
});
