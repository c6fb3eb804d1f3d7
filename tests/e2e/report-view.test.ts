/**
 * /reports/{id}: a manager sees a report's facts and both of its photos (loaded through the engine, since
 * photos need the bearer token), moves through them by keyboard, and deletes one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { fileReport } from './pages/staff-records.ts';
import { signIn } from './pages/login-page.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

describe('a report for staff', () => {
  it.each([1440, 360])('shows the facts and both photos at %i px; a photo can be deleted', async (width) => {
    const cargo = width === 1440 ? 'Грунт растительный' : 'Песок мытый';
    const report = await fileReport(app, cargo, '21.5');
    const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      const errors = trackErrors(page);
      await page.goto(`${app.url}/reports/${report.id}`);
      await page.getByText('Получено сервером').waitFor();
      expect(await page.getByText('Завершено на устройстве').count()).toBe(1);
      expect(await page.locator('.report-quantity').textContent()).toContain('21,5');
      const images = page.locator('.gallery img');
      await waitFor(async () => (await images.count()) === 2, { message: 'two thumbnails' });
      await waitFor(
        () => images.evaluateAll((list) => list.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
        { message: 'both photos decoded' },
      );
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/report-${width}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Фото 1 из 2: открыть' }).click();
      const lightbox = page.locator('dialog.lightbox');
      await lightbox.waitFor();
      await page.keyboard.press('ArrowRight');
      await waitFor(async () => (await lightbox.getAttribute('aria-label')) === 'Фото 2 из 2', { message: 'arrow moves to photo 2' });
      await lightbox.getByRole('button', { name: 'Удалить фото' }).click();
      await page.getByRole('button', { name: 'Удалить фото', exact: true }).last().click();
      await waitFor(async () => (await images.count()) === 1, { message: 'one photo left' });
      const left = await app.server.db.kysely.selectFrom('report_photos').select('id').where('report_id', '=', report.id).execute();
      expect(left.map((r) => r.id)).toEqual([report.photos[0]?.id]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
