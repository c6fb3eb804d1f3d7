/**
 * The trip panel on a 360 px phone (issue 32), the driver's /current-tasks in Chromium with the page's main thread
 * slowed 4× (`Emulation.setCPUThrottlingRate`). The engine's SharedWorker is a target of its own: the bench attaches
 * to it and asks for the same slowdown, which Chromium refuses for workers («Operation is only supported for pages,
 * not workers»); the refusal is reported with the figures.
 * - trip-step-tap: a tap on «Прибыл на погрузку» (a mouse click at the button's centre over CDP) from the click
 *   event's time (`timeStamp`, in the page) to the `complete` event of the engine's strict IndexedDB transaction
 *   that stores the step, where the engine marks it (worker/trip-steps.ts `TRIP_STEP_STORED_MARK`); both on the
 *   common clock `performance.timeOrigin + performance.now()`, read after the taps (the page's clicks by evaluate,
 *   the engine's marks through CDP in the worker), nothing polled meanwhile. Each tap taken back with «Отменить».
 *   Also from the click's dispatch in the page (the app's own part). Baseline: a plain button injected in the same
 *   page whose click handler writes one record in a strict transaction to an IndexedDB database of its own.
 * - trip-positions: the trip running (its first step tapped), 120 position updates 200 ms apart over CDP
 *   (`Emulation.setGeolocationOverride`, moving 8 m a step along a line: 10 minutes of fixes at 1/s compressed 5×
 *   into 24 s), long tasks (PerformanceObserver 'longtask') counted while they come; baseline: the same page idle
 *   for the same 24 s. Both with the 4× slowdown.
 */
import { loadavg } from 'node:os';
import type { Browser, BrowserContext, CDPSession, Locator, Page } from 'playwright-core';
import { TRIP_STEP_STORED_MARK } from '../worker/trip-steps.ts';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { waitForServiceWorker } from '../tests/e2e/harness/engine.ts';
import { signInAsDriver } from '../tests/e2e/pages/driver-session.ts';
import { AvailableTasksPage, CurrentTasksPage } from '../tests/e2e/pages/driver-tasks.ts';
import { figure, openContext, percentile, round, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

const CARGO = 'Щебень гранитный 5–20';
const FIRST_STEP = 'Прибыл на погрузку';
const SAMPLES = 30;
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

/** A DevTools session on this page's SharedWorker (the engine), through the browser's session. */
interface WorkerSession {
  send(method: string, params?: object): Promise<{ result?: unknown; error?: { message: string } }>;
  evaluate<T>(expression: string): Promise<T>;
  detach(): Promise<void>;
}

/**
 * Playwright has no API for SharedWorkers: the worker's target is found among the browser's (same browser context
 * as the page) and attached to without flattening, its messages carried by `Target.sendMessageToTarget`.
 */
async function attachEngineWorker(browser: Browser, page: Page): Promise<WorkerSession> {
  const own = await page.context().newCDPSession(page);
  const { targetInfo } = (await own.send('Target.getTargetInfo')) as { targetInfo: { browserContextId?: string } };
  await own.detach();
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; targetId: string; browserContextId?: string }> };
  const target = targetInfos.find((t) => t.type === 'shared_worker' && t.browserContextId === targetInfo.browserContextId);
  if (!target) throw new Error('no SharedWorker runs for the page');
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
  let next = 0;
  const waiting = new Map<number, (answer: { result?: unknown; error?: { message: string } }) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) waiting.get(message.id)?.(message);
    if (message.id !== undefined) waiting.delete(message.id);
  });
  const send: WorkerSession['send'] = (method, params = {}) =>
    new Promise((resolve, reject) => {
      next += 1;
      waiting.set(next, resolve);
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: next, method, params }) }).catch(reject);
    });
  return {
    send,
    async evaluate<T>(expression: string): Promise<T> {
      const answer = await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
      const value = answer.result as { result?: { value?: unknown }; exceptionDetails?: { text: string } } | undefined;
      if (answer.error || !value?.result || value.exceptionDetails) throw new Error(`in the engine: ${answer.error?.message ?? value?.exceptionDetails?.text ?? expression}`);
      return value.result.value as T;
    },
    detach: () => cdp.detach(),
  };
}

/**
 * In the page: every click on a button labelled `label` (capture phase, on the document), on the common clock:
 * `at` the event's own time (`timeStamp`: when the input was made), `dispatched` when the page began dispatching it
 * (what lies between is the input waiting for, and being handled on, the slowed main thread).
 */
