/**
 * /table opened by its signed link in a browser with nobody signed in (the link is what grants access):
 * a live link shows the export's rows; an expired link, a forged one and one made for another file each
 * show a Russian message instead of any rows. The export itself goes through the real job runner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { ExportJob, TableLink } from '../../contract/exports.ts';
import { login } from '../fixtures/accounts.ts';
import { signTableToken } from '../../server/exports/table.ts';
import { CLUSTER, DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

async function api<T>(method: 'GET' | 'POST', path: string, payload?: object): Promise<{ status: number; body: T }> {
  const { access_token } = await login(app.server, DEMO.manager, DEMO_PASSWORD);
  const res = await app.server.app.inject({ method, url: `/api${path}`, headers: { authorization: `Bearer ${access_token}` }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: (res.body ? res.json() : null) as T };
}

async function finishedExport(filters: object): Promise<ExportJob> {
  const started = await api<ExportJob>('POST', '/tasks/completed/export', filters);
  expect(started.status).toBe(202);
  let job = started.body;
  await waitFor(async () => {
    job = (await api<ExportJob>('GET', `/tasks/completed/export/${job.id}`)).body;
    return job.status === 'done' || job.status === 'failed';
  }, { message: 'the export finishes' });
  expect(job.status).toBe('done');
  return job;
}

describe('/table by a signed link', () => {
  // The two-instance run tests the servers: one width is enough there.
  it.each(CLUSTER ? [1440] : [1440, 360])('shows the rows to a signed-out browser and refuses stale or foreign links at %i px', async (width) => {
    const job = await finishedExport({ status: 'all' });
    const other = await finishedExport({ status: 'completed' });
    const link = (await api<TableLink>('POST', `/tasks/completed/export/${job.id}/table-link`)).body;
    const context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      const errors = trackErrors(page);
      await page.goto(`${app.url}${link.url}`);
      await page.getByRole('table').waitFor();
      expect(await page.locator('.sheet-meta').textContent()).toContain(`строк: ${job.rows_written}`);
      await waitFor(async () => (await page.locator('[role="cell"]').filter({ hasText: /\S/ }).count()) > 0, { message: 'rows appear' });
      expect(await page.locator('.header, .sidebar, .offline-banner').count()).toBe(0);
      if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/table-link-${width}.png` });
      expect(errors).toEqual([]);

      const token = new URLSearchParams(link.url.split('?')[1]).get('token') ?? '';
      const expired = (await signTableToken(app.server.config.jwtSecret, job.id, -60)).token;
      const forged = await new SignJWT({ file_id: job.id })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience('table')
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('someone-elses-secret'.padEnd(48, 'z')));
      const refused: [string, RegExp][] = [
        [`file_id=${job.id}&token=${expired}`, /Ссылка устарела\. Откройте таблицу из консоли ещё раз\./],
        [`file_id=${job.id}&token=${forged}`, /Ссылка на таблицу недействительна/],
        [`file_id=${other.id}&token=${token}`, /другую таблицу/],
      ];
      for (const [query, message] of refused) {
        const stale = await context.newPage();
        await stale.goto(`${app.url}/table?${query}`);
        const alert = stale.getByRole('alert');
        await alert.waitFor();
        expect(await alert.textContent()).toMatch(message);
        expect(await stale.locator('.sheet-row').count()).toBe(0);
        if (process.env.E2E_SCREENSHOTS && message.source.includes('устарела')) {
          await stale.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/table-expired-${width}.png` });
        }
        await stale.close();
      }
    } finally {
      await context.close();
    }
  });
});
