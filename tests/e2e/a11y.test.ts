/**
 * Every screen under axe-core (injected from its own package, `axe.source`) at 360 and 1440 px: the staff console as
 * an admin (every screen of the menu, a report, /dispatch with a card selected so its bar shows), the super-admin's
 * own screens, the driver's screens and the public ones. No violation of any impact anywhere (issue 30's goal).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';
import { NAV } from '../../src/app/nav.ts';
import type { Role } from '../../contract/roles.ts';
import { call, login } from '../fixtures/accounts.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [360, 1440] as const;
/** What a screen shows while its data comes: the states kit's loading line, a table's skeleton, a lazy chunk. */
const LOADING = '.state-loading, p.drv-state[role="status"], [aria-busy="true"]';

let app: E2eApp;
let reportId: number;
beforeAll(async () => {
  app = await startE2eApp();
  const token = (await login(app.server, DEMO.admin, DEMO_PASSWORD)).access_token;
  const reports = await call<{ items: { id: number }[] }>(app.server, 'GET', '/api/reports/?limit=1', { token });
  reportId = reports.body.items[0]!.id;
});
afterAll(async () => {
  await app?.close();
});

/** The menu's screens a role may open (a report by id stands in for /reports/:id). */
function screensOf(role: Role, only?: (roles: readonly Role[]) => boolean): string[] {
  return NAV.filter((e) => (e.roles as readonly Role[]).includes(role) && (only?.(e.roles) ?? true)).map((e) => e.path.replace(':id', String(reportId)));
}

/**
 * A client-side navigation (as a menu click makes), then the new screen's heading (the old one is marked first) and
 * no loading state for a moment.
 */
async function open(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    document.querySelector('h1')?.setAttribute('data-left', '');
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await settle(page, path);
}

async function settle(page: Page, path: string): Promise<void> {
  let quiet = 0;
  await waitFor(
    async () => {
      const ready = await page.evaluate((loading) => document.querySelector('h1:not([data-left])') !== null && document.querySelector(loading) === null, LOADING);
      quiet = ready ? quiet + 1 : 0;
      return quiet >= 3;
    },
    { message: `${path} loaded` },
  );
}

/** Runs axe on the page as it is; every violation, whatever its impact, one line each. */
async function audit(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, { resultTypes: ['violations'] }));
  return results.violations.map((v) => `${where}: ${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

async function auditScreens(context: BrowserContext, email: string | null, paths: string[], width: number): Promise<string[]> {
  const page = email ? await signIn(context, app.url, email, DEMO_PASSWORD) : await context.newPage();
  const found: string[] = [];
  for (const path of paths) {
    if (email) await open(page, path);
    else {
      await page.goto(`${app.url}${path}`);
      await settle(page, path);
    }
    found.push(...(await audit(page, `${path} @${width}`)));
  }
  return found;
}

describe.each(WIDTHS)('axe-core at %i px', (width) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('the public screens: no violation', async () => {
    const fresh = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      expect(await auditScreens(fresh, null, ['/login', '/register', '/table'], width)).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it("the admin's console, every screen, and the board with a card selected: no violation", async () => {
    const found = await auditScreens(context, DEMO.admin, screensOf('admin'), width);
    const page = context.pages().at(-1)!;
    await open(page, '/dispatch');
    await page.locator('.dispatch-board [data-task-id]').first().click();
    await page.getByRole('toolbar', { name: 'Выбранные задачи' }).waitFor();
    found.push(...(await audit(page, `/dispatch (a card selected) @${width}`)));
    expect(found).toEqual([]);
  });

  it("the super-admin's own screens: no violation", async () => {
    const own = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      expect(await auditScreens(own, DEMO.super, screensOf('super-admin', (roles) => !roles.includes('admin')), width)).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("the driver's screens: no violation", async () => {
    const phone = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      expect(await auditScreens(phone, DEMO.driver, screensOf('driver'), width)).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
