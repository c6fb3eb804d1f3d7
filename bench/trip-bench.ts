/**
 * The trip panel on a 360 px phone (issue 32), the driver's /current-tasks in Chromium with the page's CPU slowed
 * 4× (`Emulation.setCPUThrottlingRate`; the engine's SharedWorker is a target of its own and is not slowed).
 * - trip-step-tap: a tap on «Прибыл на погрузку» until the step's record is in the engine's IndexedDB outbox,
 *   seen by polling that store from the page (a read-only transaction every 2 ms, started before the tap); the tap taken back with
 *   «Отменить» between samples (the record leaves the outbox, the button comes back). Baseline: a plain button
 *   injected in the same page whose click handler writes one record to an IndexedDB database of its own, timed
 *   the same way (the click seen in the capture phase, the record seen by the same poll).
 * - trip-positions: the trip running (its first step tapped), 120 position updates 200 ms apart over CDP
 *   (`Emulation.setGeolocationOverride`, moving 8 m a step along a line: 10 minutes of fixes at 1/s compressed 5×
 *   into 24 s), long tasks (PerformanceObserver 'longtask') counted while they come; baseline: the same page idle
 *   for the same 24 s. Both with the 4× slowdown.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { waitForServiceWorker } from '../tests/e2e/harness/engine.ts';
import { signInAsDriver } from '../tests/e2e/pages/driver-session.ts';
import { AvailableTasksPage, CurrentTasksPage } from '../tests/e2e/pages/driver-tasks.ts';
import { figure, openContext, percentile, round, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

const CARGO = 'Щебень гранитный 5–20';
const FIRST_STEP = 'Прибыл на погрузку';
const SAMPLES = 20;
const CPU_RATE = 4;
const POSITIONS = 120;
const POSITION_EVERY_MS = 200;
const START = { latitude: 55.7512, longitude: 37.6184 };

interface TripPage {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  big(name: string): ReturnType<Page['getByRole']>;
  trip: ReturnType<Page['getByRole']>;
}

/** The demo driver on /current-tasks at 360 px with a task accepted, location allowed and emulated, the CPU slowed. */
async function openTrip(app: E2eApp): Promise<TripPage> {
  const context = await openContext(app, 'shared', 360);
  await context.grantPermissions(['geolocation'], { origin: app.url });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setGeolocationOverride', { ...START, accuracy: 12 });
  await signInAsDriver(page, app.url);
  await waitForServiceWorker(page);
  await (await new AvailableTasksPage(page, app.url).goto()).accept(CARGO);
  const current = await new CurrentTasksPage(page, app.url).goto();
  const trip = current.card(CARGO).getByRole('region', { name: /^Рейс по задаче №/ });
  const big = (name: string) => trip.getByRole('button', { name, exact: true });
  await big(FIRST_STEP).waitFor();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
  return { context, page, cdp, big, trip };
}

/**
 * In the page, before the tap: remembers when the next click reaches the document (capture phase, before any
 * handler of the app) and starts polling `store` of database `dbName` every 2 ms until a matching record is there
 * (or, with `gone`, none is); `seen` then answers ms from that click to the poll that saw it.
 */
async function armClock(page: Page, dbName: string, store: string, kind: 'trip' | 'plain', gone = false): Promise<void> {
  await page.evaluate(
    async ({ dbName, store, kind, gone }) => {
      const w = window as unknown as { __tapAt: number | null; __seen: Promise<number> };
      w.__tapAt = null;
      document.addEventListener('click', () => (w.__tapAt = performance.now()), { capture: true, once: true });
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      });
      const present = async () =>
        await new Promise<boolean>((resolve, reject) => {
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () =>
            resolve(
              (request.result as Array<{ trip?: { step: string }; plain?: boolean }>).some((r) =>
                kind === 'trip' ? r.trip?.step === 'loading_arrived' : r.plain === true,
              ),
            );
          request.onerror = () => reject(request.error ?? new Error('read failed'));
        });
      const poll = async (): Promise<number> => {
        const started = performance.now();
        try {
          for (;;) {
            if ((await present()) !== gone) return w.__tapAt === null ? Number.NaN : performance.now() - w.__tapAt;
            if (performance.now() - started > 20_000) throw new Error(`${dbName}/${store}: not seen within 20 s`);
            await new Promise((r) => setTimeout(r, 2));
          }
        } finally {
          db.close();
        }
      };
      w.__seen = poll();
    },
    { dbName, store, kind, gone },
  );
}

const seen = (page: Page) => page.evaluate(async () => await (window as unknown as { __seen: Promise<number> }).__seen);

/** The baseline's button: one record into a database of its own on click, nothing else. */
async function injectPlainButton(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('bench-plain', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error('open failed'));
    });
    const button = document.createElement('button');
    button.textContent = 'Записать';
    button.id = 'bench-plain';
    button.style.cssText = 'position:fixed;left:8px;bottom:8px;z-index:99999;min-height:48px;padding:0 16px';
    button.addEventListener('click', () => {
      const tx = db.transaction('outbox', 'readwrite');
      const store = tx.objectStore('outbox');
      store.clear();
      store.add({ plain: true, at: Date.now(), body: { step: 'loading_arrived', source: 'tap' } });
    });
    document.body.append(button);
  });
}

async function clearPlain(page: Page): Promise<void> {
  await page.evaluate(
    async () =>
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('bench-plain', 1);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          tx.objectStore('outbox').clear();
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
        };
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      }),
  );
}

