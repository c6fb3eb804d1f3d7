/**
 * The outbox as the driver sees it: its count ('Очередь отчётов: …' — the header badge on a desktop, «Отчёты» in the
 * bottom bar on a phone) and the 'Очередь отчётов' panel either opens.
 */
import type { Locator, Page } from 'playwright-core';

export class OutboxView {
  readonly badge: Locator;
  readonly panel: Locator;
  readonly items: Locator;

  constructor(private readonly page: Page) {
    this.badge = page.getByRole('button', { name: /(^|\. )Очередь отчётов:/ });
    this.panel = page.getByRole('dialog', { name: 'Очередь отчётов' });
    this.items = this.panel.locator('li.drv-outbox-item');
  }

  /** The unsent count the badge announces (its aria-label). */
  async pending(): Promise<number> {
    return pendingInLabel((await this.badge.getAttribute('aria-label')) ?? '');
  }

  /** Brings the tab to the front first (see driver-tasks.ts). */
  async open(): Promise<void> {
    await this.page.bringToFront();
    if (await this.panel.isVisible()) return;
    await this.badge.click();
    await this.panel.waitFor();
  }

  async close(): Promise<void> {
    if (!(await this.panel.isVisible())) return;
    await this.panel.getByRole('button', { name: 'Закрыть' }).first().click();
    await this.panel.waitFor({ state: 'detached' });
  }

  /** Each item's text as the panel shows it (title, photos and attempts, state). */
  itemTexts(): Promise<string[]> {
    return this.items.allInnerTexts();
  }

  /** 'попыток: N' of the only item, 0 when the panel shows none. */
  async attemptsShown(): Promise<number> {
    const texts = await this.itemTexts();
    if (texts.length !== 1) throw new Error(`expected one outbox item, saw ${texts.length}`);
    const match = /попыток: (\d+)/.exec(texts[0]!);
    return match ? Number(match[1]) : 0;
  }
}

/** The unsent count an outbox badge's aria-label announces (here and in the Firefox suite). */
export function pendingInLabel(label: string): number {
  if (label.includes('Очередь отчётов: всё отправлено')) return 0;
  const match = /не отправлено (\d+)(;|$)/.exec(label);
  if (!match) throw new Error(`unexpected outbox badge label: ${label}`);
  return Number(match[1]);
}

/** Resolves once this tab has connected to its engine. */
export async function waitForEngine(page: Page): Promise<void> {
  await page.waitForFunction(() => '__reisEngine' in window);
}
