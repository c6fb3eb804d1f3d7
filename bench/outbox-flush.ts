/**
 * 200 reports (one small photo each) queued while the network is down, then flushed to the local server —
 * reports per second until the outbox holds nothing unsent, and the proof that each arrived exactly once (the
 * server's reports table, by idempotency key). Baseline: a plain page script that POSTs 200 other reports one
 * after another with fetch, no queue, no IndexedDB.
 */
import { existsSync } from 'node:fs';
import { waitQuiet } from '../tests/e2e/harness/wait.ts';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { CachedResult, Result } from '../worker/api.ts';
import { DEMO, type E2eApp } from '../tests/e2e/harness/app.ts';
import { ensureAssociations, storedReports, type Stored } from './outbox-fixtures.ts';
import {
  figure,
  loginDirect,
  openContext,
  openDriverTab,
  round,
  sleep,
  withApp,
  type BenchWindow,
  type Benchmark,
  type SectionResult,
} from './support.ts';

const REPORTS = 200;
const FLUSH_TIMEOUT_MS = 120_000;

type SmallPhotoWindow = BenchWindow & { __benchSmall: Blob };

interface OutboxState {
  total: number;
  unsent: number;
  keys: string[];
}

/** The outbox as the engine stored it, read straight from its IndexedDB. */
function outboxState(page: Page): Promise<OutboxState> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((done, fail) => {
      const open = indexedDB.open('reis-engine');
      open.onsuccess = () => done(open.result);
      open.onerror = () => fail(open.error);
    });
    const records = await new Promise<{ sent: boolean; idempotencyKey: string }[]>((done, fail) => {
      const request = db.transaction('outbox').objectStore('outbox').getAll();
      request.onsuccess = () => done(request.result as { sent: boolean; idempotencyKey: string }[]);
      request.onerror = () => fail(request.error);
    });
    db.close();
    return { total: records.length, unsent: records.filter((r) => !r.sent).length, keys: records.map((r) => r.idempotencyKey) };
  });
}

async function waitFor(page: Page, done: (state: OutboxState) => boolean, timeoutMs: number): Promise<OutboxState> {
  const deadline = Date.now() + timeoutMs;
  let state = await outboxState(page);
  while (!done(state) && Date.now() < deadline) {
    await sleep(50);
    state = await outboxState(page);
  }
  return state;
}

/** The driver's association ids from GET /tasks/assigned/ through the engine. */
async function assignedIds(page: Page): Promise<number[]> {
  const result = await page.evaluate(
    async (): Promise<Result<CachedResult<unknown>>> => await (window as unknown as BenchWindow).__reisEngine.get('tasks/assigned/'),
  );
  if (!result.ok) throw new Error(`GET /tasks/assigned/: ${result.message}`);
  const page1 = result.data.data as { items: { driver_associations: { id: number }[] }[] };
  return page1.items.flatMap((task) => task.driver_associations.map((a) => a.id));
}

/** A small phone-like photo (640×480: a gradient with mild noise), the one photo of every report. */
async function makeSmallPhoto(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const canvas = new OffscreenCanvas(640, 480);
    const ctx = canvas.getContext('2d')!;
    const ground = ctx.createLinearGradient(0, 0, 640, 480);
    ground.addColorStop(0, '#9db4c8');
    ground.addColorStop(1, '#5a4a3a');
    ctx.fillStyle = ground;
    ctx.fillRect(0, 0, 640, 480);
    const pixels = ctx.getImageData(0, 0, 640, 480);
    for (let i = 0; i < pixels.data.length; i += 4) {
      const grain = (Math.random() - 0.5) * 24;
      for (let c = 0; c < 3; c += 1) pixels.data[i + c] = (pixels.data[i + c] ?? 0) + grain;
    }
    ctx.putImageData(pixels, 0, 0);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 });
    (window as unknown as SmallPhotoWindow).__benchSmall = blob;
    return blob.size;
  });
}

interface Flushed {
  queueMs: number;
  flushMs: number;
  after: OutboxState;
  keys: string[];
}

async function queueAndFlush(app: E2eApp, page: Page, ids: number[]): Promise<Flushed> {
  const context = page.context();
  app.proxy.setDown(true);
  await context.setOffline(true);
  const queueMs = await page.evaluate(async (ids) => {
    const w = window as unknown as SmallPhotoWindow;
    const started = performance.now();
    for (const id of ids) {
      const queued = await w.__reisEngine.queueReport({
        association_id: id,
        quantity: 10,
        total_loading_quantity: null,
        total_unloading_quantity: null,
        unloadingIsBuyer: 0,
        loadingIsBuyer: 0,
        photos: [w.__benchSmall],
      });
      if (!queued.ok) throw new Error(`queueReport(${id}): ${queued.message}`);
    }
    return performance.now() - started;
  }, ids);
  const queued = await outboxState(page);
  if (queued.unsent !== ids.length) throw new Error(`${queued.unsent} unsent after queueing ${ids.length}`);
  await sleep(300);
  app.proxy.reset();
  app.proxy.setDown(false);
  const started = Date.now();
  await context.setOffline(false);
  await page.evaluate(() => (window as unknown as BenchWindow).__reisEngine.flushNow());
  const sent = await waitFor(page, (s) => s.unsent === 0, FLUSH_TIMEOUT_MS);
  const flushMs = Date.now() - started;
  const after = await waitFor(page, (s) => s.total === 0, 30_000);
  return { queueMs, flushMs, after: sent.unsent > 0 ? sent : after, keys: queued.keys };
}

