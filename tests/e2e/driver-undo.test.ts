/**
 * Filing a report says the task is done and where it went, and «Отменить» in that message
 * undoes it — a report still in the queue is taken out and never reaches the server; one the server already
 * has is deleted there and the task is back in progress.
 */
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { CurrentTasksPage } from './pages/driver-tasks.ts';

const suite = useDriverSuite(1);

describe('undoing a report just filed', () => {
  it('deletes a delivered report on the server and puts the task back in progress', async () => {
    const { server, browser, url } = suite.app;
    const cargo = 'Грунт растительный';
    const context = await newContext(browser, 'shared', 390, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await signInAsDriver(page, url);
      const association = await associationFor(server, cargo);
      const current = await new CurrentTasksPage(page, url).goto();
      const form = await current.openReport(cargo);
      await form.fill({ quantity: '12' });
      await form.submit();
      await page.getByText('Задача выполнена: она теперь в разделе «Статистика».').waitFor();
      await waitFor(async () => (await reportsOn(server, association.id)).length === 1, { message: 'the report reached the server' });
      expect(await associationStatus(server, association.id)).toBe('completed');

      await page.locator('.Toastify').getByRole('button', { name: 'Отменить' }).click();
      await page.getByText('Отчёт отменён: задача снова в текущих').waitFor();
      expect(await reportsOn(server, association.id)).toHaveLength(0);
      expect(await associationStatus(server, association.id)).toBe('in_progress');
      await current.card(cargo).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes a queued report out of the queue while the server is unreachable; it never arrives', async () => {
    const { server, proxy, browser, url } = suite.app;
    const cargo = 'Песок мытый';
    const context = await newContext(browser, 'shared', 390, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      await signInAsDriver(page, url);
      const association = await associationFor(server, cargo);
      const current = await new CurrentTasksPage(page, url).goto();
      await current.card(cargo).waitFor();
      proxy.setDown(true);
      await context.setOffline(true);
      const form = await current.openReport(cargo);
      await form.fill({ quantity: '7' });
      await form.addPhotos(suite.photos);
      await form.submit();
      const outbox = new OutboxView(page);
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(1);

      await page.locator('.Toastify').getByRole('button', { name: 'Отменить' }).click();
      await page.getByText('Отчёт отменён: задача снова в текущих').waitFor();
      await expect.poll(() => outbox.pending(), { timeout: 10_000 }).toBe(0);

      proxy.setDown(false);
      await context.setOffline(false);
      await page.reload();
      await current.card(cargo).waitFor();
      expect(await reportsOn(server, association.id)).toHaveLength(0);
      expect(await associationStatus(server, association.id)).toBe('accepted');
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});
