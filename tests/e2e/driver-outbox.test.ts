/**
 * End to end: a report made with the worker's network cut survives a reload in IndexedDB and, once
 * the network returns, reaches the server exactly once, with three compressed JPEGs; the association then
 * leaves /tasks/assigned/ and the outbox resolves the item. In both engine modes: one SharedWorker, and the
 * dedicated worker per tab of browsers without SharedWorker.
 */
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { CLUSTER } from './harness/app.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { OutboxView, waitForEngine } from './pages/driver-outbox.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { AvailableTasksPage, CurrentTasksPage } from './pages/driver-tasks.ts';

/** One open seed task per mode, so both modes run against one server. */
const CARGO: Record<EngineMode, string> = {
  shared: 'Щебень гранитный 5–20',
  dedicated: 'Щебень известняковый 20–40',
};

const suite = useDriverSuite(3);

// The two-instance run tests the servers: one engine mode is enough there.
describe.each(CLUSTER ? (['shared'] as const) : (['shared', 'dedicated'] as const))('a report queued offline (%s engine)', (mode) => {
  it('survives a reload and arrives exactly once with three JPEGs ≤ 1024 px when the network returns', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = CARGO[mode];
    const context = await newContext(browser, mode, 390);
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await signInAsDriver(page, url);
      await waitForServiceWorker(page);

      await (await new AvailableTasksPage(page, url).goto()).accept(cargo);
      const association = await associationFor(server, cargo);
      expect(association.status).toBe('accepted');

      const current = await new CurrentTasksPage(page, url).goto();
      await current.card(cargo).waitFor();
      proxy.setDown(true);
      await context.setOffline(true);

      const form = await current.openReport(cargo);
      await form.fill({ quantity: '18,5', totalUnloading: '120' });
      await form.addPhotos(suite.photos);
      await form.submit();

      const outbox = new OutboxView(page);
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(1);
      await current.card(cargo).getByText('Отметки или отчёты в очереди отправки').waitFor();

      // The network is still down: the shell comes from the service worker, the report from IndexedDB.
      await page.reload();
      await current.title.waitFor();
      await waitForEngine(page);
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(1);
      await outbox.open();
      expect(await outbox.itemTexts()).toEqual([expect.stringContaining('фото: 3')]);
      expect(await reportsOn(server, association.id)).toEqual([]);

      proxy.setDown(false);
      await context.setOffline(false);

      await expect.poll(() => reportsOn(server, association.id), { timeout: 30_000, interval: 250 }).toHaveLength(1);
      const [report] = await reportsOn(server, association.id);
      expect(report!.quantity).toBe(18.5);
      expect(report!.photos).toHaveLength(3);
      for (const photo of report!.photos) {
        expect(photo.type).toBe('jpg');
        expect(photo.width).toBeLessThanOrEqual(1024);
        // 4000×3000 shrunk to the width cap keeps its aspect.
        expect([photo.width, photo.height]).toEqual([1024, 768]);
      }
      expect(await associationStatus(server, association.id)).toBe('completed');

      // Resolved: the association left /tasks/assigned/, so the outbox deletes the sent item.
      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(0);
      await outbox.close();
      await current.card(cargo).waitFor({ state: 'detached' });
      expect(await reportsOn(server, association.id)).toHaveLength(1);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