async function recordClicks(page: Page, label: string): Promise<void> {
  await page.evaluate((label) => {
    const w = window as unknown as { __clicks: Record<string, Array<{ at: number; dispatched: number }>> };
    w.__clicks ??= {};
    const clicks = (w.__clicks[label] = [] as Array<{ at: number; dispatched: number }>);
    document.addEventListener(
      'click',
      (event) => {
        if ((event.target as Element | null)?.closest('button')?.textContent !== label) return;
        clicks.push({ at: performance.timeOrigin + event.timeStamp, dispatched: performance.timeOrigin + performance.now() });
      },
      { capture: true },
    );
  }, label);
}

const clicksOf = (page: Page, label: string) =>
  page.evaluate((label) => (window as unknown as { __clicks: Record<string, Array<{ at: number; dispatched: number }>> }).__clicks[label] ?? [], label);

/** The engine's marks: when each step's transaction completed, on the common clock, in order. */
const storedMarks = (engine: WorkerSession) =>
  engine.evaluate<Array<{ at: number; key: string }>>(
    `performance.getEntriesByName(${JSON.stringify(TRIP_STEP_STORED_MARK)}, 'mark').map((m) => ({ at: performance.timeOrigin + m.startTime, key: m.detail }))`,
  );

/**
 * How far the two clocks (performance.timeOrigin + performance.now() in the page and in the engine) may disagree:
 * the page's reading taken between two of the engine's; answers the page's offset from their middle and the
 * bracket's half-width (the uncertainty). Taken with the CPU not slowed.
 */
async function clockSkew(page: Page, engine: WorkerSession): Promise<{ offsetMs: number; withinMs: number }> {
  const now = 'performance.timeOrigin + performance.now()';
  let best = { offsetMs: Number.NaN, withinMs: Number.POSITIVE_INFINITY };
  for (let i = 0; i < 10; i++) {
    const before = await engine.evaluate<number>(now);
    const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = await engine.evaluate<number>(now);
    if ((after - before) / 2 < best.withinMs) best = { offsetMs: inPage - (before + after) / 2, withinMs: (after - before) / 2 };
  }
  return { offsetMs: round(best.offsetMs, 2), withinMs: round(best.withinMs, 2) };
}

/**
 * The baseline's button: one record into a database of its own on click (a strict transaction, as the outbox's),
 * its `complete` time kept on the common clock.
 */
async function injectPlainButton(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const w = window as unknown as { __plainStored: number[] };
    w.__plainStored = [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('bench-plain', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error ?? new Error('open failed'));
    });
    const button = document.createElement('button');
    button.textContent = 'Записать';
    button.style.cssText = 'position:fixed;left:8px;bottom:8px;z-index:99999;min-height:48px;padding:0 16px';
    button.addEventListener('click', () => {
      const tx = db.transaction('outbox', 'readwrite', { durability: 'strict' });
      tx.objectStore('outbox').add({ at: Date.now(), body: { step: 'loading_arrived', source: 'tap' } });
      tx.oncomplete = () => w.__plainStored.push(performance.timeOrigin + performance.now());
    });
    document.body.append(button);
  });
}

/** The engine's answer to `Emulation.setCPUThrottlingRate`: null when it took it, else the refusal's text. */
async function slowEngine(engine: WorkerSession, rate: number): Promise<string | null> {
  const answer = await engine.send('Emulation.setCPUThrottlingRate', { rate });
  return answer.error ? answer.error.message : null;
}

/**
 * A click at the button's centre straight through CDP (`page.mouse`), as a finger's tap comes: Playwright's
 * `locator.click` would first run its actionability and hit-target checks in the page, whose listeners and forced
 * layouts on the slowed main thread sit between the input event and the app's handler.
 */
