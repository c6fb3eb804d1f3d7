/** The frame around every screen: offline banner, header (user, logout), sidebar, toasts. */
import type { Locator, Page } from 'playwright-core';

export class Shell {
  readonly banner: Locator;
  readonly header: Locator;
  readonly userName: Locator;
  readonly sidebar: Locator;
  readonly logoutButton: Locator;
  readonly pageTitle: Locator;

  constructor(private readonly page: Page) {
    this.banner = page.locator('.offline-banner');
    this.header = page.locator('header.header');
    this.userName = this.header.locator('.user-name');
    this.sidebar = page.getByRole('navigation', { name: 'Разделы' });
    this.logoutButton = this.header.getByRole('button', { name: 'Выйти' });
    this.pageTitle = page.locator('h1#page-title, main h1').first();
  }

  /** The labels of the sidebar's links, in order (closed drawers keep them in the DOM). */
  sidebarLabels(): Promise<string[]> {
    return this.sidebar.locator('a').allTextContents();
  }

  bannerText(): Promise<string | null> {
    return this.banner.count().then((n) => (n === 0 ? null : this.banner.first().textContent()));
  }

  toast(text: string): Locator {
    return this.page.locator('.Toastify').getByText(text, { exact: true });
  }

  /** Logs out through the header, accepting the confirmation the app asks for. */
  async logout(): Promise<void> {
    this.page.once('dialog', (dialog) => void dialog.accept());
    await this.logoutButton.click();
  }

  path(): string {
    return new URL(this.page.url()).pathname;
  }
}