/** The baseline: the same reports straight to the server, one fetch after another. */
function plainPosts(page: Page, ids: number[], token: string): Promise<{ ms: number; created: number }> {
  return page.evaluate(
    async ({ ids, token }) => {
      const photo = (window as unknown as SmallPhotoWindow).__benchSmall;
      const started = performance.now();
      let created = 0;
      for (const id of ids) {
        const form = new FormData();
        form.append('association_id', String(id));
        form.append('quantity', '10');
        form.append('unloading_is_buyer', '0');
        form.append('loading_is_buyer', '0');
        form.append('completed_at', new Date().toISOString());
        form.append('photos', photo, 'photo-1.jpg');
        const response = await fetch('/api/reports/', {
          method: 'POST',
          body: form,
          headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': crypto.randomUUID() },
        });
        if (response.status === 201) created += 1;
      }
      return { ms: performance.now() - started, created };
    },
    { ids, token },
  );
}

const exactlyOnce = (s: Stored, expected: number) =>
  s.rows === expected && s.distinctKeys === expected && s.distinctAssociations === expected && s.unknownKeys === 0 && s.missingKeys === 0;

async function measure(app: E2eApp): Promise<SectionResult> {
  await ensureAssociations(app.server.db, 2 * REPORTS);
  const context = await openContext(app);
  try {
    const page = await openDriverTab(app, context);
    const ids = await assignedIds(page);
    if (ids.length < 2 * REPORTS) throw new Error(`the driver has ${ids.length} assigned associations, ${2 * REPORTS} needed`);
    const ours = ids.slice(0, REPORTS);
    const theirs = ids.slice(REPORTS, 2 * REPORTS);
    const photoBytes = await makeSmallPhoto(page);

    const flushed = await queueAndFlush(app, page, ours);
    const oursPosts = app.proxy.count('POST', /^\/api\/reports\/$/);
    const oursStored = await storedReports(app.server.db, ours, flushed.keys);

    await waitQuiet(app.proxy, 300);
    app.proxy.reset();
    const { access_token } = await loginDirect(app.url, DEMO.driver);
    const plain = await plainPosts(page, theirs, access_token);
    const plainPostsCount = app.proxy.count('POST', /^\/api\/reports\/$/);
    const plainStored = await storedReports(app.server.db, theirs, null);

    const perSecond = (count: number, ms: number) => round(count / (ms / 1000), 1);
    const once = exactlyOnce(oursStored, REPORTS);
    return {
      ours: `the engine's outbox: ${REPORTS} reports queued offline, then flushed (one ${round(photoBytes / 1000, 0)} kB photo each)`,
      baseline: `a plain page script POSTing ${REPORTS} other reports with fetch, one after another`,
      figures: [
        figure('delivered per second', 'reports/s', perSecond(REPORTS, flushed.flushMs), perSecond(plain.created, plain.ms), {
          note: `until the outbox held nothing unsent (${flushed.after.unsent} left)`,
        }),
        figure(`time to deliver ${REPORTS}`, 's', round(flushed.flushMs / 1000, 2), round(plain.ms / 1000, 2)),
        figure('stored on the server (rows)', 'reports', oursStored.rows, plainStored.rows, {
          goal: `exactly ${REPORTS}, each once`,
          met: once && flushed.after.unsent === 0,
          note: `${oursStored.distinctKeys} distinct idempotency keys, ${oursStored.distinctAssociations} associations, ${oursStored.unknownKeys} rows with a key the outbox never made, ${oursStored.missingKeys} outbox keys missing`,
        }),
        figure('duplicates (rows − distinct keys)', 'reports', oursStored.rows - oursStored.distinctKeys, plainStored.rows - plainStored.distinctKeys),
        figure('POST /reports/ at the wire', 'requests', oursPosts, plainPostsCount),
        figure('queueing offline, per report (compress + strict write)', 'ms', round(flushed.queueMs / REPORTS, 1), null),
        figure('left in the outbox afterwards (sent items resolved and deleted)', 'items', flushed.after.total, null),
      ],
      details: { reports: REPORTS, photoBytes, flushed: { ...flushed, keys: undefined }, oursStored, plainStored, plainCreated: plain.created },
    };
  } finally {
    await context.close();
  }
}

export const outboxFlush: Benchmark = {
  id: 'outbox-flush',
  title: `Flushing ${REPORTS} queued reports to the local server`,
  run: () => {
    if (!existsSync(resolve('server/routes/reports.ts'))) {
      return Promise.resolve({
        ours: '',
        baseline: '',
        figures: [],
        skipped: 'server/routes/reports.ts is not on this branch (POST /reports/ does not exist yet): merge main once it has it',
      });
    }
    return withApp({}, measure);
  },
};
