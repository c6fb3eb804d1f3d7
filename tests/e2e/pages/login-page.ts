/** /login: e-mail, password, 'Войти'; the engine's message shows in an alert. */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { waitFor } from '../harness/wait.ts';
import { landingFor } from '../../../src/app/nav.ts';

export class LoginPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;
  /** 'Вы уже вошли как …': what /login shows a tab whose engine is signed in. */
  readonly alreadySignedIn: Locator;

  constructor(private readonly page: Page, private readonly baseUrl: string) {
    this.email = page.getByLabel('E-mail');
    this.password = page.getByLabel('Пароль');
    this.submit = page.getByRole('button', { name: 'Войти' });
    this.error = page.locator('.form-error');
    this.alreadySignedIn = page.getByText('Вы уже вошли как');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/login`);
    await this.email.waitFor();
    return this;
  }

  /** Fills the form and submits; does not wait for the outcome. */
  async submitAs(email: string, password: string): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Signs in and waits for the landing page (app/nav.ts `landingFor`: a driver's tasks, staff's board). */
  async loginAs(email: string, password: string): Promise<void> {
    await this.submitAs(email, password);
    await waitFor(() => LANDINGS.has(new URL(this.page.url()).pathname), { message: `${email} lands on their first screen` });
  }
}

const LANDINGS = new Set<string>((['driver', 'manager', 'admin', 'super-admin'] as const).map((role) => landingFor(role)));

/**
 * A new tab in `context`, signed in as `email` through the login screen, then on /profile (the suites start from
 * there; a client-side navigation, as a click in the sidebar would make, not a reload).
 */
export async function signIn(context: BrowserContext, baseUrl: string, email: string, password: string): Promise<Page> {
  const page = await context.newPage();
  const login = await new LoginPage(page, baseUrl).goto();
  await login.loginAs(email, password);
  await page.evaluate(() => {
    history.pushState(null, '', '/profile');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await waitFor(() => new URL(page.url()).pathname === '/profile', { message: `${email} on /profile` });
  return page;
}
