/**
 * The dispatcher's board (docs/dispatch.md) for a day of 50 drivers × 400 tasks: `GET /dispatch/board` against
 * `GET /tasks/active/` for the same day (the list the console had before the board), one drag through
 * `POST /dispatch/move` (the board's answer included), and the JavaScript /dispatch loads beyond the shell: its chunk
 * and the chunks it imports that /profile does not, gzipped, from dist/ (goal ≤ 40 kB). In Chromium: the time from
 * opening /dispatch to every card drawn, and from another dispatcher's drag to the card in its new column here —
 * the change travels the feed, the board is fetched again and redrawn (goal < 200 ms on this machine).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startTestServer } from '../tests/fixtures/server.ts';
import { makeCompany, makeUser, PASSWORD, withAccessToken } from '../tests/fixtures/accounts.ts';
import { launchBrowser, newContext } from '../tests/e2e/harness/browser.ts';
import { signIn } from '../tests/e2e/pages/login-page.ts';
import { nowIso } from '../server/db/connect.ts';
import type { Board } from '../contract/calls/dispatch.ts';
import { figure, median, round, type Benchmark, type SectionResult } from './support.ts';

const DRIVERS = 50;
const TASKS = 400;
const RUNS = 15;
const DATE = '2026-12-01';

/** A chunk's static imports, recursively, from the built files. */
function closure(dir: string, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(join(dir, file), 'utf8');
  for (const m of text.matchAll(/from"\.\/([^"]+\.js)"|import"\.\/([^"]+\.js)"/g)) closure(dir, (m[1] ?? m[2]) as string, seen);
  return seen;
}

function routeJs(): { ours: number; files: number } {
  const dir = resolve('dist/assets');
  const manifestless = readFileSync(resolve('dist/index.html'), 'utf8');
  const entry = /src="\/assets\/([^"]+\.js)"/.exec(manifestless)?.[1];
  const all = readFileSync(join(dir, entry as string), 'utf8');
  const dispatch = /DispatchScreen-[\w-]+\.js/.exec(all)?.[0];
  const profile = /ProfileScreen-[\w-]+\.js/.exec(all)?.[0];
  if (!entry || !dispatch || !profile) throw new Error('dist/ has no /dispatch chunk: run `vite build` first');
  const shell = new Set([...closure(dir, entry), ...closure(dir, profile)]);
  const extra = [...closure(dir, dispatch)].filter((f) => !shell.has(f));
  return { ours: extra.reduce((sum, f) => sum + gzipSync(readFileSync(join(dir, f))).length, 0), files: extra.length };
}

const BROWSER_RUNS = 5;

/**
 * The board in Chromium: each run reloads /dispatch and waits for every card (time to first full render), then
 * another dispatcher's drag is made on the server and the time until this tab shows the card in its new column.
 */
async function inBrowser(
  url: string,
  email: string,
  drag: () => Promise<{ task: number; column: string }>,
): Promise<{ open: number[]; change: number[] }> {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, 'shared', 1920, { serviceWorkers: 'block' });
    const page = await signIn(context, url, email, PASSWORD);
    const open: number[] = [];
    const change: number[] = [];
    for (let run = 0; run < BROWSER_RUNS; run++) {
      const t0 = performance.now();
      await page.goto(`${url}/dispatch?date=${DATE}`);
      await page.waitForFunction((n) => document.querySelectorAll('[data-task-id]').length >= n, TASKS, { polling: 'raf', timeout: 60_000 });
      open.push(performance.now() - t0);
      // Settle: the feed's stream opens after the page.
      await page.waitForTimeout(1_500);
      const t1 = performance.now();
      const { task, column } = await drag();
      await page.waitForFunction(([id, name]) => document.querySelector(`section[aria-label="Колонка: ${name}"] [data-task-id="${id}"]`) !== null, [task, column] as const, { polling: 'raf', timeout: 30_000 });
      change.push(performance.now() - t1);
    }
    await context.close();
    return { open, change };
  } finally {
    await browser.close();
  }
}

