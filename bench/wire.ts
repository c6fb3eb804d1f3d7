/**
 * Bytes over the wire: a cold start of /login in Chromium — every byte the browser fetched until the screen
 * is usable (the form shown and the engine connected) and the network is quiet, the SharedWorker's engine
 * bundle and the service worker script included — with compression as served, against the same run with
 * `Accept-Encoding: identity` forced (the baseline); then what the service worker's precache fetched, and a
 * repeat start (a second visit once the service worker is active). Counted at a proxy of our own between
 * Chromium and the server: Playwright's routing does not see a SharedWorker's requests, a socket does.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { E2eApp } from '../tests/e2e/harness/app.ts';
import { figure, openContext, round, sleep, withApp, type Benchmark, type SectionResult } from './support.ts';

/** kB as Vite prints it: 1000 bytes. */
const GOAL_BYTES = 130_000;
const IDLE_MS = 1000;

interface Fetched {
  path: string;
  /** Sec-Fetch-Dest: document, script, sharedworker, serviceworker, style, empty (fetch()), … */
  dest: string;
  status: number | null;
  encoding: string;
  /** Status line and headers of the answer. */
  headerBytes: number;
  /** The body as it crossed the wire (compressed when it was). */
  bodyBytes: number;
  done: boolean;
}

const isFeed = (f: Fetched) => f.path.startsWith('/api/events');
/** The service worker's precache: its fetch() calls for app files (not /api, which it never caches). */
const isPrecache = (f: Fetched) => f.dest === 'empty' && !f.path.startsWith('/api/');
const total = (list: readonly Fetched[]) => list.reduce((sum, f) => sum + f.headerBytes + f.bodyBytes, 0);

/** An HTTP proxy that counts every answer's bytes; `identity` rewrites Accept-Encoding on the way in. */
class CountingProxy {
  readonly fetched: Fetched[] = [];
  /** What Chromium asked for, as it came in (before an `identity` rewrite). */
  acceptEncoding = '';
  private readonly sockets = new Set<Socket>();
  private readonly agent = new http.Agent({ keepAlive: true });
  private server: http.Server | null = null;
  private lastChange = Date.now();
  url = '';

  constructor(
    private readonly target: URL,
    private readonly identity: boolean,
  ) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  reset(): void {
    this.fetched.length = 0;
  }

  /** Until no answer (the change feed aside) has been in flight or finished for IDLE_MS. */
  async idle(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const busy = () => this.fetched.some((f) => !f.done && !isFeed(f)) || Date.now() - this.lastChange < IDLE_MS;
    while (Date.now() < deadline && busy()) await sleep(50);
  }

  snapshot(): Fetched[] {
    return this.fetched.map((f) => ({ ...f }));
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const entry: Fetched = {
      path: req.url ?? '/',
      dest: String(req.headers['sec-fetch-dest'] ?? ''),
      status: null,
      encoding: 'identity',
      headerBytes: 0,
      bodyBytes: 0,
      done: false,
    };
    this.fetched.push(entry);
    this.lastChange = Date.now();
    const finish = () => {
      entry.done = true;
      this.lastChange = Date.now();
    };
    this.acceptEncoding ||= String(req.headers['accept-encoding'] ?? '');
    const headers = { ...req.headers, host: this.target.host };
    if (this.identity) headers['accept-encoding'] = 'identity';
    const upstream = http.request(
      { host: this.target.hostname, port: this.target.port, method: req.method, path: entry.path, headers, agent: this.agent },
      (up) => {
        entry.status = up.statusCode ?? null;
        entry.encoding = String(up.headers['content-encoding'] ?? 'identity');
        let head = `HTTP/1.1 ${up.statusCode} ${up.statusMessage}\r\n`;
        for (let i = 0; i < up.rawHeaders.length; i += 2) head += `${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}\r\n`;
        entry.headerBytes = Buffer.byteLength(`${head}\r\n`);
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on('data', (chunk: Buffer) => {
          entry.bodyBytes += chunk.length;
          this.lastChange = Date.now();
        });
        up.on('end', finish);
        up.on('error', finish);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      finish();
      res.destroy();
    });
    res.on('close', finish);
    req.pipe(upstream);
  }
}

interface Run {
  usableMs: number;
  /** Until usable and quiet, without the precache. */
  cold: Fetched[];
  /** The service worker's precache fetches during the cold start (until it is active and quiet). */
  precache: Fetched[];
  /** The second visit, once the service worker is active. */
  repeat: Fetched[];
  acceptEncoding: string;
}