export const tripStepTap: Benchmark = {
  id: 'trip-step-tap',
  title: `Trip step tap → record in the IndexedDB outbox (360 px, CPU ${CPU_RATE}× slower)`,
  watchdogMinutes: 10,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const t = await openTrip(app);
      try {
        const ours: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          await armClock(t.page, 'reis-engine', 'outbox', 'trip');
          await t.big(FIRST_STEP).click();
          ours.push(await seen(t.page));
          // Taken back within the undo window: the record leaves the outbox and the button comes back.
          await armClock(t.page, 'reis-engine', 'outbox', 'trip', true);
          await t.trip.getByRole('button', { name: /^Отменить \(\d+ с\)$/ }).click();
          await t.big(FIRST_STEP).waitFor();
          await seen(t.page);
          await sleep(200);
        }
        await injectPlainButton(t.page);
        const plain: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          await clearPlain(t.page);
          await armClock(t.page, 'bench-plain', 'outbox', 'plain');
          await t.page.locator('#bench-plain').click();
          plain.push(await seen(t.page));
          await sleep(200);
        }
        const p95 = percentile(ours, 95);
        return {
          ours: `a tap on «${FIRST_STEP}» until its record is in the engine's IndexedDB outbox (polled from the page every 2 ms), ${SAMPLES} taps, each undone`,
          baseline: 'a plain button in the same page whose click writes one record to an IndexedDB database of its own, polled the same way',
          figures: [
            figure('tap → in outbox, p50', 'ms', round(percentile(ours, 50), 0), round(percentile(plain, 50), 0)),
            figure('tap → in outbox, p95', 'ms', round(p95, 0), round(percentile(plain, 95), 0), {
              goal: 'p95 < 50 ms',
              met: p95 < 50,
              note: 'the page slowed 4×, the SharedWorker not; the poll itself costs up to ~2 ms plus one read',
            }),
          ],
          details: { oursMs: ours.map((v) => round(v, 1)), plainMs: plain.map((v) => round(v, 1)) },
        };
      } finally {
        await t.context.close();
      }
    }),
};

interface LongTask {
  start: number;
  duration: number;
}

/** In the page: long tasks that start from now on. */
async function observeLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }> };
    w.__longTasks = [];
    const from = performance.now();
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= from) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: false });
  });
}

const takeLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }> };
    const tasks = w.__longTasks;
    w.__longTasks = [];
    return tasks;
  });

export const tripPositions: Benchmark = {
  id: 'trip-positions',
  title: `A running trip under ${POSITIONS} position updates (10 min at 1/s compressed 5×), CPU ${CPU_RATE}× slower`,
  watchdogMinutes: 10,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const t = await openTrip(app);
      try {
        // The trip runs: the watch starts (location is allowed); the next step is the loading's departure.
        await t.big(FIRST_STEP).click();
        await t.big('Загружен, выезжаю').waitFor();
        await sleep(2_000);
        const spanMs = POSITIONS * POSITION_EVERY_MS;

        await observeLongTasks(t.page);
        await sleep(spanMs);
        const idle: LongTask[] = await takeLongTasks(t.page);

        // A watch of our own counts the fixes the page really got (the app's watch gets the same ones).
        await t.page.evaluate(() => {
          const w = window as unknown as { __fixes: number };
          w.__fixes = 0;
          navigator.geolocation.watchPosition(() => (w.__fixes += 1), () => undefined, { enableHighAccuracy: true, maximumAge: 10_000 });
        });
        await sleep(500);
        await observeLongTasks(t.page);
        const fixesBefore = await t.page.evaluate(() => (window as unknown as { __fixes: number }).__fixes);
        const began = performance.now();
        for (let i = 0; i < POSITIONS; i++) {
          // 8 m a fix to the north-east: about 29 km/h, a loaded truck leaving the quarry.
          const metres = 8 * (i + 1);
          await t.cdp.send('Emulation.setGeolocationOverride', {
            latitude: START.latitude + (metres * 0.7) / 111_320,
            longitude: START.longitude + (metres * 0.7) / (111_320 * Math.cos((START.latitude * Math.PI) / 180)),
            accuracy: 10,
          });
          const next = began + (i + 1) * POSITION_EVERY_MS;
          await sleep(Math.max(0, next - performance.now()));
        }
        const moving: LongTask[] = await takeLongTasks(t.page);
        const fixes = (await t.page.evaluate(() => (window as unknown as { __fixes: number }).__fixes)) - fixesBefore;
        const longest = (tasks: LongTask[]) => round(Math.max(0, ...tasks.map((x) => x.duration)), 0);
        const blocked = (tasks: LongTask[]) => round(tasks.reduce((s, x) => s + x.duration, 0), 0);
        return {
          ours: `the trip's card open while ${POSITIONS} positions come 200 ms apart (CDP geolocation override), ${spanMs / 1000} s`,
          baseline: `the same page idle for the same ${spanMs / 1000} s, just before`,
          figures: [
            figure('long tasks (> 50 ms)', 'tasks', moving.length, idle.length, {
              goal: 'none beyond the idle page’s',
              met: moving.length <= idle.length,
            }),
            figure('longest main-thread block', 'ms', longest(moving), longest(idle)),
            figure('main thread blocked in long tasks', 'ms', blocked(moving), blocked(idle)),
            figure('fixes the page received', 'fixes', fixes, null, { note: `of ${POSITIONS} sent (a counting watch of the bench's own beside the app's)` }),
          ],
          details: { moving, idle, fixes },
        };
      } finally {
        await t.context.close();
      }
    }),
};
