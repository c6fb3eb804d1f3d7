/** The frame around every screen: offline banner, header (user, logout), sidebar, toasts. */
import type { Locator, Page } from 'playwright-core';

/**
 * The first match's text now, or null when there is none. It never waits (a Locator's textContent waits
 * up to 30 s for an element), so checks polled by `waitFor` stay within their own time-out.
 */
export async function textNow(locator: Locator): Promise<string | null> {
  const texts = await locator.allTextContents();
  return texts[0] ?? null;
}

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
    // Exact: a driver's phone has «Разделы водителя», the bottom bar, instead.
    this.sidebar = page.getByRole('navigation', { name: 'Разделы', exact: true });
    this.logoutButton = this.header.getByRole('button', { name: 'Выйти' });
    this.pageTitle = page.locator('h1#page-title, main h1').first();
  }

  /** The labels of the sidebar's links, in order (closed drawers keep them in the DOM); a count badge is not text of the link. */
  sidebarLabels(): Promise<string[]> {
    return this.sidebar.locator('a').evaluateAll((links) =>
      links.map((link) => Array.from(link.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join('')),
    );
  }

  bannerText(): Promise<string | null> {
    return textNow(this.banner);
  }

  userNameText(): Promise<string | null> {
    return textNow(this.userName);
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator('.Toastify').getByText(text, { exact: true });
  }

  /** Logs out through the header, accepting the app's own confirmation dialog. */
  async logout(): Promise<void> {
    await this.logoutButton.click();
    await this.page.getByRole('dialog', { name: 'Выйти из аккаунта?' }).getByRole('button', { name: 'Выйти' }).click();
  }

  path(): string {
    return new URL(this.page.url()).pathname;
  }
}
