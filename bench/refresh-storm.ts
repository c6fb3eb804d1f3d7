/**
 * A refresh storm. Ten tabs hold an expired access token and each makes five calls at once; the proxy counts
 * POST /auth/refresh/ at the wire. Ours: the engine in a SharedWorker, and in the fallback (a dedicated worker
 * per tab, single-flight through the 'auth-refresh' Web Lock). Baseline: what a plain app does — axios in each
 * tab with its own refresh-on-401 interceptor, single-flight only inside the tab, tokens in localStorage.
 */
import { resolve } from 'node:path';
import { waitQuiet } from '../tests/e2e/harness/wait.ts';
import type { Page } from 'playwright-core';
import type { AxiosError, AxiosInstance, AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import { DEMO, type E2eApp } from '../tests/e2e/harness/app.ts';
import type { EngineMode } from '../tests/e2e/harness/browser.ts';
import {
  figure,
  loginDirect,
  openContext,
  openDriverTab,
  openTab,
  sleep,
  withApp,
  type BenchWindow,
  type Benchmark,
  type SectionResult,
} from './support.ts';

const TABS = 10;
const CALLS_PER_TAB = 5;
const ACCESS_TTL_S = 2;
/** JWT exp has whole seconds: after TTL + this, every token issued before the wait has expired. */
const EXPIRY_WAIT_MS = ACCESS_TTL_S * 1000 + 1500;

interface Storm {
  refreshes: number;
  refreshesOk: number;
  /** 401 answers to the GETs: proof that the tabs really started with an expired token. */
  unauthorized: number;
  calls: number;
  failedCalls: number;
  ms: number;
}

type Fire = (page: Page, tab: number, startAt: number) => Promise<number>;

/** Every tab fires its calls at the same wall-clock instant; answers what the wire saw. */
async function storm(app: E2eApp, pages: Page[], fire: Fire): Promise<Storm> {
  await waitQuiet(app.proxy, 300);
  app.proxy.reset();
  const startAt = Date.now() + 500;
  const okCounts = await Promise.all(pages.map((page, tab) => fire(page, tab, startAt)));
  const ms = Date.now() - startAt;
  await waitQuiet(app.proxy, 500);
  const refreshes = app.proxy.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/auth/refresh/'));
  const calls = pages.length * CALLS_PER_TAB;
  return {
    refreshes: refreshes.length,
    refreshesOk: refreshes.filter((r) => r.status === 200).length,
    unauthorized: app.proxy.requests.filter((r) => r.method === 'GET' && r.status === 401).length,
    calls,
    failedCalls: calls - okCounts.reduce((a, b) => a + b, 0),
    ms,
  };
}

/** Five distinct GETs (distinct params, so the engine's in-flight sharing cannot merge them). */
const fireEngine: Fire = (page, tab, startAt) =>
  page.evaluate(
    async ({ tab, startAt, calls }) => {
      const engine = (window as unknown as BenchWindow).__reisEngine;
      await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
      const results = await Promise.all(
        Array.from({ length: calls }, (_, i) => engine.get(i % 2 ? 'users/me/transports/' : 'users/me/', { storm: `${tab}-${i}` })),
      );
      return results.filter((r) => r.ok).length;
    },
    { tab, startAt, calls: CALLS_PER_TAB },
  );

async function engineStorm(app: E2eApp, mode: EngineMode): Promise<Storm> {
  const context = await openContext(app, mode);
  try {
    const first = await openDriverTab(app, context);
    const others = await Promise.all(Array.from({ length: TABS - 1 }, () => openTab(context, `${app.url}/profile`)));
    const pages = [first, ...others];
    // Each tab's startup may refresh (a 2 s token is always within the 60 s margin): let that settle first.
    await Promise.all(pages.map((page) => page.evaluate(() => (window as unknown as BenchWindow).__reisEngine.startup())));
    await waitQuiet(app.proxy, 500);
    await sleep(EXPIRY_WAIT_MS);
    return await storm(app, pages, fireEngine);
  } finally {
    await context.close();
  }
}

/** The baseline's page script: the common axios pattern, tokens in localStorage, single-flight per tab. */
function installInterceptor(): void {
  const axios = (window as unknown as { axios: AxiosStatic }).axios;
  const api = axios.create({ baseURL: '/api/', timeout: 10_000 });
  api.interceptors.request.use((config) => {
    const token = localStorage.getItem('access');
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    return config;
  });
  let refreshing: Promise<void> | null = null;
  api.interceptors.response.use(undefined, async (error: AxiosError) => {
    const config = error.config as (InternalAxiosRequestConfig & { _retried?: boolean }) | undefined;
    if (error.response?.status !== 401 || !config || config._retried) throw error;
    config._retried = true;
    refreshing ??= axios
      .post<{ access_token: string; refresh_token: string }>('/api/auth/refresh/', { refresh_token: localStorage.getItem('refresh') })
      .then(({ data }) => {
        localStorage.setItem('access', data.access_token);
        localStorage.setItem('refresh', data.refresh_token);
      })
      .finally(() => {
        refreshing = null;
      });
    await refreshing;
    return api(config);
  });
  (window as unknown as { benchApi: AxiosInstance }).benchApi = api;
}

const fireBaseline: Fire = (page, tab, startAt) =>
  page.evaluate(
    async ({ tab, startAt, calls }) => {
      const api = (window as unknown as { benchApi: AxiosInstance }).benchApi;
      await new Promise((r) => setTimeout(r, Math.max(0, startAt - Date.now())));
      const results = await Promise.allSettled(
        Array.from({ length: calls }, (_, i) => api.get(i % 2 ? 'users/me/transports/' : 'users/me/', { params: { storm: `${tab}-${i}` } })),
      );
      return results.filter((r) => r.status === 'fulfilled').length;
    },
    { tab, startAt, calls: CALLS_PER_TAB },
  );

async function baselineStorm(app: E2eApp): Promise<Storm> {
  const context = await openContext(app);
  // A blank page of the app's origin: the baseline must not boot our app (and with it our engine).
  await context.route(`${app.url}/bench-blank`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>baseline</title>' }),
  );
  try {
    const tokens = await loginDirect(app.url, DEMO.driver);
    const pages: Page[] = [];
    for (let i = 0; i < TABS; i += 1) {
      const page = await context.newPage();
      await page.goto(`${app.url}/bench-blank`);
      await page.addScriptTag({ path: resolve('node_modules/axios/dist/axios.min.js') });
      await page.evaluate(installInterceptor);
      pages.push(page);
    }
    await pages[0]!.evaluate(({ access_token, refresh_token }) => {
      localStorage.setItem('access', access_token);
      localStorage.setItem('refresh', refresh_token);
    }, tokens);
    await sleep(EXPIRY_WAIT_MS);
    return await storm(app, pages, fireBaseline);
  } finally {
    await context.close();
  }
}

export const refreshStorm: Benchmark = {
  id: 'refresh-storm',
  title: `Refresh storm: ${TABS} tabs × ${CALLS_PER_TAB} calls with an expired access token`,
  run: () =>
    withApp({ accessTokenTtl: ACCESS_TTL_S }, async (app): Promise<SectionResult> => {
      const shared = await engineStorm(app, 'shared');
      const dedicated = await engineStorm(app, 'dedicated');
      const baseline = await baselineStorm(app);
      const goal = (ours: Storm) => ours.refreshes === 1 && baseline.refreshes >= TABS;
      // A run with no 401 at all never had an expired token: its count would prove nothing.
      const expired = [shared, dedicated, baseline].every((s) => s.unauthorized > 0);
      const unauthorized = (ours: Storm) =>
        `GETs answered 401: ours ${ours.unauthorized}, baseline ${baseline.unauthorized}${expired ? '' : ' (a run saw no 401: INVALID)'}`;
      return {
        ours: 'the engine: SharedWorker mode, and fallback mode (a dedicated worker per tab)',
        baseline: 'a per-tab axios refresh-on-401 interceptor (single-flight within its tab)',
        figures: [
          figure('POST /auth/refresh/, SharedWorker', 'requests', shared.refreshes, baseline.refreshes, {
            goal: '1 vs ≥ 10',
            met: expired && goal(shared),
            note: unauthorized(shared),
          }),
          figure('POST /auth/refresh/, fallback mode', 'requests', dedicated.refreshes, baseline.refreshes, {
            goal: '1 vs ≥ 10',
            met: expired && goal(dedicated),
            note: unauthorized(dedicated),
          }),
          figure('refreshes answered 200, SharedWorker', 'requests', shared.refreshesOk, baseline.refreshesOk, {
            note: `baseline: ${baseline.refreshes - baseline.refreshesOk} of its ${baseline.refreshes} refreshes refused (each use rotates the refresh token)`,
          }),
          figure('refreshes answered 200, fallback mode', 'requests', dedicated.refreshesOk, baseline.refreshesOk),
          figure(`calls that failed (of ${shared.calls}), SharedWorker`, 'calls', shared.failedCalls, baseline.failedCalls),
          figure(`calls that failed (of ${dedicated.calls}), fallback mode`, 'calls', dedicated.failedCalls, baseline.failedCalls),
          figure('storm wall time, SharedWorker', 'ms', shared.ms, baseline.ms),
          figure('storm wall time, fallback mode', 'ms', dedicated.ms, baseline.ms),
        ],
        details: { shared, dedicated, baseline, tabs: TABS, callsPerTab: CALLS_PER_TAB, accessTokenTtlSeconds: ACCESS_TTL_S },
      };
    }),
};
