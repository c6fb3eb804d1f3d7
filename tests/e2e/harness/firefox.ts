/**
 * Firefox ESR for the e2e-firefox project: Debian's /usr/bin/firefox-esr driven by puppeteer-core over WebDriver
 * BiDi (Playwright drives only its own patched Firefox builds). The same server, demo seed and fault proxy as the
 * Chromium suite (`startE2eServer`); a fresh browser context per test is a fresh profile (its own storage,
 * service workers and HTTP cache).
 */
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { startE2eAppWith, type E2eServer } from './app.ts';
import type { EngineMode } from './browser.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface FirefoxApp extends E2eServer {
  browser: Browser;
}

export function launchFirefox(): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    // The app's texts and number formats are Russian; the engine and the UI read the browser's languages.
    extraPrefsFirefox: { 'intl.accept_languages': 'ru-RU, ru' },
  });
}

export function startFirefoxApp(): Promise<FirefoxApp> {
  return startE2eAppWith(launchFirefox);
}

export interface FirefoxTab {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page, for a test to assert there were none. */
  errors: string[];
}

/**
 * A tab in a fresh context at a phone's width; in 'dedicated' mode the page sees no SharedWorker (the engine's
 * fallback: one dedicated Worker per tab).
 */
export async function newFirefoxTab(browser: Browser, mode: EngineMode = 'shared', width = 390): Promise<FirefoxTab> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height: width < 600 ? 760 : 900 });
  if (mode === 'dedicated') {
    await page.evaluateOnNewDocument(() => {
      // @ts-expect-error: deleting a global that the fallback path must cope without
      delete window.SharedWorker;
    });
  }
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error instanceof Error ? error.message : String(error)));
  return { context, page, errors };
}

/** Waits until the service worker controls the tab (it precaches the whole shell first: up to a minute on CI). */
export async function waitForFirefoxServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, { timeout: 60_000 });
}