export const dispatch: Benchmark = {
  id: 'dispatch',
  title: `Dispatch board: a day of ${DRIVERS} drivers × ${TASKS} tasks; one drag; the route's JavaScript`,
  async run(): Promise<SectionResult> {
    const server = await startTestServer({ config: { distDir: resolve('dist') } });
    try {
      const db = server.db.kysely;
      const company = await makeCompany(server);
      const managerUser = await makeUser(server, 'manager', company);
      const manager = await withAccessToken(server, managerUser);
      const drivers: number[] = [];
      for (let d = 0; d < DRIVERS; d++) drivers.push((await makeUser(server, 'driver', company, { name: `Водитель ${String(d + 1).padStart(2, '0')}`, vehicle: `А${d}ВС 77` })).id);
      const now = nowIso();
      for (let t = 0; t < TASKS; t++) {
        const task = await db
          .insertInto('tasks')
          .values({ company_id: company, created_by: manager.id, date: DATE, cargo: `Щебень ${t}`, loading_place: 'Карьер', unloading_place: `Объект ${t}`, planned_quantity: 60, unit: 'т', status: t % 10 === 0 ? 'open' : 'in_progress', rate: 650, comment: null, max_drivers: null, created_at: now, updated_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        // Nine in ten tasks have a driver; the rest wait in «Без водителя».
        if (t % 10 !== 0) {
          await db.insertInto('task_drivers').values({ task_id: task.id, driver_id: drivers[t % DRIVERS] as number, quantity: null, status: 'accepted', loading_quantity: null, unloading_quantity: null, transport_rate: null, order_index: t, accepted_at: now, created_at: now }).execute();
        }
      }
      const get = async (url: string) => {
        const t0 = performance.now();
        const res = await server.app.inject({ method: 'GET', url, headers: manager.auth });
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
        return { ms: performance.now() - t0, body: res.body };
      };
      await get(`/api/dispatch/board?date=${DATE}`);
      const board: number[] = [];
      const active: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const b = await get(`/api/dispatch/board?date=${DATE}`);
        board.push(b.ms);
        bytes = b.body.length;
        active.push((await get(`/api/tasks/active/?date=${DATE}&limit=200`)).ms);
      }
      const first = JSON.parse((await get(`/api/dispatch/board?date=${DATE}`)).body) as Board;
      const task = first.unassigned[0] as number;
      const t0 = performance.now();
      const moved = await server.app.inject({ method: 'POST', url: '/api/dispatch/move', headers: manager.auth, payload: { task_id: task, from_driver_id: null, to_driver_id: drivers[0], index: 0, date: DATE } });
      const moveMs = performance.now() - t0;
      if (moved.statusCode !== 200) throw new Error(`move ${moved.statusCode}: ${moved.body}`);
      const js = routeJs();
      const browser = await inBrowser(server.url, managerUser.email, async () => {
        const again = JSON.parse((await get(`/api/dispatch/board?date=${DATE}`)).body) as Board;
        const next = again.unassigned[0] as number;
        const res = await server.app.inject({ method: 'POST', url: '/api/dispatch/move', headers: manager.auth, payload: { task_id: next, from_driver_id: null, to_driver_id: drivers[1], index: 0, date: DATE } });
        if (res.statusCode !== 200) throw new Error(`move ${res.statusCode}: ${res.body}`);
        return { task: next, column: 'Водитель 02' };
      });
      return {
        ours: 'GET /dispatch/board (every driver and task of the day); POST /dispatch/move; /dispatch JS beyond the shell',
        baseline: 'GET /tasks/active/ for the same day (a page of 200, no columns); —; the goal',
        figures: [
          figure(`board of ${DRIVERS} drivers × ${TASKS} tasks, median`, 'ms', round(median(board), 1), round(median(active), 1), { note: `${round(bytes / 1024, 0)} kB JSON` }),
          figure('one drag (assign, reorder, answer the board)', 'ms', round(moveMs, 1), null),
          figure('/dispatch JavaScript beyond the shell, gzip', 'kB', round(js.ours / 1000, 1), 40, { goal: '≤ 40 kB', met: js.ours <= 40_000, note: `${js.files} files` }),
          figure(`Chromium: open /dispatch → ${TASKS} cards drawn, median of ${BROWSER_RUNS}`, 'ms', round(median(browser.open), 0), round(median(board), 1), { note: 'baseline: the board call alone' }),
          figure(`Chromium: another dispatcher's drag → the card in its new column, median of ${BROWSER_RUNS}`, 'ms', round(median(browser.change), 0), 200, { goal: '< 200 ms', met: median(browser.change) < 200, note: 'feed + refetch + redraw' }),
        ],
      };
    } finally {
      await server.close();
    }
  },
};
