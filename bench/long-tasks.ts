/**
 * Main-thread long tasks (PerformanceObserver 'longtask') while five 12 MP photos are compressed — in the
 * engine (`__reisEngine.compressPreview`, off the main thread) against the same library and settings as it is
 * normally used (its own web worker, `useWebWorker: true`, the library's default). Goal: no long task over 50
 * ms in ours.
 */
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { compressPhotos, injectCompressionLibrary, makePhotos, type Compressed } from './photos.ts';
import { figure, openContext, openTab, round, withApp, type Benchmark, type SectionResult } from './support.ts';

export const PHOTOS = 5;
const LONG_TASK_MS = 50;

export async function compressBoth(app: E2eApp): Promise<{ engine: Compressed; main: Compressed; sizes: number[] }> {
  const context = await openContext(app);
  try {
    const page = await openTab(context, `${app.url}/login`);
    await injectCompressionLibrary(page);
    const sizes = await makePhotos(page, PHOTOS);
    const engine = await compressPhotos(page, 'engine');
    const main = await compressPhotos(page, 'main');
    return { engine, main, sizes };
  } finally {
    await context.close();
  }
}

const longest = (c: Compressed) => round(Math.max(0, ...c.longTasks.map((t) => t.duration)), 0);
const blocked = (c: Compressed) => round(c.longTasks.reduce((sum, t) => sum + t.duration, 0), 0);

export const longTasks: Benchmark = {
  id: 'long-tasks',
  title: `Main-thread long tasks while ${PHOTOS} photos of 12 MP are compressed`,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const { engine, main, sizes } = await compressBoth(app);
      return {
        ours: 'compression in the engine (compressPreview)',
        baseline: 'browser-image-compression as normally used: its own web worker (useWebWorker: true), same settings (1024 px, JPEG 0.7)',
        figures: [
          figure('long tasks (> 50 ms)', 'tasks', engine.longTasks.length, main.longTasks.length),
          figure('longest task', 'ms', longest(engine), longest(main), {
            goal: `none over ${LONG_TASK_MS} ms`,
            met: engine.longTasks.every((t) => t.duration <= LONG_TASK_MS),
            note: engine.longTasks.length === 0 ? 'ours: no long task at all' : '',
          }),
          figure('main thread blocked in long tasks', 'ms', blocked(engine), blocked(main)),
          figure(`wall time for ${PHOTOS} photos`, 'ms', round(engine.wallMs, 0), round(main.wallMs, 0)),
        ],
        details: { photoBytes: sizes, engine: engine.longTasks, main: main.longTasks },
      };
    }),
};
