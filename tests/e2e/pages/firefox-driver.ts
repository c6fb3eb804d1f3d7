/**
 * The driver's screens in Firefox (puppeteer-core over WebDriver BiDi): sign-in, /current-tasks, the report form
 * and the outbox badge — the same steps as the Chromium page models (driver-session.ts, driver-tasks.ts,
 * driver-outbox.ts), in puppeteer's terms. Elements are found by their visible text with XPath, as a user finds
 * them; puppeteer's locators wait for them to be there and clickable.
 */
import type { ElementHandle, Locator, Page } from 'puppeteer-core';
import { DEMO, DEMO_PASSWORD } from '../harness/app.ts';
import { waitFor } from '../harness/wait.ts';
import { pendingInLabel } from './driver-outbox.ts';

/** An element found by XPath (no quotes inside `expression`'s literals: it goes into a CSS-like pseudo). */
function byXPath(page: Page, expression: string): Locator<Element> {
  return page.locator(`::-p-xpath(${expression})`);
}

const REPORT_DIALOG = `//*[self::dialog or @role='dialog'][.//h2[normalize-space()='Отчёт по рейсу']]`;

/** The card on /current-tasks with this cargo as its heading (any card when null). */
function taskCard(cargo: string | null): string {
  const which = cargo === null ? '' : `[.//*[self::h2 or self::h3][normalize-space()='${cargo}']]`;
  return `//main//ul[contains(@class,'drv-grid')]/li${which}`;
}

/** The text of every node the expression finds, in document order. */
function textsAt(page: Page, expression: string): Promise<string[]> {
  return page.evaluate((xpath: string) => {
    const found = document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    return Array.from({ length: found.snapshotLength }, (_, i) => found.snapshotItem(i)?.textContent ?? '');
  }, expression);
}

/** The heading of the screen, to know the app (not the browser's error page) is showing. */
export async function screenTitle(page: Page): Promise<string> {
  const heading = await page.locator('main h1').waitHandle();
  return (await heading.evaluate((h) => h.textContent ?? '')).trim();
}

export async function signInAsDriver(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name=username]').fill(DEMO.driver);
  await page.locator('input[name=password]').fill(DEMO_PASSWORD);
  await byXPath(page, `//button[@type='submit'][normalize-space()='Войти']`).click();
  // A driver lands on his tasks of the day (app/nav.ts `landingFor`).
  await page.waitForFunction(() => location.pathname === '/current-tasks');
  await waitForTaskCard(page, null);
}

/** Waits for a card on /current-tasks: the one with this cargo, or any when null. */
export async function waitForTaskCard(page: Page, cargo: string | null): Promise<void> {
  await byXPath(page, taskCard(cargo)).wait();
}

/** 'Внести рейс задним числом' on the card with this cargo; waits for the form. */
export async function openReport(page: Page, cargo: string): Promise<void> {
  await byXPath(page, `${taskCard(cargo)}//button[normalize-space()='Внести рейс задним числом']`).click();
  await byXPath(page, REPORT_DIALOG).wait();
}

/** The quantity, and «Последний рейс» ticked: these tasks are carried in one trip. */
export async function fillReport(page: Page, quantity: string): Promise<void> {
  await byXPath(page, `${REPORT_DIALOG}//label[.//span[starts-with(normalize-space(),'Количество')]]//input`).fill(quantity);
  await byXPath(page, `${REPORT_DIALOG}//label[.//strong[starts-with(normalize-space(),'Последний рейс')]]//input[@type='checkbox']`).click();
}

/** Attaches files through «Из галереи»; answers each new photo's caption once the engine has compressed them all. */
export async function attachPhotos(page: Page, paths: string[]): Promise<string[]> {
  const input = (await byXPath(page, `${REPORT_DIALOG}//label[contains(.,'Из галереи')]//input[@type='file']`).waitHandle()) as ElementHandle<HTMLInputElement>;
  await input.uploadFile(...paths);
  const captions = `${REPORT_DIALOG}//ul[@aria-label='Фото отчёта']/li//*[contains(@class,'drv-thumb__caption')]`;
  return waitFor(
    async () => {
      const texts = await textsAt(page, captions);
      return texts.length === paths.length && texts.every((text) => text !== 'сжатие...') ? texts : null;
    },
    { timeout: 30_000, message: 'every photo compressed (or given up)' },
  );
}

/** 'Отправить отчёт'; waits for the form to close (the report is then in the outbox or sent). */
export async function submitReport(page: Page): Promise<void> {
  await byXPath(page, `${REPORT_DIALOG}//button[normalize-space()='Отправить отчёт']`).click();
  await waitFor(async () => (await page.$(`xpath/${REPORT_DIALOG}`)) === null, { timeout: 30_000, message: 'the report form closed' });
}

/** The unsent count the outbox badge announces (driver-outbox.ts `pendingInLabel`). */
export async function outboxPending(page: Page): Promise<number> {
  const badge = await page.locator('button[aria-label*="Очередь отчётов:"]').waitHandle();
  return pendingInLabel((await badge.evaluate((button) => button.getAttribute('aria-label'))) ?? '');
}
