/** /tasks/manage: the staff task list (tabs, filter bar, table or cards, pager, bulk bar and results). */
import type { Locator, Page } from 'playwright-core';
import { waitFor } from '../harness/wait.ts';
import { textNow } from './shell.ts';

export class TasksManagePage {
  readonly search: Locator;
  readonly status: Locator;
  readonly dateFrom: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly pager: Locator;
  readonly bulkBar: Locator;
  readonly bulkResults: Locator;

  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {
    this.search = page.getByRole('searchbox', { name: 'Поиск по грузу и местам' });
    this.status = page.getByLabel('Статус', { exact: true });
    this.dateFrom = page.getByLabel('С даты');
    this.table = page.getByRole('table', { name: 'Управление задачами' });
    this.rows = page.locator('tbody .console-row');
    this.pager = page.getByRole('navigation', { name: 'Страницы' });
    this.bulkBar = page.getByRole('toolbar', { name: 'Действия с выбранными' });
    this.bulkResults = page.getByTestId('bulk-results');
  }

  async goto(query = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/tasks/manage${query}`);
    await this.pager.or(this.page.locator('.console-empty')).first().waitFor();
    return this;
  }

  params(): URLSearchParams {
    return new URL(this.page.url()).searchParams;
  }

  async pagerText(): Promise<string | null> {
    return textNow(this.pager.locator('span'));
  }

  /** Waits until the pager says `text` ('1–50 из 55'). */
  async waitForPager(text: string): Promise<void> {
    await waitFor(async () => (await this.pagerText()) === text, { message: `pager shows ${text}` });
  }

  row(cargo: string): Locator {
    return this.rows.filter({ hasText: cargo });
  }

  async cargoColumn(): Promise<string[]> {
    return this.rows.locator('td:nth-child(3) strong').allTextContents();
  }

  tab(name: 'Все задачи' | 'Выполненные'): Locator {
    return this.page.getByRole('tab', { name });
  }
}
