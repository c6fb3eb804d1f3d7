/**
 * End to end: the offline report with three tabs of the app open at once. One tab queues it with the
 * network cut and reloads; when the network returns every tab's engine wants to flush — one SharedWorker for
 * all, or a dedicated engine per tab that must take turns under the 'outbox-flush' Web Lock — and the server
 * still gets exactly one report, in one POST; every tab sees the outbox empty and the task gone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { OutboxView, waitForEngine } from './pages/driver-outbox.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { AvailableTasksPage, CurrentTasksPage } from './pages/driver-tasks.ts';

const REPORTS_POST = /^\/api\/reports\/?$/;
const CARGO: Record<EngineMode, string> = {
  shared: 'Щебень гранитный 5–20',
  dedicated: 'Щебень известняковый 20–40',
};

const suite = useDriverSuite(3);

describe.each(['shared', 'dedicated'] as const)('three tabs open (%s engine)', (mode) => {
  it('a report queued offline in one tab reaches the server exactly once when the network returns', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = CARGO[mode];
    const context = await newContext(browser, mode, 390);
    try {
      const pages: Page[] = [await context.newPage(), await context.newPage(), await context.newPage()];
      const errors = pages.map((page) => trackErrors(page));
      const first = pages[0]!;
      await signInAsDriver(first, url);
      await waitForServiceWorker(first);
      await (await new AvailableTasksPage(first, url).goto()).accept(cargo);
      const association = await associationFor(server, cargo);

      const screens = pages.map((page) => new CurrentTasksPage(page, url));
      for (const screen of screens) {
        await screen.goto();
        await screen.card(cargo).waitFor();
      }
      const outboxes = pages.map((page) => new OutboxView(page));
      const postsBefore = proxy.count('POST', REPORTS_POST);

      proxy.setDown(true);
      await context.setOffline(true);
      const form = await screens[0]!.openReport(cargo);
      await form.fill({ quantity: '12' });
      await form.addPhotos(suite.photos);
      await form.submit();
      // Every tab learns of it: the same engine, or the other engines re-read the queue when told.
      for (const outbox of outboxes) await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(1);

      await first.reload();
      await screens[0]!.title.waitFor();
      await waitForEngine(first);
      await expect.poll(() => outboxes[0]!.pending(), { timeout: 10_000 }).toBe(1);
      expect(await reportsOn(server, association.id)).toEqual([]);

      proxy.setDown(false);
      await context.setOffline(false);

      await expect.poll(() => reportsOn(server, association.id), { timeout: 30_000, interval: 250 }).toHaveLength(1);
      for (const [i, outbox] of outboxes.entries()) {
        await expect.poll(() => outbox.pending(), { timeout: 30_000 }).toBe(0);
        await outbox.open();
        await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
        await outbox.close();
        await screens[i]!.card(cargo).waitFor({ state: 'detached', timeout: 30_000 });
      }
      const reports = await reportsOn(server, association.id);
      expect(reports).toHaveLength(1);
      expect(reports[0]!.photos.map((p) => [p.type, p.width, p.height])).toEqual([
        ['jpg', 1024, 768],
        ['jpg', 1024, 768],
        ['jpg', 1024, 768],
      ]);
      // One flush at a time across the engines: the tabs that waited found the item sent, and sent nothing.
      expect(proxy.count('POST', REPORTS_POST) - postsBefore).toBe(1);
      expect(await associationStatus(server, association.id)).toBe('completed');
      expect(errors.flat()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

