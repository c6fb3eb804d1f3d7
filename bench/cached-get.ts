/**
 * A GET from the UI call to the data (`__reisEngine.get(path)` timed in the page), served from the engine's
 * IndexedDB cache, against the same GET over the network to the local server. Two cached paths: offline
 * (navigator.onLine false: the network is not tried) and a dead network with navigator still online (the
 * request fails at the wire, then the cache answers).
 */
import type { Page } from 'playwright-core';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import {
  figure,
  median,
  openContext,
  openDriverTab,
  percentile,
  round,
  withApp,
  type BenchWindow,
  type Benchmark,
  type SectionResult,
} from './support.ts';

const CALLS = 200;
const WARMUP = 10;
const PATH = 'users/me/';

interface Timings {
  ms: number[];
  fromCache: number;
  failed: number;
}

/** Sequential calls, each timed in the page from the call to the data. */
function timeGets(page: Page): Promise<Timings> {
  return page.evaluate(
    async ({ path, calls, warmup }) => {
      const engine = (window as unknown as BenchWindow).__reisEngine;
      for (let i = 0; i < warmup; i += 1) await engine.get(path);
      const ms: number[] = [];
      let fromCache = 0;
      let failed = 0;
      for (let i = 0; i < calls; i += 1) {
        const started = performance.now();
        const result = await engine.get(path);
        ms.push(performance.now() - started);
        if (!result.ok) failed += 1;
        else if (result.data.fromCache) fromCache += 1;
      }
      return { ms, fromCache, failed };
    },
    { path: PATH, calls: CALLS, warmup: WARMUP },
  );
}

async function measure(app: E2eApp): Promise<{ network: Timings; offline: Timings; deadNetwork: Timings }> {
  const context = await openContext(app);
  try {
    const page = await openDriverTab(app, context);
    const network = await timeGets(page);
    app.proxy.setDown(true);
    await context.setOffline(true);
    const offline = await timeGets(page);
    await context.setOffline(false);
    const deadNetwork = await timeGets(page);
    app.proxy.setDown(false);
    return { network, offline, deadNetwork };
  } finally {
    await context.close();
  }
}

export const cachedGet: Benchmark = {
  id: 'cached-get',
  title: `Cached GET /${PATH}: UI call → data, ${CALLS} sequential calls`,
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const { network, offline, deadNetwork } = await measure(app);
      const servedFromCache = (t: Timings) => `${t.fromCache}/${CALLS} answered from the cache, ${t.failed} failed`;
      const row = (name: string, t: Timings) => [
        figure(`median, ${name}`, 'ms', round(median(t.ms), 2), round(median(network.ms), 2), { note: servedFromCache(t) }),
        figure(`p95, ${name}`, 'ms', round(percentile(t.ms, 95), 2), round(percentile(network.ms, 95), 2)),
      ];
      return {
        ours: 'the engine answering from its IndexedDB cache',
        baseline: `the same engine GET over the network to the local server (${servedFromCache(network)})`,
        figures: [...row('cache, offline', offline), ...row('cache, network dead (fails, then cache)', deadNetwork)],
        details: {
          path: PATH,
          calls: CALLS,
          warmup: WARMUP,
          network: summary(network),
          offline: summary(offline),
          deadNetwork: summary(deadNetwork),
        },
      };
    }),
};

function summary(t: Timings) {
  return {
    median: median(t.ms),
    p95: percentile(t.ms, 95),
    min: Math.min(...t.ms),
    max: Math.max(...t.ms),
    fromCache: t.fromCache,
    failed: t.failed,
  };
}
