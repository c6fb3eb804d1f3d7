/**
 * Signing the demo driver in through the real /login form, and the service worker that lets a reload work
 * with the network cut (the app shell comes from its precache).
 */
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD } from '../harness/app.ts';

export async function signInAsDriver(page: Page, baseUrl: string): Promise<void> {
  await page.bringToFront();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('E-mail').fill(DEMO.driver);
  await page.getByLabel('Пароль').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).click();
  // A driver lands on his tasks of the day (app/nav.ts `landingFor`).
  await page.waitForURL(`${baseUrl}/current-tasks`);
}
