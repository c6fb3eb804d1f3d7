/** /support: for a super-admin, the client error log, newest first. */
import type { Locator, Page } from 'playwright-core';

export class SupportPage {
  readonly title: Locator;
  readonly entries: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Поддержка' });
    this.entries = page.locator('main .error-log-item');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/support`);
    await this.title.waitFor();
    return this;
  }

  /** The log entry whose message contains `text`. */
  entry(text: string): Locator {
    return this.entries.filter({ has: this.page.locator('.error-log-message', { hasText: text }) });
  }
}
