/**
 * Lighthouse (mobile: its default Moto G Power emulation, simulated slow 4G and a 4× slower CPU) on a cold
 * /login of the built app, served as `npm start` serves it (precompressed, cache headers), against a plain HTML
 * sign-in form without JavaScript from a bare Node server in the same run — the ceiling for a page that shows a
 * form. Goals: performance ≥ 0.9, total blocking time ≤ 300 ms. Chromium is /usr/bin/chromium (CHROME_PATH).
 *
 * `lighthouse-driver`: the signed-in demo driver's home screen, /current-tasks, the same audit with the sign-in
 * kept (the browser signed in through the real /login first, over CDP). Goals: cumulative layout shift ≤ 0.1,
 * performance ≥ 0.9 (issue 30: the header's arrival and the hours card drawn before the list made it 0.21–0.28).
 */
import { chromium } from 'playwright-core';
import { DEMO, DEMO_PASSWORD } from '../tests/e2e/harness/app.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { figure, round, withApp, type Benchmark, type SectionResult } from './support.ts';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

interface Audit {
  score: number;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
  ttiMs: number;
  unusedJsKb: number;
  clsScore: number;
  /** Lighthouse's main-thread time per script (bootup-time), the biggest first. */
  bootup: { url: string; totalMs: number; scriptingMs: number }[];
}

/** Signs the demo driver in through the real /login in the launched browser, so the audit finds the session. */
async function signInDriver(port: number, loginUrl: string): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.getByLabel('E-mail').fill(DEMO.driver);
    await page.getByLabel('Пароль').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.waitForURL(/\/current-tasks$/);
    await page.locator('main li.drv-card').first().waitFor();
    await page.close();
  } finally {
    // Lets go of the connection only: the browser, with its session, stays for the audit.
    await browser.close().catch(() => undefined);
  }
}

async function audit(url: string, signIn?: (port: number) => Promise<void>): Promise<Audit> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    if (signIn) await signIn(chrome.port);
    const result = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
      output: 'json',
      // The session lives in the engine's IndexedDB: a reset would sign the driver out.
      ...(signIn ? { disableStorageReset: true } : {}),
    });
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const { lhr } = result;
    // A run Lighthouse itself could not score (e.g. it saw no paint in time on a busy machine) measured nothing.
    if (lhr.categories.performance?.score == null) throw new Error(`lighthouse could not score ${url}: ${lhr.runtimeError?.message ?? 'no performance score'}`);
    const value = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
    const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
    return {
      score: Number(lhr.categories.performance?.score ?? NaN),
      tbtMs: value('total-blocking-time'),
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      ttiMs: value('interactive'),
      unusedJsKb: (unused?.overallSavingsBytes ?? 0) / 1000,
      clsScore: value('cumulative-layout-shift'),
      bootup: ((lhr.audits['bootup-time']?.details as { items?: { url: string; total: number; scripting: number }[] } | undefined)?.items ?? [])
        .map((item) => ({ url: item.url.replace(/^https?:\/\/[^/]+/, ''), totalMs: Math.round(item.total), scriptingMs: Math.round(item.scripting) }))
        .slice(0, 6),
    };
  } finally {
    await chrome.kill();
  }
}

/** An audit, asked once more when Lighthouse could not score the first run (and said why on the console). */
async function auditTwice(url: string, signIn?: (port: number) => Promise<void>): Promise<Audit> {
  try {
    return await audit(url, signIn);
  } catch (error) {
    console.warn(`${(error as Error).message}; auditing again`);
    return audit(url, signIn);
  }
}

const PLAIN_FORM = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Вход</title>
<meta name="description" content="Вход"><style>body{font-family:sans-serif;margin:0;padding:24px}label{display:block;margin:12px 0 4px}input{width:100%;padding:8px}button{margin-top:16px;padding:10px 16px}</style></head>
<body><main><h1>Вход</h1><form method="post"><label for="e">E-mail</label><input id="e" name="username" type="email"><label for="p">Пароль</label><input id="p" name="password" type="password"><button>Войти</button></form></main></body></html>`;

async function plainServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(PLAIN_FORM);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const BASELINE = 'a plain HTML sign-in form without JavaScript, same audit, same run';
const mainThread = (ours: Audit) => `main thread by script: ${ours.bootup.map((b) => `${b.url} ${b.totalMs} ms`).join(', ')}`;

/**
 * One of our pages and the plain form, each audited twice in the same run (the app as served, not through the suite's
 * fault proxy); `figures` turns the two audits into the section's rows.
 */
function againstPlainForm(
  ours: string,
  path: string,
  signIn: ((port: number, loginUrl: string) => Promise<void>) | undefined,
  figures: (ours: Audit, base: Audit) => SectionResult['figures'],
): () => Promise<SectionResult> {
  return () =>
    withApp({}, async (app): Promise<SectionResult> => {
      const plain = await plainServer();
      try {
        const audited = await auditTwice(`${app.server.url}${path}`, signIn && ((port) => signIn(port, `${app.server.url}/login`)));
        const base = await auditTwice(plain.url);
        return { ours, baseline: BASELINE, figures: figures(audited, base), details: { bootup: audited.bootup } };
      } finally {
        await plain.close();
      }
    });
}

export const lighthouseLogin: Benchmark = {
  id: 'lighthouse',
  title: 'Lighthouse mobile on a cold /login (performance category)',
  run: againstPlainForm('the built app, /login, cold (Lighthouse mobile: emulated Moto G Power, simulated slow 4G, 4× CPU)', '/login', undefined, (ours, base) => [
    figure('performance score', 'score', round(ours.score, 2), round(base.score, 2), { goal: '≥ 0.9', met: ours.score >= 0.9 }),
    figure('total blocking time', 'ms', round(ours.tbtMs, 0), round(base.tbtMs, 0), { goal: '≤ 300 ms', met: ours.tbtMs <= 300 }),
    figure('first contentful paint', 'ms', round(ours.fcpMs, 0), round(base.fcpMs, 0)),
    figure('largest contentful paint', 'ms', round(ours.lcpMs, 0), round(base.lcpMs, 0)),
    figure('time to interactive', 'ms', round(ours.ttiMs, 0), round(base.ttiMs, 0)),
    figure('unused JavaScript (Lighthouse estimate)', 'kB', round(ours.unusedJsKb, 1), round(base.unusedJsKb, 1), { note: mainThread(ours) }),
  ]),
};

export const lighthouseDriver: Benchmark = {
  id: 'lighthouse-driver',
  title: "Lighthouse mobile on the signed-in driver's /current-tasks (performance category, layout shift)",
  run: againstPlainForm(
    "the built app, the demo driver's /current-tasks, signed in (Lighthouse mobile: emulated Moto G Power, simulated slow 4G, 4× CPU)",
    '/current-tasks',
    signInDriver,
    (ours, base) => [
      figure('performance score', 'score', round(ours.score, 2), round(base.score, 2), { goal: '≥ 0.9', met: ours.score >= 0.9 }),
      figure('cumulative layout shift', 'score', round(ours.clsScore, 3), round(base.clsScore, 3), { goal: '≤ 0.1', met: ours.clsScore <= 0.1 }),
      figure('total blocking time', 'ms', round(ours.tbtMs, 0), round(base.tbtMs, 0)),
      figure('largest contentful paint', 'ms', round(ours.lcpMs, 0), round(base.lcpMs, 0), { note: mainThread(ours) }),
    ],
  ),
};
