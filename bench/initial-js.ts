/**
 * The initial JavaScript of the login route and of /profile after login — every script response the page gets
 * before it is idle, gzipped here with zlib (default level 6) — against the 130 kB goal; and the engine's
 * bundles (the SharedWorker and the dedicated-worker entries) and the service worker.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Request } from 'playwright-core';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { figure, openContext, openDriverTab, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

/** kB as Vite prints it: 1000 bytes. */
const GOAL_BYTES = 130_000;
/** Idle: no request in flight for this long (a lazy chunk asked for by a late effect still counts). */
const IDLE_MS = 1000;

interface Loaded {
  files: { file: string; bytes: number; gzip: number }[];
  gzip: number;
}

const fileOf = (url: string) => new URL(url).pathname;

/**
 * Loads `url` in a new page of `context` and gzips every script response it got until idle: nothing in
 * flight for IDLE_MS. The engine's entry is requested on the page too but never "finishes" there (the
 * worker holds it), so Playwright's 'networkidle' never comes; it is left out here and counted as a bundle.
 */
async function scriptsOf(context: BrowserContext, url: string, workerEntries: readonly string[]): Promise<Loaded> {
  const page = await context.newPage();
  const bodies = new Map<string, Promise<Buffer>>();
  const inFlight = new Set<Request>();
  let lastChange = Date.now();
  const isWorkerEntry = (request: Request) => workerEntries.includes(fileOf(request.url()));
  const settle = (request: Request) => {
    inFlight.delete(request);
    lastChange = Date.now();
  };
  page.on('request', (request) => {
    if (isWorkerEntry(request)) return;
    inFlight.add(request);
    lastChange = Date.now();
  });
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script' || isWorkerEntry(request)) return;
    const file = fileOf(response.url());
    if (!bodies.has(file)) bodies.set(file, response.body());
  });
  await page.goto(url, { waitUntil: 'load' });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && (inFlight.size > 0 || Date.now() - lastChange < IDLE_MS)) await sleep(50);
  const files = await Promise.all(
    [...bodies].map(async ([file, body]) => {
      const bytes = await body;
      return { file, bytes: bytes.length, gzip: gzipSync(bytes).length };
    }),
  );
  await page.close();
  files.sort((a, b) => b.gzip - a.gzip);
  return { files, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
}

async function routes(app: E2eApp, workerEntries: readonly string[]): Promise<{ login: Loaded; profile: Loaded }> {
  const fresh = await openContext(app);
  try {
    const login = await scriptsOf(fresh, `${app.url}/login`, workerEntries);
    await openDriverTab(app, fresh);
    const profile = await scriptsOf(fresh, `${app.url}/profile`, workerEntries);
    return { login, profile };
  } finally {
    await fresh.close();
  }
}

/** A built file and the chunks it imports statically, each gzipped once. */
function bundle(entry: RegExp): Loaded & { entry: string } {
  const dir = resolve('dist/assets');
  const name = readdirSync(dir).find((f) => entry.test(f));
  if (!name) throw new Error(`dist/assets has no file matching ${entry}: run \`npx vite build\``);
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dir, file), 'utf8');
    for (const match of code.matchAll(/(?:\bfrom|\bimport)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)) visit(match[1] as string);
  };
  visit(name);
  const files = [...seen].map((file) => {
    const bytes = readFileSync(join(dir, file));
    return { file: `/assets/${file}`, bytes: bytes.length, gzip: gzipSync(bytes).length };
  });
  return { entry: name, files, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
}

function serviceWorker(): number {
  return gzipSync(readFileSync(resolve('dist/sw.js'))).length;
}

const kB = (bytes: number) => Math.round(bytes / 100) / 10;

/** Each console screen's own chunk (and the chunks only it pulls in), beyond what /profile loaded. */
const CONSOLE_SCREENS = ['TasksManageScreen', 'TaskFormScreen', 'TasksActiveScreen', 'DriverOrderScreen', 'ReportViewScreen', 'TableScreen'];
const SCREEN_GOAL_BYTES = 40_000;

function screenChunks(loadedByProfile: Loaded): { screen: string; gzip: number; files: number; largest: string }[] {
  const already = new Set(loadedByProfile.files.map((f) => f.file));
  return CONSOLE_SCREENS.map((screen) => {
    const own = bundle(new RegExp(`^${screen}-[\\w-]+\\.js$`));
    const extra = own.files.filter((f) => !already.has(f.file));
    const largest = [...extra]
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 3)
      .map((f) => `${f.file.replace(/-[\w-]+\.js$/, '')} ${kB(f.gzip)}`)
      .join(', ');
    return { screen, gzip: extra.reduce((sum, f) => sum + f.gzip, 0), files: extra.length, largest };
  });
}

export const initialJs: Benchmark = {
  id: 'initial-js',
  title: 'Initial JavaScript, gzip (zlib level 6)',
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const shared = bundle(/^shared-[\w-]+\.js$/);
      const dedicated = bundle(/^dedicated-[\w-]+\.js$/);
      const { login, profile } = await routes(app, [`/assets/${shared.entry}`, `/assets/${dedicated.entry}`]);
      const goal = (loaded: Loaded) => ({ goal: '≤ 130 kB', met: loaded.gzip <= GOAL_BYTES, note: `${loaded.files.length} script files` });
      const screens = screenChunks(profile);
      return {
        ours: 'gzip size of what the page loaded (routes) or of the built file (bundles)',
        baseline: 'the 130 kB budget of the first load',
        figures: [
          figure('login route, all scripts until idle', 'kB', kB(login.gzip), kB(GOAL_BYTES), goal(login)),
          figure('/profile after login, all scripts until idle', 'kB', kB(profile.gzip), kB(GOAL_BYTES), goal(profile)),
          figure(`engine bundle, SharedWorker (${shared.entry})`, 'kB', kB(shared.gzip), null, { note: `${shared.files.length} file(s)` }),
          figure(`engine bundle, fallback (${dedicated.entry})`, 'kB', kB(dedicated.gzip), null, { note: `${dedicated.files.length} file(s)` }),
          figure('service worker (sw.js)', 'kB', kB(serviceWorker()), null),
          ...screens.map((s) =>
            figure(`console screen ${s.screen}, beyond /profile`, 'kB', kB(s.gzip), kB(SCREEN_GOAL_BYTES), { goal: '≤ 40 kB', met: s.gzip <= SCREEN_GOAL_BYTES, note: `${s.files} file(s); largest: ${s.largest}` }),
          ),
        ],
        details: { goalBytes: GOAL_BYTES, login, profile, shared, dedicated, screens },
      };
    }),
};
