/**
 * End to end: the server answers 500 four times, then 201 → one report on the server, the attempts
 * counted in the outbox panel, five POSTs at the proxy, and each retry made by the engine itself exactly
 * 2^attempts s after the failure. The engine runs on a paused clock that the test moves (pages/driver-clock.ts:
 * Playwright's clock does not reach workers), so the 2+4+8+16 s of back-off take no real time.
 */
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { engineClock } from './pages/driver-clock.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { AvailableTasksPage, CurrentTasksPage } from './pages/driver-tasks.ts';

const REPORTS_POST = /^\/api\/reports\/?$/;
const FAILURES = 4;
const CARGO: Record<EngineMode, string> = {
  shared: 'ПГС (песчано-гравийная смесь)',
  dedicated: 'Асфальтобетонная смесь',
};

const suite = useDriverSuite(3);

describe.each(['shared', 'dedicated'] as const)('a report the server refuses four times (%s engine)', (mode) => {
  it('is retried after 2^attempts s, counted, and stored once on the fifth try', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = CARGO[mode];
    // No service worker: its flush on the 'sync' that queueing asks for runs on the real clock, which the
    // test cannot move; the paused engine clock lags it, so it found the failed item overdue and sent it again.
    const context = await newContext(browser, mode, 390, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await signInAsDriver(page, url);
      await (await new AvailableTasksPage(page, url).goto()).accept(cargo);
      const association = await associationFor(server, cargo);
      const postsBefore = proxy.count('POST', REPORTS_POST);
      const posts = () => proxy.count('POST', REPORTS_POST) - postsBefore;

      const current = await new CurrentTasksPage(page, url).goto();
      // After the last navigation: a dedicated engine lives and dies with its page.
      const clock = await engineClock(context, page, mode);
      const form = await current.openReport(cargo);
      await form.fill({ quantity: '7', totalLoading: '30' });
      await form.addPhotos(suite.photos);
      proxy.failNext('POST', REPORTS_POST, 500, FAILURES);
      await form.submit();

      const outbox = new OutboxView(page);
      await outbox.open();
      for (let attempts = 1; attempts <= FAILURES; attempts++) {
        await expect.poll(() => outbox.attemptsShown(), { timeout: 10_000 }).toBe(attempts);
        await outbox.items.getByText('ошибка: Сбой сервера (тест)').waitFor();
        expect(posts()).toBe(attempts);
        // A millisecond short of 2^attempts s nothing goes out; at 2^attempts s the engine tries by itself.
        await clock.advance(2 ** attempts * 1000 - 1);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(posts()).toBe(attempts);
        await clock.advance(1);
      }

      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
      expect(await outbox.pending()).toBe(0);
      expect(posts()).toBe(FAILURES + 1);
      const reports = await reportsOn(server, association.id);
      expect(reports).toHaveLength(1);
      expect(reports[0]!.photos.map((p) => [p.type, p.width])).toEqual([
        ['jpg', 1024],
        ['jpg', 1024],
        ['jpg', 1024],
      ]);
      expect(await associationStatus(server, association.id)).toBe('completed');
      await clock.close();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('a report the server refuses ten times', () => {
  it('leaves the queue for «Не доставлено» with its photos and reason, and is delivered once sent again', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = 'Щебень известняковый 20–40';
    const context = await newContext(browser, 'shared', 390, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signInAsDriver(page, url);
      await (await new AvailableTasksPage(page, url).goto()).accept(cargo);
      const association = await associationFor(server, cargo);
      const current = await new CurrentTasksPage(page, url).goto();
      const clock = await engineClock(context, page, 'shared');
      const form = await current.openReport(cargo);
      await form.fill({ quantity: '11' });
      await form.addPhotos(suite.photos.slice(0, 1));
      proxy.failNext('POST', REPORTS_POST, 422, 10);
      await form.submit();

      const outbox = new OutboxView(page);
      await outbox.open();
      for (let attempts = 1; attempts < 10; attempts++) {
        await expect.poll(() => outbox.attemptsShown(), { timeout: 10_000 }).toBe(attempts);
        await clock.advance(2 ** attempts * 1000);
      }
      const undelivered = outbox.panel.locator('.drv-outbox-undelivered');
      await undelivered.getByText('Не доставлено: 1').waitFor({ timeout: 10_000 });
      await undelivered.getByText('не доставлен: Сбой сервера (тест)').waitFor();
      expect(await outbox.pending()).toBe(0);
      expect(await undelivered.locator('img.drv-outbox-item__thumb').count()).toBe(1);
      expect(await reportsOn(server, association.id)).toEqual([]);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/undelivered-390.png` });

      await undelivered.getByRole('button', { name: 'Отправить снова' }).click();
      await expect.poll(() => reportsOn(server, association.id), { timeout: 15_000 }).toHaveLength(1);
      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 15_000 });
      expect(await undelivered.count()).toBe(0);
      await clock.close();
    } finally {
      await context.close();
    }
  });
});
