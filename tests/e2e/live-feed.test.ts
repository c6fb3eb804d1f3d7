/**
 * The live change feed end to end: one per browser. A manager's change shows in a driver's open
 * /current-tasks in another browser without a reload; ten tabs of one browser hold exactly one stream at the
 * wire in both engine modes; in fallback mode the stream moves to another tab when its holder closes, and the
 * tabs still hear changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, type EngineMode } from './harness/browser.ts';
import { engineConnected } from './harness/engine.ts';
import { sleep, waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { login } from '../fixtures/accounts.ts';

const EVENTS = /^\/api\/events\/?$/;

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

/** The demo driver's task with `cargo`, renamed by the demo manager through the API (another browser). */
async function renameTask(cargo: string, to: string): Promise<void> {
  const task = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', cargo).executeTakeFirstOrThrow();
  const { access_token } = await login(app.server, DEMO.manager, DEMO_PASSWORD);
  const res = await fetch(`${app.url}/api/tasks/${task.id}/`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cargo: to }),
  });
  expect(res.status).toBe(200);
}

const cargoShown = (page: Page, cargo: string) => page.getByRole('heading', { name: cargo, exact: true }).count();

describe.each(['shared', 'dedicated'] as EngineMode[])('the change feed (%s engine)', (mode) => {
  const before = mode === 'shared' ? 'Песок мытый' : 'Грунт растительный';
  const after = `${before} (изменено)`;

  it("a manager's change shows in the driver's open screen without a reload; ten tabs hold one stream", async () => {
    const context = await newContext(app.browser, mode, 390, { serviceWorkers: 'block' });
    try {
      const first = await signIn(context, app.url, DEMO.driver, DEMO_PASSWORD);
      await first.goto(`${app.url}/current-tasks`);
      await first.getByRole('heading', { name: before, exact: true }).waitFor();
      const tabs = [first];
      for (let i = 1; i < 10; i++) {
        const page = await context.newPage();
        await page.goto(`${app.url}/current-tasks`);
        await waitFor(() => engineConnected(page), { message: `tab ${i + 1} connected` });
        tabs.push(page);
      }
      await sleep(1_500);
      const streams = app.proxy.requests.filter((r) => EVENTS.test(r.path)).length;
      expect(app.proxy.openCount('GET', EVENTS)).toBe(1);

      await renameTask(before, after);
      // Every tab shows it by itself (the last tab as much as the first).
      for (const page of [tabs[0]!, tabs[9]!]) {
        await waitFor(async () => (await cargoShown(page, after)) === 1, { message: `${mode}: the renamed task shows`, timeout: 10_000 });
      }
      expect(app.proxy.requests.filter((r) => EVENTS.test(r.path)).length - streams).toBe(0);
      expect(streams).toBeGreaterThanOrEqual(1);

      if (mode === 'dedicated') {
        // The holder (the first tab's engine) closes: another engine takes the stream over and the tabs still hear.
        await tabs[0]!.close();
        await waitFor(() => app.proxy.requests.filter((r) => EVENTS.test(r.path)).length > streams, { message: 'a new holder opened the stream', timeout: 10_000 });
        await renameTask(after, before);
        await waitFor(async () => (await cargoShown(tabs[5]!, before)) === 1, { message: 'heard after the hand-over', timeout: 10_000 });
      } else {
        await renameTask(after, before);
      }
    } finally {
      await context.close();
    }
  });
  // The refetch ordering under a burst is the engine's own code, the same in both modes: measured once, in the shared
  // engine (the dedicated engine's hand-over of the stream is the test above).
  if (mode === 'shared') {
    it('100 renames in a row by another user: every one reaches the open screen, also with slow answers in flight', async () => {
      const cargo = 'Щебень гранитный 20–40';
      const driverTask = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', cargo).executeTakeFirstOrThrow();
      const context = await newContext(app.browser, mode, 1440, { serviceWorkers: 'block' });
      try {
        const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
        // The list searched by the task's number: it stays in it whatever its name becomes.
        await page.goto(`${app.url}/tasks/manage?search=${driverTask.id}`);
        await page.locator('main').getByText(cargo, { exact: true }).first().waitFor();
        await sleep(1_000);
        const { access_token } = await login(app.server, DEMO.admin, DEMO_PASSWORD);
        for (let i = 1; i <= 100; i++) {
          const name = `Поток ${mode} ${i}`;
          // Every fifth list request is held back: a refetch begun before a change answers after it.
          if (i % 5 === 0) app.proxy.delayNext('GET', /^\/api\/tasks\/completed\//, 300);
          const res = await fetch(`${app.url}/api/tasks/${driverTask.id}/`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ cargo: name }),
          });
          expect(res.status).toBe(200);
          // Playwright's own wait: it checks on every frame, where a 100 ms poll would add ~50 ms to each of the 100.
          await page
            .locator('main')
            .getByText(name, { exact: true })
            .first()
            .waitFor({ timeout: 10_000 })
            .catch((error: Error) => {
              throw new Error(`${mode}: rename ${i} not on screen: ${error.message}`);
            });
        }
      } finally {
        await context.close();
      }
    });
  }
});
