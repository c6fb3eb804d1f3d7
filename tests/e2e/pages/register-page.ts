/** /register: the registration request form, with a company picker and a driver's vehicle. */
import type { Locator, Page } from 'playwright-core';

export interface Registration {
  email: string;
  password: string;
  name: string;
  phone: string;
  /** The company's name as the picker lists it. */
  company: string;
  role: 'driver' | 'manager';
  vehicle?: { number: string; brand: string; capacity: string };
}

export class RegisterPage {
  readonly success: Locator;
  readonly error: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.success = page.getByText(/^Заявка отправлена\. /);
    this.error = page.locator('.form-error');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/register`);
    await this.page.getByLabel('E-mail').waitFor();
    return this;
  }

  async register(form: Registration): Promise<void> {
    const page = this.page;
    await page.getByLabel('E-mail').fill(form.email);
    await page.getByLabel('Пароль').fill(form.password);
    await page.getByLabel('Имя').fill(form.name);
    await page.getByLabel('Телефон').fill(form.phone);
    // The options arrive from GET /companies/; selectOption waits for the one named.
    await page.getByLabel('Компания').selectOption({ label: form.company });
    await page.getByRole('radio', { name: form.role === 'driver' ? 'Водитель' : 'Менеджер' }).check();
    if (form.vehicle) {
      await page.getByLabel('Госномер').fill(form.vehicle.number);
      await page.getByLabel('Марка').fill(form.vehicle.brand);
      await page.getByLabel('Грузоподъёмность, т').fill(form.vehicle.capacity);
    }
    await page.getByRole('button', { name: 'Отправить заявку' }).click();
  }
}
