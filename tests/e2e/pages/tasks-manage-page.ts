/** Page model of /tasks/manage (the dispatcher's task list). */
import type { Locator, Page } from 'playwright-core';

export class TasksManagePage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  async goto(query = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/tasks/manage${query}`);
    await this.rows.first().waitFor();
    return this;
  }

  get search(): Locator {
    return this.page.getByRole('searchbox');
  }

  get rows(): Locator {
    return this.page.locator('table[aria-label="Задачи"] tbody tr[data-row]');
  }

  /** The row of the task with this id (its № cell). */
  row(taskId: number): Locator {
    return this.rows.filter({ has: this.page.locator('td.num', { hasText: new RegExp(`^${taskId}$`) }) });
  }

  async select(taskId: number): Promise<void> {
    await this.row(taskId).getByRole('checkbox', { name: 'Выбрать' }).check();
  }

  statusOf(taskId: number): Locator {
    return this.row(taskId).locator('.status-badge');
  }

  get bulkBar(): Locator {
    return this.page.getByRole('toolbar', { name: 'Действия с выбранными' });
  }

  get bulkResult(): Locator {
    return this.page.locator('.bulk-results');
  }

  async rowIds(): Promise<number[]> {
    const cells = await this.rows.locator('td.num').filter({ hasText: /^\d+$/ }).allTextContents();
    return cells.map(Number);
  }
}
