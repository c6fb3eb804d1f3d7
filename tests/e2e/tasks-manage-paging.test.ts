/**
 * /tasks/manage beyond tasks-manage.test.ts: paging by 50, sort, dates and tab in the URL through a reload,
 * "/" focusing the search, "load everything" matching the total, a super-admin's company filter, the delete
 * confirmation naming the task, and cards without horizontal scroll at 360 px.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
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

class TaskList {
  readonly rows;
  readonly pager;
  readonly search;
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {
    this.rows = page.locator('table[aria-label="Задачи"] tbody tr[data-row]');
    this.pager = page.locator('.pager');
    this.search = page.getByRole('searchbox');
  }

  async goto(query = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/tasks/manage${query}`);
    await this.page.locator('table[aria-label="Задачи"], .console-cards, .console-empty').first().waitFor();
    return this;
  }
  params(): URLSearchParams {
    return new URL(this.page.url()).searchParams;
  }
  async waitForPager(text: string): Promise<void> {
    await waitFor(async () => (await textNow(this.pager.locator('span'))) === text, { message: `pager shows ${text}` });
  }
  cargo(): Promise<string[]> {
    return this.rows.locator('.task-cargo').allTextContents();
  }
}

describe('task list: paging, URL state, load-all, company, phone', () => {
  let app: E2eApp;
  let companyId: number;

  beforeAll(async () => {
    app = await startE2eApp();
    const manager = await app.server.db.kysely.selectFrom('users').select('company_id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
    companyId = manager.company_id as number;
    // 55 tasks only the search finds: 1–28 completed in November, 29–40 completed and 41–55 open in October.
    for (let i = 1; i <= 55; i += 1) {
      await createTask(app.server, companyId, {
        cargo: `${MARK} ${String(i).padStart(2, '0')}`,
        date: `2026-${i <= 28 ? '11' : '10'}-${String(((i - 1) % 28) + 1).padStart(2, '0')}`,
        status: i <= 40 ? 'completed' : 'open',
      });
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it('pages by 50 and keeps sort, dates and tab in the URL across a reload', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      const list = await new TaskList(page, app.url).goto();
      await screenshot(page, 'tasks-manage-1440');

      // "/" focuses the search from anywhere on the page.
      await page.locator('h1').click();
      await page.keyboard.press('/');
      await waitFor(() => list.search.evaluate((el) => el === document.activeElement), { message: '"/" focuses the search' });
      await page.keyboard.type(MARK);
      await waitFor(() => list.params().get('search') === MARK, { message: 'search in the URL' });
      await list.waitForPager('1–50 из 55');
      expect((await list.cargo())[0]).toBe(`${MARK} 28`);
      expect(await list.rows.count()).toBe(50);

      await list.pager.getByRole('button', { name: 'Вперёд →' }).click();
      await list.waitForPager('51–55 из 55');
      expect(list.params().get('page')).toBe('1');
      // The pager moves with the click; the rows when the next page's answer comes (the previous page stays till then).
      await expect.poll(() => list.rows.count(), { timeout: 15_000 }).toBe(5);
      expect(await list.pager.getByRole('button', { name: 'Вперёд →' }).isDisabled()).toBe(true);

      // Sorting by cargo goes back to the first page, ascending.
      await page.locator('table[aria-label="Задачи"] thead').getByRole('button', { name: /^Груз/ }).click();
      await waitFor(() => list.params().get('ordering') === 'cargo', { message: 'ordering in the URL' });
      await waitFor(async () => (await list.cargo())[0] === `${MARK} 01`, { message: 'sorted by cargo' });
      await list.waitForPager('1–50 из 55');

      await page.getByLabel('С даты').fill('01.10.2026');
      await page.getByLabel('По дату').fill('31.10.2026');
      await waitFor(() => list.params().get('date_from') === '2026-10-01' && list.params().get('date_to') === '2026-10-31', {
        message: 'dates in the URL',
      });
      await list.waitForPager('1–27 из 27');

      const before = page.url();
      await page.reload();
      await list.waitForPager('1–27 из 27');
      expect(page.url()).toBe(before);
      expect(await list.search.inputValue()).toBe(MARK);
      expect(await page.getByLabel('С даты').inputValue()).toBe('01.10.2026');
      expect((await list.cargo())[0]).toBe(`${MARK} 29`);

      // «Выполненные»: only the completed ones of the same dates (29–40).
      await page.getByRole('tab', { name: 'Выполненные' }).click();
      await waitFor(() => list.params().get('tab') === 'completed', { message: 'tab in the URL' });
      await list.waitForPager('1–12 из 12');

      // "Load everything" collects as many tasks as the list's total.
      await page.getByLabel('С даты').fill('');
      await page.getByLabel('По дату').fill('');
      await list.waitForPager('1–40 из 40');
      await list.pager.getByRole('button', { name: 'Загрузить всё по фильтру' }).click();
      await waitFor(async () => (await textNow(list.pager.locator('span'))) === 'Загружены все задачи по фильтру: 40', {
        message: 'everything loaded',
      });
      expect(await list.rows.count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('names the task in the delete confirmation, and a super-admin filters by company in the URL', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const list = await new TaskList(page, app.url).goto(`?search=${encodeURIComponent(`${MARK} 01`)}`);
      await list.waitForPager('1–1 из 1');
      await list.rows.first().getByRole('button', { name: /^Удалить задачу/ }).click();
      const dialog = page.getByRole('dialog', { name: `Удалить задачу «${MARK} 01» на 01.11.2026?` });
      await dialog.waitFor();
      await screenshot(page, 'tasks-manage-confirm-1440');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await list.rows.count()).toBe(1);
    } finally {
      await context.close();
    }

    const superContext = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      const page = await signIn(superContext, app.url, DEMO.super, DEMO_PASSWORD);
      const list = await new TaskList(page, app.url).goto(`?search=${encodeURIComponent(MARK)}`);
      const company = page.getByRole('combobox', { name: 'Компания' });
      await company.locator(`option[value="${companyId}"]`).waitFor({ state: 'attached' });
      await company.selectOption(String(companyId));
      await waitFor(() => list.params().get('company') === String(companyId), { message: 'company in the URL' });
      await list.waitForPager('1–50 из 55');
      const other = await app.server.db.kysely.selectFrom('companies').select('id').where('id', '<>', companyId).executeTakeFirstOrThrow();
      await company.selectOption(String(other.id));
      await page.getByText('Задач по этому фильтру нет.').waitFor();
      await page.reload();
      await page.getByText('Задач по этому фильтру нет.').waitFor();
      expect(await company.inputValue()).toBe(String(other.id));
      await screenshot(page, 'tasks-manage-super-empty-1440');
    } finally {
      await superContext.close();
    }
  });

  it('shows cards without horizontal scroll at 360 px', async () => {
    const context = await newContext(app.browser, 'shared', 360, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      await new TaskList(page, app.url).goto();
      await page.locator('.console-card').first().waitFor();
      expect(await page.locator('table.console-table').count()).toBe(0);
      await screenshot(page, 'tasks-manage-360');
      await page.locator('.console-card input[type=checkbox]').first().check();
      await page.getByRole('toolbar', { name: 'Действия с выбранными' }).waitFor();
      await screenshot(page, 'tasks-manage-bulk-360');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
    } finally {
      await context.close();
    }
  });
});