async function openLogin(context: BrowserContext, url: string): Promise<{ page: Page; ms: number }> {
  const page = await context.newPage();
  const started = performance.now();
  await page.goto(`${url}/login`);
  await page.locator('input[name="username"]').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => '__reisEngine' in window, undefined, { timeout: 30_000 });
  return { page, ms: performance.now() - started };
}

async function coldAndRepeat(app: E2eApp, identity: boolean): Promise<Run> {
  const proxy = new CountingProxy(new URL(app.server.url), identity);
  const url = await proxy.start();
  const context = await openContext(app);
  try {
    const first = await openLogin(context, url);
    await proxy.idle();
    const cold = proxy.snapshot().filter((f) => !isPrecache(f));
    await first.page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return reg.active?.state;
    });
    await proxy.idle();
    const precache = proxy.snapshot().filter(isPrecache);

    // The second visit: the tab closed (the SharedWorker ends with it), the app opened again.
    await first.page.close();
    await sleep(500);
    proxy.reset();
    const second = await openLogin(context, url);
    await proxy.idle();
    const repeat = proxy.snapshot();
    await second.page.close();
    return { usableMs: first.ms, cold, precache, repeat, acceptEncoding: proxy.acceptEncoding };
  } finally {
    await context.close();
    await proxy.stop();
  }
}

const kB = (bytes: number) => round(bytes / 1000, 1);
const byFile = (list: readonly Fetched[]) =>
  [...list]
    .sort((a, b) => b.headerBytes + b.bodyBytes - (a.headerBytes + a.bodyBytes))
    .map((f) => ({ path: f.path.split('?')[0], dest: f.dest, status: f.status, encoding: f.encoding, kB: kB(f.headerBytes + f.bodyBytes) }));
/** The app shell: anything but the API. */
const shell = (list: readonly Fetched[]) => list.filter((f) => !f.path.startsWith('/api/'));
const engineOf = (list: readonly Fetched[]) => list.filter((f) => f.dest === 'sharedworker' || /\/assets\/shared-/.test(f.path));

export const wire: Benchmark = {
  id: 'wire',
  title: 'Bytes over the wire: a cold start of /login (engine and service worker included), and a repeat start',
  run: () =>
    withApp({}, async (app): Promise<SectionResult> => {
      // A first start warms the server and the browser up (its time would count against whichever ran first).
      await coldAndRepeat(app, true);
      const ours = await coldAndRepeat(app, false);
      const base = await coldAndRepeat(app, true);
      const biggest = byFile(ours.cold).slice(0, 6);
      return {
        ours: `as served: precompressed files and compressed JSON (Chromium asked "${ours.acceptEncoding}")`,
        baseline: 'the same run with Accept-Encoding: identity forced at the proxy',
        figures: [
          figure('cold /login until usable, all bytes', 'kB', kB(total(ours.cold)), kB(total(base.cold)), {
            goal: '≤ 130 kB',
            met: total(ours.cold) <= GOAL_BYTES,
            note: `${ours.cold.length} answers; biggest: ${biggest.map((f) => `${f.path} ${f.kB} kB`).join(', ')}`,
          }),
          figure('  of which the engine (SharedWorker bundle)', 'kB', kB(total(engineOf(ours.cold))), kB(total(engineOf(base.cold)))),
          figure('  of which sw.js', 'kB', kB(total(ours.cold.filter((f) => f.dest === 'serviceworker'))), kB(total(base.cold.filter((f) => f.dest === 'serviceworker')))),
          figure('time to usable /login (form and engine)', 'ms', round(ours.usableMs, 0), round(base.usableMs, 0)),
          figure('service worker precache, in the background', 'kB', kB(total(ours.precache)), kB(total(base.precache)), {
            note: `${ours.precache.length} files (${base.precache.length} in the baseline)`,
          }),
          figure('repeat start: app shell from the network', 'kB', kB(total(shell(ours.repeat))), kB(total(shell(base.repeat))), {
            goal: '0 kB but the page itself (navigations are network-first)',
            met: shell(ours.repeat).every((f) => f.dest === 'document'),
            note: shell(ours.repeat).map((f) => `${f.path.split('?')[0]} (${f.dest})`).join(', ') || 'nothing',
          }),
          figure('repeat start: everything (API included)', 'kB', kB(total(ours.repeat)), kB(total(base.repeat)), {
            note: `${ours.repeat.length} answers`,
          }),
        ],
        details: {
          goalBytes: GOAL_BYTES,
          acceptEncoding: ours.acceptEncoding,
          cold: byFile(ours.cold),
          coldBaseline: byFile(base.cold),
          precache: byFile(ours.precache),
          repeat: byFile(ours.repeat),
          repeatBaseline: byFile(base.repeat),
        },
      };
    }),
};
