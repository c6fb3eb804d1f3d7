/** /current-tasks: the driver's accepted tasks, one card each, with the cache note when offline. */
import type { Locator, Page } from 'playwright-core';

export class CurrentTasksPage {
  readonly title: Locator;
  readonly cards: Locator;
  readonly cacheNote: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Текущие задачи' });
    this.cards = page.locator('main ul.drv-grid > li');
    this.cacheNote = page.locator('main .drv-cache-note');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/current-tasks`);
    await this.title.waitFor();
    return this;
  }
}
