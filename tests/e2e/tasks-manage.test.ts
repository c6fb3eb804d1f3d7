/**
 * /tasks/manage end to end (real Chromium, real server, the demo manager): filters, sort and page live in the
 * URL and survive a reload; paging by 50; "load everything" collects the whole filter; a bulk action where one
 * task was deleted meanwhile reports that task as refused with the server's reason, the others as done.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { TasksManagePage } from './pages/tasks-manage-page.ts';
import { textNow } from './pages/shell.ts';
import { createTask } from '../fixtures/tasks.ts';

const MARK = 'Пробный груз';
/** Set E2E_SCREENSHOTS to a folder to keep pictures of the list at 1440 and 360 px. */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

describe('task list (/tasks/manage)', () => {
  let app: E2eApp;
  let companyId: number;

  beforeAll(async () => {
    app = await startE2eApp();
    const manager = await app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    companyId = manager.company_id as number;
    // 55 tasks that only the search finds: 40 completed, 15 open, on distinct days of November 2026.
    for (let i = 1; i <= 55; i += 1) {
      const day = String(((i - 1) % 28) + 1).padStart(2, '0');
      await createTask(app.server, companyId, {
        cargo: `${MARK} ${String(i).padStart(2, '0')}`,
        date: `2026-${i <= 28 ? '11' : '10'}-${day}`,
        status: i <= 40 ? 'completed' : 'open',
      });
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps filters, sort and page in the URL across a reload, and pages by 50', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      const list = await new TasksManagePage(page, app.url).goto();
      await screenshot(page, 'tasks-manage-1440');

      // "/" focuses the search from anywhere on the page.
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('/');
      await waitFor(() => list.search.evaluate((el) => el === document.activeElement), { message: '"/" focuses the search' });
      await page.keyboard.type(MARK);
      await waitFor(() => list.params().get('search') === MARK, { message: 'search in the URL' });
      await list.waitForPager('1–50 из 55');
      expect(list.params().get('tab')).toBeNull();

      // Default order -date: the newest November task first.
      expect((await list.cargoColumn())[0]).toBe(`${MARK} 28`);
      expect(await list.table.locator('th[aria-sort="descending"]').textContent()).toMatch(/^Дата/);

      // Next page.
      await list.pager.getByRole('button', { name: 'Вперёд' }).click();
      await list.waitForPager('51–55 из 55');
      expect(list.params().get('page')).toBe('1');
      expect(await list.rows.count()).toBe(5);

      // Sort by cargo ascending (the header's button), which goes back to the first page.
      await list.table.getByRole('button', { name: /^Груз/ }).click();
      await waitFor(() => list.params().get('ordering') === 'cargo', { message: 'ordering in the URL' });
      await waitFor(async () => (await list.cargoColumn())[0] === `${MARK} 01`, { message: 'sorted by cargo' });
      await list.waitForPager('1–50 из 55');
      expect((await list.cargoColumn()).slice(0, 2)).toEqual([`${MARK} 01`, `${MARK} 02`]);

      // Status filter and the date range.
      await list.status.selectOption('open');
      await list.dateFrom.fill('2026-10-01');
      await waitFor(() => list.params().get('status') === 'open' && list.params().get('date_from') === '2026-10-01', {
        message: 'status and date in the URL',
      });
      await list.waitForPager('1–15 из 15');

      // A reload (or a copied link) shows the same thing.
      const before = page.url();
      await page.reload();
      await list.waitForPager('1–15 из 15');
      expect(page.url()).toBe(before);
      expect(await list.search.inputValue()).toBe(MARK);
      expect(await list.status.inputValue()).toBe('open');
      expect(await list.dateFrom.inputValue()).toBe('2026-10-01');
      expect((await list.cargoColumn())[0]).toBe(`${MARK} 41`);

      // «Выполненные»: status 'completed' whatever the status filter said.
      await list.tab('Выполненные').click();
      await waitFor(() => list.params().get('tab') === 'completed', { message: 'tab in the URL' });
      await list.waitForPager('1–40 из 40');
      expect(await list.status.count()).toBe(0);

      // Load everything for this filter: the bulk loader's count matches the list's total.
      await page.getByRole('button', { name: 'Загрузить всё по фильтру' }).click();
      await waitFor(async () => (await textNow(page.locator('.tasks-loaded span'))) === 'Загружено всё по фильтру: 40 задач.', {
        message: 'everything loaded',
      });
      await list.waitForPager('1–40 из 40');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a bulk status change where one task was deleted meanwhile reports that one as refused', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const list = await new TasksManagePage(page, app.url).goto(`?search=${encodeURIComponent(MARK)}&status=open&ordering=cargo`);
      await list.waitForPager('1–15 из 15');

      const names = [`${MARK} 41`, `${MARK} 42`, `${MARK} 43`];
      for (const name of names) await list.row(name).getByRole('checkbox').check();
      await waitFor(async () => (await textNow(list.bulkBar.locator('.bulk-bar__count'))) === 'Выбрано: 3', { message: '3 selected' });

      // Another dispatcher deletes one of them before this one acts.
      const gone = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', names[1] as string).executeTakeFirstOrThrow();
      await app.server.db.kysely.deleteFrom('tasks').where('id', '=', gone.id).execute();

      await list.bulkBar.getByRole('combobox').selectOption('completed');
      await list.bulkResults.waitFor();
      expect(await list.bulkResults.getAttribute('role')).toBe('alert');
      await screenshot(page, 'tasks-manage-bulk-refused-1440');
      expect(await list.bulkResults.locator('.bulk-results__summary').textContent()).toBe('Смена статуса на «Выполнена»: 2 выполнено, 1 отклонено');
      const refused = await list.bulkResults.locator('li').allTextContents();
      expect(refused).toHaveLength(1);
      expect(refused[0]).toMatch(new RegExp(`^${names[1]}, \\d{2}\\.10\\.2026 — отклонено: .+`));
      // No success toast claims the whole action.
      expect(await page.locator('.Toastify__toast--success').count()).toBe(0);

      // The server has the two done, and the list (status 'open') no longer shows them.
      const statuses = await app.server.db.kysely.selectFrom('tasks').select(['cargo', 'status']).where('cargo', 'in', names).orderBy('cargo').execute();
      expect(statuses).toEqual([
        { cargo: names[0], status: 'completed' },
        { cargo: names[2], status: 'completed' },
      ]);
      await list.waitForPager('1–12 из 12');
    } finally {
      await context.close();
    }
  });

  it('opens a row with Enter, names the task in the delete confirmation, filters by company for a super-admin, and shows cards on a phone', async () => {
    const desktop = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(desktop, app.url, DEMO.manager, DEMO_PASSWORD);
      const list = await new TasksManagePage(page, app.url).goto(`?search=${encodeURIComponent(`${MARK} 0`)}&tab=completed&ordering=cargo`);
      await list.waitForPager('1–9 из 9');
      const first = list.row(`${MARK} 01`);
      await first.getByRole('button', { name: 'Удалить' }).click();
      const dialog = page.getByRole('dialog', { name: `Удалить задачу «${MARK} 01» на 01.11.2026?` });
      await dialog.waitFor();
      await screenshot(page, 'tasks-manage-confirm-1440');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Arrow keys move between rows; Enter opens the task form in edit mode.
      await first.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const id = (await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', `${MARK} 02`).executeTakeFirstOrThrow()).id;
      await waitFor(() => page.url().endsWith(`/tasks/create?id=${id}`), { message: 'Enter opens the edit form' });
    } finally {
      await desktop.close();
    }

    // A super-admin filters by company; the filter is in the URL too.
    const superContext = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(superContext, app.url, DEMO.super, DEMO_PASSWORD);
      const list = await new TasksManagePage(page, app.url).goto(`?search=${encodeURIComponent(MARK)}`);
      const { n } = await app.server.db.kysely
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .where('cargo', 'like', `${MARK}%`)
        .executeTakeFirstOrThrow();
      const company = page.getByRole('combobox', { name: 'Компания' });
      await company.locator(`option[value="${companyId}"]`).waitFor({ state: 'attached' });
      await company.selectOption(String(companyId));
      await waitFor(() => list.params().get('company') === String(companyId), { message: 'company in the URL' });
      await list.waitForPager(`1–${Math.min(50, Number(n))} из ${Number(n)}`);
      const other = await app.server.db.kysely.selectFrom('companies').select('id').where('id', '<>', companyId).executeTakeFirstOrThrow();
      await company.selectOption(String(other.id));
      await page.getByText('Задач по этому фильтру нет.').waitFor();
      await screenshot(page, 'tasks-manage-super-empty-1440');
    } finally {
      await superContext.close();
    }

    const phone = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const page = await signIn(phone, app.url, DEMO.manager, DEMO_PASSWORD);
      const list = await new TasksManagePage(page, app.url).goto();
      await page.locator('.console-card').first().waitFor();
      expect(await page.locator('table.console-table').count()).toBe(0);
      await screenshot(page, 'tasks-manage-360');
      await page.locator('.console-card input[type=checkbox]').first().check();
      await list.bulkBar.waitFor();
      await screenshot(page, 'tasks-manage-bulk-360');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await new TasksManagePage(page, app.url).goto('?search=ничего-такого-нет');
      await page.getByText('Задач по этому фильтру нет.').waitFor();
      await screenshot(page, 'tasks-manage-empty-360');
    } finally {
      await phone.close();
    }
  });
});
