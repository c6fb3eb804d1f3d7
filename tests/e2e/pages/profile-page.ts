/** /profile: the user's facts, a driver's vehicles, and 'данные от HH:MM' when they came from the cache. */
import type { Locator, Page } from 'playwright-core';

export class ProfilePage {
  readonly title: Locator;
  readonly cacheNotes: Locator;
  readonly transports: Locator;
  readonly transportItems: Locator;
  readonly editButton: Locator;
  readonly makeCurrentButtons: Locator;
  readonly needsServerHints: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.title = page.getByRole('heading', { level: 1, name: 'Профиль' });
    this.cacheNotes = page.locator('main').getByText(/^данные от \d{2}:\d{2}$/);
    this.transports = page.getByRole('region', { name: 'Транспорт' });
    this.transportItems = this.transports.locator('li');
    this.editButton = page.getByRole('button', { name: 'Изменить имя и телефон' });
    this.makeCurrentButtons = this.transports.getByRole('button', { name: /^Сделать текущим/ });
    this.needsServerHints = page.locator('main .needs-server');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/profile`);
    await this.title.waitFor();
    return this;
  }

  fact(label: string): Locator {
    return this.page.locator(`main dl.facts dt:text-is("${label}") + dd`).first();
  }
}
