/**
 * The staff screens of a working day's end: /reports as a review queue (dispute one with its reason, approve the
 * clean ones at once) and /payroll (its total, the pending warning, closing the month through the dialog).
 */
import type { Locator, Page } from 'playwright-core';
import { Shell } from './shell.ts';

/** «150 382,50 ₽» → 15038250 (kopecks), as a user reads the figure. */
export function kopecksOf(text: string): number {
  const number = text.replace(/[\s\u00a0\u202f₽]/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d+)?$/.test(number)) throw new Error(`not a sum of money: «${text}»`);
  return Math.round(Number(number) * 100);
}

export class ReviewQueue {
  readonly table: Locator;

  constructor(private readonly page: Page) {
    this.table = page.getByRole('table');
  }

  row(reportId: number): Locator {
    return this.table.locator('tbody tr').filter({ hasText: `№${reportId}` });
  }

  /** «Оспорить» on the report's row, the reason typed in the dialog; waits for the toast. */
  async dispute(reportId: number, reason: string): Promise<void> {
    await this.row(reportId).getByRole('button', { name: 'Оспорить' }).click();
    const dialog = this.page.getByRole('dialog', { name: `Оспорить отчёт №${reportId}` });
    await dialog.getByLabel('Что не так').fill(reason);
    await dialog.getByRole('button', { name: 'Оспорить' }).click();
    await new Shell(this.page).toast(`Отчёт №${reportId} оспорен: водитель увидит причину`).waitFor();
  }

  /** «Подтвердить все без замечаний (n)», confirmed in its dialog; answers how many the toast says were approved. */
  async approveClean(): Promise<number> {
    await this.page.getByRole('button', { name: /^Подтвердить все без замечаний/ }).click();
    await this.page.getByRole('dialog').getByRole('button', { name: 'Подтвердить' }).click();
    const toast = this.page.locator('.Toastify').getByText(/^Подтверждено отчётов: \d+$/);
    await toast.waitFor();
    return Number(/\d+$/.exec((await toast.textContent()) ?? '')?.[0]);
  }
}

export class PayrollPage {
  readonly total: Locator;
  readonly pendingWarning: Locator;
  readonly toReview: Locator;

  constructor(private readonly page: Page) {
    this.total = page.locator('.salary-total');
    this.pendingWarning = page.getByText(/ждут проверки/);
    this.toReview = page.getByRole('link', { name: 'Перейти к проверке' });
  }

  /** The total «К выплате» on screen, in kopecks. */
  async totalKopecks(): Promise<number> {
    return kopecksOf(await this.total.innerText());
  }

  /** A driver's row in «Водители за месяц». */
  driverRow(name: string): Locator {
    return this.page.locator('table[aria-label="Водители за месяц"] tbody tr[data-row]').filter({ hasText: name });
  }

  /** «Закрыть месяц», then the dialog's text (what the admin confirms) and its «Закрыть месяц»; waits for the toast. */
  async closeMonth(monthTitle: string): Promise<string> {
    await this.page.getByRole('button', { name: 'Закрыть месяц' }).click();
    const dialog = this.page.getByRole('dialog');
    const said = (await dialog.innerText()).replace(/[\u00a0\u202f]/g, ' ');
    await dialog.getByRole('button', { name: 'Закрыть месяц' }).click();
    await new Shell(this.page).toast(`${monthTitle} закрыт`).waitFor();
    return said;
  }
}
