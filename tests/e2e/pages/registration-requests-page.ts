/** /user-registration-requests: one card per pending request, each with 'Подтвердить регистрацию'. */
import type { Locator, Page } from 'playwright-core';

export class RegistrationRequestsPage {
  readonly title: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Заявки на регистрацию' });
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/user-registration-requests`);
    await this.title.waitFor();
    return this;
  }

  /** The card titled 'Заявка №{id} — {email}'. */
  card(email: string): Locator {
    return this.page.locator('article.request').filter({ has: this.page.getByRole('heading', { name: new RegExp(`— ${escape(email)}$`) }) });
  }

  /** The value shown for a label ('Имя', 'Госномер', …) in a card. */
  fact(card: Locator, label: string): Locator {
    return card.locator(`dt:text-is("${label}") + dd`);
  }

  /** Presses the card's button and accepts the confirmation. */
  async approve(email: string): Promise<void> {
    await this.card(email).getByRole('button', { name: 'Подтвердить регистрацию' }).click();
    await this.page.getByRole('dialog', { name: `Подтвердить регистрацию ${email}?` }).getByRole('button', { name: 'Подтвердить', exact: true }).click();
  }

  /** Presses the card's 'Отклонить', gives the reason and confirms; answers the dialog (gone once it worked). */
  async reject(email: string, reason: string): Promise<Locator> {
    await this.card(email).getByRole('button', { name: 'Отклонить' }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Отклонить заявку №\d+\?$/ });
    if (reason) await dialog.getByLabel('Причина').fill(reason);
    await dialog.getByRole('button', { name: 'Отклонить' }).click();
    return dialog;
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
