/**
 * Compression time per 12 MP photo (median) and bytes in and out, in the engine (compressPreview: the photo
 * crosses to the worker and back) against the same library call on the main thread. The output must be at most
 * 1024 px wide.
 */
import { compressBoth, PHOTOS } from './long-tasks.ts';
import type { Compressed } from './photos.ts';
import { figure, median, round, withApp, type Benchmark, type SectionResult } from './support.ts';

const MAX_WIDTH = 1024;
const mb = (bytes: number) => round(bytes / 1_000_000, 2);
const kb = (bytes: number) => round(bytes / 1000, 1);

export const compression: Benchmark = {
  id: 'compression',
  title: `Compression of ${PHOTOS} photos of 12 MP (4000×3000, JPEG 0.92) to 1024 px, JPEG 0.7`,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const { engine, main } = await compressBoth(app);
      const ms = (c: Compressed) => round(median(c.photos.map((p) => p.ms)), 0);
      const bytesOut = (c: Compressed) => kb(median(c.photos.map((p) => p.bytesOut)));
      const widest = (c: Compressed) => Math.max(...c.photos.map((p) => p.width));
      const sizes = (c: Compressed) => [...new Set(c.photos.map((p) => `${p.width}×${p.height}`))].join(', ');
      const bytesIn = median(engine.photos.map((p) => p.bytesIn));
      return {
        ours: 'the engine (compressPreview, the photo crosses to the worker and back)',
        baseline: 'the same library and settings as normally used (its own web worker)',
        figures: [
          figure('time per photo, median', 'ms', ms(engine), ms(main)),
          figure('bytes in per photo, median', 'MB', mb(bytesIn), mb(median(main.photos.map((p) => p.bytesIn)))),
          figure('bytes out per photo, median', 'kB', bytesOut(engine), bytesOut(main), {
            note: `${round(bytesIn / median(engine.photos.map((p) => p.bytesOut)), 0)}× smaller than the original`,
          }),
          figure('widest output', 'px', widest(engine), widest(main), {
            goal: `≤ ${MAX_WIDTH} px, smaller than the original`,
            met: engine.photos.every((p) => p.width <= MAX_WIDTH && p.bytesOut < p.bytesIn),
            note: `output ${sizes(engine)} (baseline ${sizes(main)})`,
          }),
        ],
        details: { engine: engine.photos, main: main.photos },
      };
    }),
};
