/**
 * From the server's return to an empty outbox. A report with a photo is queued while the server
 * is down and the browser says it is online (a depot's Wi-Fi with no uplink), then the server comes back;
 * timed until the report is on the server. Ours: the engine restarted during the outage (the tab reloaded, its
 * engine starting in offline mode) — in SharedWorker mode and in fallback mode. Baseline, same run: an engine
 * that lived through the outage (the case that was already fast). Goal ≤ 10 s in every mode.
 */
import type { BrowserContext } from 'playwright-core';
import type { EngineMode } from '../tests/e2e/harness/browser.ts';
import { associationFor, reportsOn } from '../tests/e2e/pages/driver-records.ts';
import { OutboxView } from '../tests/e2e/pages/driver-outbox.ts';
import { signInAsDriver } from '../tests/e2e/pages/driver-session.ts';
import { waitForServiceWorker } from '../tests/e2e/harness/engine.ts';
import { CurrentTasksPage } from '../tests/e2e/pages/driver-tasks.ts';
import { makeCameraJpegs } from '../tests/e2e/pages/driver-photos.ts';
import type { PhotoFile } from '../tests/e2e/pages/driver-tasks.ts';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { figure, openContext, round, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

const CARGO: Record<string, string> = {
  shared: 'Песок мытый',
  dedicated: 'Щебень гранитный 20–40',
  survived: 'Грунт растительный',
};

async function measure(app: E2eApp, mode: EngineMode, reload: boolean, cargo: string, photos: PhotoFile[]): Promise<number> {
  const context: BrowserContext = await openContext(app, mode, 390);
  try {
    // As tests/e2e/pages/driver-queue.ts does (that one asserts with Vitest, which a benchmark does not run).
    const page = await context.newPage();
    await signInAsDriver(page, app.url);
    await waitForServiceWorker(page);
    const associationId = (await associationFor(app.server, cargo)).id;
    const current = await new CurrentTasksPage(page, app.url).goto();
    await current.card(cargo).waitFor();
    app.proxy.setDown(true);
    const form = await current.openReport(cargo);
    await form.fill({ quantity: '5' });
    await form.addPhotos(photos);
    await form.submit();
    const outbox = new OutboxView(page);
    while ((await outbox.pending()) !== 1) await sleep(100);
    if (reload) await page.reload();
    // A while down, as a real outage: the engine settles in offline mode and its recovery backs off.
    await sleep(12_000);
    const back = performance.now();
    app.proxy.setDown(false);
    for (;;) {
      if ((await reportsOn(app.server, associationId)).length > 0) return performance.now() - back;
      if (performance.now() - back > 120_000) throw new Error(`${mode}: not delivered within 120 s`);
      await sleep(100);
    }
  } finally {
    app.proxy.setDown(false);
    await context.close();
  }
}

export const outboxRestart: Benchmark = {
  id: 'outbox-restart',
  title: 'Server back → queued report delivered, with the engine restarted during the outage',
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const maker = await openContext(app);
      const photos = await makeCameraJpegs(await maker.newPage(), 1);
      await maker.close();
      const shared = await measure(app, 'shared', true, CARGO.shared!, photos);
      const dedicated = await measure(app, 'dedicated', true, CARGO.dedicated!, photos);
      const survived = await measure(app, 'shared', false, CARGO.survived!, photos);
      const goal = (ms: number) => ({ goal: '≤ 10 s', met: ms <= 10_000 });
      return {
        ours: 'an engine started during the outage (tab reloaded), per engine mode',
        baseline: 'an engine that lived through the outage (SharedWorker mode), same run',
        figures: [
          figure('SharedWorker mode: back → delivered', 's', round(shared / 1000, 1), round(survived / 1000, 1), goal(shared)),
          figure('fallback mode: back → delivered', 's', round(dedicated / 1000, 1), round(survived / 1000, 1), goal(dedicated)),
          figure('engine that lived through it: back → delivered', 's', round(survived / 1000, 1), null, goal(survived)),
        ],
        details: { sharedMs: shared, dedicatedMs: dedicated, survivedMs: survived },
      };
    }),
};
