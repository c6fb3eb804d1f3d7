/**
 * What every benchmark shares: the result shape, the app under test (the e2e harness: built dist/, demo
 * seed, FaultProxy, Chromium), tabs with the engine on `window.__reisEngine`, and small statistics.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { Remote } from 'comlink';
import type { User } from '../contract/entities.ts';
import type { Result, WorkerApi } from '../worker/api.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from '../tests/e2e/harness/app.ts';
import { newContext, type EngineMode } from '../tests/e2e/harness/browser.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answering, freePort, startProcess, stopProcess } from '../tests/fixtures/cluster.ts';

/** One measured figure. `ratio` is always ours ÷ baseline, both measured in this run. */
export interface Figure {
  metric: string;
  unit: string;
  ours: number | null;
  baseline: number | null;
  ratio: number | null;
  goal?: string;
  /** Whether the goal was met; absent when the figure has no goal. */
  met?: boolean;
  note?: string;
}

export interface SectionResult {
  /** What "ours" and "baseline" mean in this section. */
  ours: string;
  baseline: string;
  figures: Figure[];
  /** Anything else worth keeping for a later comparison (per-file sizes, raw counts). */
  details?: Record<string, unknown>;
  /** Set instead of figures when the benchmark could not run here, with the reason. */
  skipped?: string;
}

export interface Benchmark {
  id: string;
  title: string;
  run(): Promise<SectionResult>;
}

/** The page-side view of the tab: the engine's Comlink proxy that src/engine/connect.ts exposes. */
export type BenchWindow = Window & { __reisEngine: Remote<WorkerApi> };

export function figure(
  metric: string,
  unit: string,
  ours: number | null,
  baseline: number | null,
  extra: Pick<Figure, 'goal' | 'met' | 'note'> = {},
): Figure {
  const ratio = ours !== null && baseline !== null && baseline !== 0 ? ours / baseline : null;
  return { metric, unit, ours, baseline, ratio, ...extra };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

/** What the results file records about the machine besides Node's own facts. */
export const environment: { browserVersion: string | null } = { browserVersion: null };

/** Starts the app, runs `fn`, and always shuts everything down (the bench must stop by itself). */
export async function withApp<T>(options: { accessTokenTtl?: number }, fn: (app: E2eApp) => Promise<T>): Promise<T> {
  const app = await startE2eApp(options);
  environment.browserVersion ??= app.browser.version();
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

/**
 * A fresh browser context in the given engine mode. tsx compiles with esbuild's keepNames, which wraps
 * inner functions in `__name(...)`; the functions we hand to page.evaluate then need that helper in the page.
 */
export async function openContext(app: E2eApp, mode: EngineMode = 'shared', width?: number): Promise<BrowserContext> {
  const context = await newContext(app.browser, mode, width);
  await context.addInitScript('globalThis.__name = (fn) => fn;');
  return context;
}

/** Opens a page of the app and waits until the tab is connected to the engine. */
export async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => '__reisEngine' in window, undefined, { timeout: 30_000 });
  return page;
}

/** Logs in through the tab's engine (as the login screen does); throws when the server refused. */
export async function loginInTab(page: Page, email: string): Promise<void> {
  const result = await page.evaluate(
    async ({ email, password }): Promise<Result<User>> => await (window as unknown as BenchWindow).__reisEngine.login(email, password),
    { email, password: DEMO_PASSWORD },
  );
  if (!result.ok) throw new Error(`login as ${email} failed: ${result.message}`);
}

/** The start most benchmarks share: a tab on /login, logged in there as the demo driver. */
export async function openDriverTab(app: E2eApp, context: BrowserContext): Promise<Page> {
  const page = await openTab(context, `${app.url}/login`);
  await loginInTab(page, DEMO.driver);
  return page;
}

/** Logs in straight at the server's API (for baselines that bypass the engine); answers the token pair. */
export async function loginDirect(baseUrl: string, email: string): Promise<{ access_token: string; refresh_token: string }> {
  const response = await fetch(`${baseUrl}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: email,
      password: DEMO_PASSWORD,
      device_id: crypto.randomUUID(),
      device_info: 'bench baseline',
      push_subscription: null,
    }),
  });
  if (!response.ok) throw new Error(`direct login as ${email}: HTTP ${response.status}`);
  return (await response.json()) as { access_token: string; refresh_token: string };
}


export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The server as `npm start` runs it (`node --import tsx server/main.ts`; SQLite in `dataDir`, no request log, no
 * built app), once it answers; `stop` ends it.
 */
export async function startServerProcess(dataDir: string): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const { child, output } = startProcess(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG: '0',
    DIST_DIR: join(dataDir, 'no-dist'),
    DATABASE_URL: '',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    await answering(`${base}/api/users/me/`, child, output);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { base, pid: child.pid!, stop: () => stopProcess(child) };
}

/** A process's resident memory (VmRSS), MB. */
export function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}
