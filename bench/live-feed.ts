/**
 * How soon a change made elsewhere shows on an open screen. A second manager renames today's task
 * through the API; the first manager's /tasks/active (the dispatcher's screen that today refetches every 60 s)
 * shows the new name — timed from the PUT's answer to the text on screen, in the page. Ours: the change feed.
 * Baseline, same run: the feed cut at the proxy (its reconnects refused), so the screen learns of the change by
 * its own 60 s refetch — what every screen did before the feed (or on focus). Also: event streams open at the
 * wire for ten tabs of one browser (goal 1).
 */
import type { Page } from 'playwright-core';
import { DEMO } from '../tests/e2e/harness/app.ts';
import { figure, loginDirect, loginInTab, median, openContext, openTab, percentile, round, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

const EVENTS = /^\/api\/events\/?$/;
const OURS_SAMPLES = 15;
const BASELINE_SAMPLES = 3;
const CARGO = 'Щебень гранитный 5–20';

async function rename(baseUrl: string, token: string, taskId: number, cargo: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/tasks/${taskId}/`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cargo }),
  });
  if (!res.ok) throw new Error(`rename: HTTP ${res.status}`);
}

/** Milliseconds from the change's answer until `page` shows `text` (at most `timeoutMs`). */
async function timeToScreen(page: Page, change: () => Promise<void>, text: string, timeoutMs: number): Promise<number> {
  await change();
  const started = performance.now();
  await page.waitForFunction((t) => document.body.innerText.includes(t), text, { timeout: timeoutMs, polling: 20 });
  return performance.now() - started;
}

export const liveFeed: Benchmark = {
  id: 'live-feed',
  title: 'Change to screen across browsers: the change feed against the 60 s refetch it replaced',
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const task = await app.server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', CARGO).executeTakeFirstOrThrow();
      const other = (await loginDirect(app.url, DEMO.admin)).access_token;
      const context = await openContext(app, 'shared', 1440);
      try {
        const page = await openTab(context, `${app.url}/login`);
        await loginInTab(page, DEMO.manager);
        await page.goto(`${app.url}/tasks/active`);
        await page.waitForFunction((t) => document.body.innerText.includes(t), CARGO, { timeout: 30_000 });
        for (let i = 1; i < 10; i++) await openTab(context, `${app.url}/tasks/active`);
        await sleep(1_500);
        const streams = app.proxy.openCount('GET', EVENTS);

        const ours: number[] = [];
        for (let i = 0; i < OURS_SAMPLES; i++) {
          const name = `${CARGO} · ${i}`;
          ours.push(await timeToScreen(page, () => rename(app.url, other, task.id, name), name, 20_000));
        }

        // The feed cut: its stream dropped, every reconnect refused; the screen is left to its own refetch.
        app.proxy.failNext('GET', EVENTS, 503, 1_000_000);
        app.proxy.setDown(true);
        await sleep(200);
        app.proxy.setDown(false);
        const baseline: number[] = [];
        for (let i = 0; i < BASELINE_SAMPLES; i++) {
          const name = `${CARGO} · без ленты ${i}`;
          baseline.push(await timeToScreen(page, () => rename(app.url, other, task.id, name), name, 75_000));
        }
        await rename(app.url, other, task.id, CARGO);
        return {
          ours: 'the live change feed (one stream per browser, events → refetch of the area)',
          baseline: "the screen's own refetch every 60 s, the feed cut at the proxy (before the feed: that, or focus)",
          figures: [
            figure('change → screen, median', 'ms', round(median(ours), 0), round(median(baseline), 0)),
            figure('change → screen, p95', 'ms', round(percentile(ours, 95), 0), round(percentile(baseline, 95), 0), {
              goal: '≤ 1 000 ms',
              met: percentile(ours, 95) <= 1_000,
            }),
            figure('event streams open for 10 tabs', 'count', streams, null, { goal: '1', met: streams === 1, note: 'counted open at the proxy' }),
          ],
          details: { ours, baseline },
        };
      } finally {
        await context.close();
      }
    }),
};