async function tapAt(page: Page, button: Locator): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  if (!box) throw new Error('the button is not on the screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Pairs the i-th click with the i-th completion: ms from the click's event time and from its dispatch. */
function latencies(clicks: ReadonlyArray<{ at: number; dispatched: number }>, stored: readonly number[], what: string): { fromEvent: number[]; fromDispatch: number[] } {
  if (clicks.length !== stored.length) throw new Error(`${what}: ${clicks.length} clicks but ${stored.length} records stored`);
  return {
    fromEvent: clicks.map((click, i) => (stored[i] as number) - click.at),
    fromDispatch: clicks.map((click, i) => (stored[i] as number) - click.dispatched),
  };
}

const ms = (values: readonly number[], p: number) => round(percentile(values, p), 0);

export const tripStepTap: Benchmark = {
  id: 'trip-step-tap',
  title: `Trip step tap → its IndexedDB transaction complete (360 px, page CPU ${CPU_RATE}× slower)`,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const t = await openTrip(app);
      const engine = await attachEngineWorker(app.browser, t.page);
      try {
        const engineRefused = await slowEngine(engine, CPU_RATE);
        const marksBefore = (await storedMarks(engine)).length;
        await recordClicks(t.page, FIRST_STEP);
        for (let i = 0; i < SAMPLES; i++) {
          await tapAt(t.page, t.big(FIRST_STEP));
          // Taken back within the undo window once the card shows it: the record leaves the outbox, the button comes back.
          await t.trip.getByRole('button', { name: /^Отменить \(\d+ с\)$/ }).click();
          await t.big(FIRST_STEP).waitFor();
          await sleep(200);
        }
        const ours = latencies(await clicksOf(t.page, FIRST_STEP), (await storedMarks(engine)).slice(marksBefore).map((m) => m.at), 'trip step');

        await injectPlainButton(t.page);
        await recordClicks(t.page, 'Записать');
        for (let i = 0; i < SAMPLES; i++) {
          await tapAt(t.page, t.page.getByRole('button', { name: 'Записать', exact: true }));
          await sleep(200);
        }
        await sleep(500);
        const plainStored = await t.page.evaluate(() => (window as unknown as { __plainStored: number[] }).__plainStored);
        const plain = latencies(await clicksOf(t.page, 'Записать'), plainStored, 'plain button');

        await t.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
        const skew = await clockSkew(t.page, engine);
        const p95 = percentile(ours.fromEvent, 95);
        const slowed =
          engineRefused === null
            ? `the page's and the engine's CPU ${CPU_RATE}× slower`
            : `the page's main thread ${CPU_RATE}× slower; the engine (SharedWorker) not: CDP refused («${engineRefused}»)`;
        const round1 = (values: number[]) => values.map((v) => round(v, 1));
        return {
          ours: `a tap on «${FIRST_STEP}» (a mouse click at its centre over CDP): the click event's time in the page → the engine's strict IndexedDB transaction that stores the step complete (a mark the engine makes in its 'complete' event, read through CDP after the ${SAMPLES} taps; each tap undone)`,
          baseline: 'a plain button injected in the same page whose click writes one record in a strict transaction to an IndexedDB database of its own: the same click → its complete event, in the page',
          figures: [
            figure('tap → stored, p50', 'ms', ms(ours.fromEvent, 50), ms(plain.fromEvent, 50)),
            figure('tap → stored, p95', 'ms', round(p95, 0), ms(plain.fromEvent, 95), {
              goal: 'p95 < 50 ms',
              met: p95 < 50,
              note: `${slowed}; clocks agree within ±${skew.withinMs} ms (page − engine ${skew.offsetMs} ms)`,
            }),
            figure('click dispatched → stored, p50', 'ms', ms(ours.fromDispatch, 50), ms(plain.fromDispatch, 50), { note: 'the app\'s own part: from the page dispatching the click' }),
            figure('click dispatched → stored, p95', 'ms', ms(ours.fromDispatch, 95), ms(plain.fromDispatch, 95)),
          ],
          details: {
            slowed,
            engineRefused,
            skew,
            loadAverage: loadavg(),
            oursMs: round1(ours.fromEvent),
            oursFromDispatchMs: round1(ours.fromDispatch),
            plainMs: round1(plain.fromEvent),
            plainFromDispatchMs: round1(plain.fromDispatch),
          },
        };
      } finally {
        await engine.detach();
        await t.context.close();
      }
    }),
};

interface LongTask {
  start: number;
  duration: number;
}

/**
 * In the page: long tasks that start from now on. The previous window's observer is disconnected first: left
 * running, it would push every long task into the new window's list a second time.
 */
async function observeLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: Array<{ start: number; duration: number }>; __longTaskObserver?: PerformanceObserver };
    w.__longTaskObserver?.disconnect();
    const tasks: Array<{ start: number; duration: number }> = (w.__longTasks = []);
    const from = performance.now();
    w.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= from) tasks.push({ start: e.startTime, duration: e.duration });
    });
    w.__longTaskObserver.observe({ type: 'longtask', buffered: false });
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
