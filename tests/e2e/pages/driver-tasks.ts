/**
 * The driver's task screens: /available-tasks ('Взять' after a confirmation) and /current-tasks (a card per
 * accepted task, 'Внести рейс задним числом' opens the report form), and the report form itself. An action brings its tab to
 * the front first, as the driver would: a background tab gets no animation frames, and Playwright's clicks
 * wait for those.
 */
import type { Locator, Page } from 'playwright-core';

export interface PhotoFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export class AvailableTasksPage {
  readonly title: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Доступные задачи' });
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/available-tasks`);
    await this.title.waitFor();
    return this;
  }

  card(cargo: string): Locator {
    return this.page.locator('main li.drv-card').filter({ has: this.page.getByRole('heading', { name: cargo, exact: true }) });
  }

  /** Takes the task with this cargo: 'Взять', then 'Взять' again in the confirmation; waits for the toast. */
  async accept(cargo: string): Promise<void> {
    await this.page.bringToFront();
    await this.card(cargo).getByRole('button', { name: 'Взять' }).click();
    await this.page.getByRole('dialog', { name: 'Взять задачу?' }).getByRole('button', { name: 'Взять' }).click();
    await this.page.getByText('Задача добавлена в текущие').waitFor();
  }
}

export class CurrentTasksPage {
  readonly title: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Текущие задачи' });
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/current-tasks`);
    await this.title.waitFor();
    return this;
  }

  card(cargo: string): Locator {
    return this.page.locator('main ul.drv-grid > li').filter({ has: this.page.getByRole('heading', { name: cargo, exact: true }) });
  }

  async openReport(cargo: string): Promise<ReportForm> {
    await this.page.bringToFront();
    // Exact: the card's «Мои отчёты» toggle is a button too.
    await this.card(cargo).getByRole('button', { name: 'Внести рейс задним числом', exact: true }).click();
    const form = new ReportForm(this.page);
    await form.dialog.waitFor();
    return form;
  }
}

export class ReportForm {
  readonly dialog: Locator;

  constructor(private readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Отчёт по рейсу' });
  }

  /** `final` (default true: these tasks are carried in one trip) ticks «Последний рейс — завершить задачу». */
  async fill(fields: { quantity: string; totalLoading?: string; totalUnloading?: string; final?: boolean; ticket?: string }): Promise<void> {
    await this.dialog.getByLabel(/^Количество/).fill(fields.quantity);
    if (fields.ticket !== undefined) await this.dialog.getByLabel('Номер талона').fill(fields.ticket);
    if (fields.final !== false) await this.dialog.getByRole('checkbox', { name: /Последний рейс/ }).check();
    if (fields.totalLoading !== undefined) await this.fillTotal('Общее количество на погрузке', fields.totalLoading);
    if (fields.totalUnloading !== undefined) await this.fillTotal('Общее количество на выгрузке', fields.totalUnloading);
  }

  /** A total is typed only after its 'покупатель' flag is ticked (the field is locked without it). */
  private async fillTotal(label: string, value: string): Promise<void> {
    const total = this.dialog.locator('.drv-total').filter({ hasText: label });
    await total.getByRole('checkbox', { name: 'покупатель' }).check();
    await total.getByLabel(label).fill(value);
  }

  /** Adds photos through the gallery input; waits until every preview is compressed by the engine. */
  async addPhotos(files: PhotoFile[]): Promise<void> {
    const gallery = this.dialog.locator('label', { hasText: 'Из галереи' }).locator('input[type=file]');
    await gallery.setInputFiles(files);
    const thumbs = this.dialog.getByRole('list', { name: 'Фото отчёта' }).getByRole('listitem');
    await thumbs.nth(files.length - 1).waitFor();
    await this.dialog.getByText('сжатие...').first().waitFor({ state: 'detached', timeout: 30_000 });
  }

  /** The toast that follows the report just filed (the newest: an earlier trip's may still be showing). */
  submitToast(): Locator {
    return this.page.locator('.drv-submit-toast').last();
  }

  /** 'Отправить отчёт': the report goes to the outbox; waits for its toast and for the form to close. */
  async submit(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Отправить отчёт' }).click();
    await this.submitToast().waitFor({ timeout: 30_000 });
    await this.dialog.waitFor({ state: 'detached' });
  }
}
