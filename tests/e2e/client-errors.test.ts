/**
 * Uncaught client errors (docs/product.md §7 and §8): an error thrown in a tab, and a rejection nobody handles,
 * reach POST /api/log-client-error through the engine, and a super-admin reads them back from GET
 * /api/client-errors/ and on /support; nobody else may.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import type { ClientErrorEntry, Page as ListPage } from '../../contract/entities.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext } from './harness/browser.ts';
import { engineConnected, engineGet } from './harness/engine.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { SupportPage } from './pages/support-page.ts';

const LOG = /^\/api\/log-client-error$/;

describe('client errors', () => {
  let app: E2eApp;
  let context: BrowserContext;

  beforeAll(async () => {
    app = await startE2eApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await context.close();
  });

  it('an uncaught error and an unhandled rejection in a tab reach the server; a super-admin reads them', async () => {
    const thrown = `e2e uncaught ${randomUUID()}`;
    const rejected = `e2e rejection ${randomUUID()}`;
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await waitFor(() => engineConnected(page), { message: 'engine connected' });
    const posted = app.proxy.count('POST', LOG);

    await page.evaluate((message) => {
      setTimeout(() => {
        throw new Error(message);
      }, 0);
    }, thrown);
    await waitFor(() => app.proxy.count('POST', LOG) === posted + 1, { message: 'the thrown error is posted' });
    await page.evaluate((message) => {
      void Promise.reject(new Error(message));
    }, rejected);
    await waitFor(() => app.proxy.count('POST', LOG) === posted + 2, { message: 'the rejection is posted' });
    await waitFor(() => app.proxy.requests.filter((r) => LOG.test(r.path)).every((r) => r.status === 201), {
      message: 'the server stored both (201)',
    });

    const admin = await signIn(context, app.url, DEMO.super, DEMO_PASSWORD);
    const listed = await engineGet<ListPage<ClientErrorEntry>>(admin, '/client-errors/');
    if (!listed.ok) throw new Error(`GET /client-errors/ failed: ${listed.message}`);
    const entries = listed.data.data.items;
    const fromThrow = entries.find((entry) => entry.message.includes(thrown));
    const fromReject = entries.find((entry) => entry.message.includes(rejected));
    expect(fromThrow?.url).toBe(`${app.url}/login`);
    expect(fromThrow?.user_agent).toMatch(/Chrome/);
    expect(fromThrow?.stack ?? '').toContain(thrown);
    expect(fromThrow?.device_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fromReject?.url).toBe(`${app.url}/login`);
    expect(fromReject?.stack ?? '').toContain(rejected);

    // And on the support screen, where a super-admin reads them.
    const support = await new SupportPage(admin, app.url).goto();
    await support.entry(thrown).waitFor();
    await support.entry(rejected).waitFor();
    expect(await support.entry(thrown).textContent()).toContain(`${app.url}/login`);
  });

  it('a manager may not read the client errors', async () => {
    const manager = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    const listed = await engineGet(manager, '/client-errors/');
    expect(listed.ok).toBe(false);
    expect(listed.ok ? null : listed.status).toBe(403);
  });
});
