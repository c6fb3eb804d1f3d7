/** Real Chromium for the end-to-end suite (Debian's /usr/bin/chromium through playwright-core). */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

export type EngineMode = 'shared' | 'dedicated';

export interface ContextOptions {
  /**
   * 'block' keeps the service worker out: installing it precaches the whole app shell in every fresh
   * context, which tests that are not about the PWA need not pay for.
   */
  serviceWorkers?: 'allow' | 'block';
}

/** A fresh context; in 'dedicated' mode the page sees no SharedWorker, as on older Android browsers. */
export async function newContext(
  browser: Browser,
  mode: EngineMode = 'shared',
  width = 1440,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 760 : 900 },
    locale: 'ru-RU',
    serviceWorkers: options.serviceWorkers ?? 'allow',
  });
  if (mode === 'dedicated') {
    await context.addInitScript(() => {
      // @ts-expect-error: deleting a global that the fallback path must cope without
      delete window.SharedWorker;
    });
  }
  return context;
}

/** Collects uncaught page errors so a test can assert there were none. */
export function trackErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}
