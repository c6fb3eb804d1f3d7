/**
 * A carrier's years (issue 35, docs/scale.md): the hot calls of drivers and staff on a database seeded by
 * `seed:scale` (3 years, 200 trucks, 50 small carriers by default), against the same calls on the demo database.
 * The seeded database is made once per set of options and kept under .tmp/scale/ (git-ignored); the real server
 * runs on it as a process of its own, its resident memory sampled every 25 ms. Each call: one warm-up, then the
 * median of 5 (the slowest jobs once); while the heaviest staff calls run, a driver's GET /tasks/assigned/ is timed
 * in a loop (how long they delay everyone else). `--pg` (or DATABASE_URL / TEST_DATABASE_URL) measures PostgreSQL
 * too, its rows printed after SQLite's. Options: `--years`, `--days`, `--trucks`, `--carriers`; `--calls a,b` measures only
 * those calls (their keys below) and the delay check.
 *
 * Unlike the other benchmarks its goals decide the exit code (run.ts: `strictGoals`): a missed goal fails the run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { openDb, type Db } from '../server/db/connect.ts';
import { seedDemo, DEMO_PASSWORD } from '../server/db/seed.ts';
import { openScaleDb, SCALE_PASSWORD, seedScale, type ScaleSummary } from '../server/db/scale-seed.ts';
import { scaleOptions, SCALE_ARGS } from '../server/seed-scale.ts';
import { localToday } from '../server/tasks/scope.ts';
import { confirmedOf, type PayrollClose, type PayrollMonth } from '../contract/money.ts';
import { encodeForm, reportForm } from '../tests/fixtures/forms.ts';
import { figure, median, percentile, round, rssMb, sleep, startServerProcess, type Benchmark, type Figure, type SectionResult, type ServerProcess } from './support.ts';

const RUNS = 5;
/** A call still running after this is given up; the server, whose event loop it may hold, is started again. */
const CALL_TIMEOUT_MS = 300_000;

type Server = ServerProcess;

const startServer = (dataDir: string, databaseUrl: string | undefined) => startServerProcess(dataDir, { DATABASE_URL: databaseUrl ?? '', REQUEST_TIMEOUT_MS: String(CALL_TIMEOUT_MS) });

/** What the calls are made on: the company, its month, a driver with a part open on the last day. */
interface Plan {
  label: string;
  companyId: number;
  /** The last day of the data (the seed's end; today for the demo) and its month, the month before. */
  end: string;
  month: string;
  closedMonth: string;
  adminEmail: string;
  superEmail: string;
  driverEmail: string;
  driverId: number;
  associationId: number;
  otherDriverEmail: string;
  taskId: number;
  surname: string;
  password: string;
}

const monthBefore = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

async function makePlan(db: Db, label: string, companyId: number, end: string, emails: { admin: string; super: string }, password: string): Promise<Plan> {
  const open = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .select(['td.id', 'td.task_id', 'td.driver_id', 'u.email', 'u.name'])
    .where('t.company_id', '=', companyId)
    .where('td.status', 'in', ['accepted', 'in_progress'])
    .where('t.date', '<=', end)
    .orderBy('t.date', 'desc')
    .orderBy('td.id')
    .limit(50)
    .execute();
  const first = open[0];
  if (!first) throw new Error(`${label}: no driver with an open part`);
  const other = open.find((r) => r.driver_id !== first.driver_id) ?? first;
  const month = end.slice(0, 7);
  return {
    label,
    companyId,
    end,
    month,
    closedMonth: monthBefore(month),
    adminEmail: emails.admin,
    superEmail: emails.super,
    driverEmail: first.email,
    driverId: first.driver_id,
    associationId: first.id,
    otherDriverEmail: other.email,
    taskId: first.task_id,
    surname: first.name.split(' ').at(-1) ?? first.name,
    password,
  };
}

async function token(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, device_id: randomUUID(), device_info: 'bench scale' }),
  });
  if (!res.ok) throw new Error(`login ${email}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One measured call's outcome: time, the server's memory growth while it ran, and what it answered. */
interface Sample {
  ms: number;
  rssGrowthMb: number;
  status: number;
  body: string;
}

class Meter {
  private peak = 0;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => (this.peak = Math.max(this.peak, rssMb(pid))), 25);
  }
  /** Runs `call`, timed at the client, with the server's peak RSS above where it started. */
  async sample(call: () => Promise<Response>): Promise<Sample> {
    const before = rssMb(this.pid);
    this.peak = before;
    const t0 = performance.now();
    const res = await call();
    const body = await res.text();
    const ms = performance.now() - t0;
    this.peak = Math.max(this.peak, rssMb(this.pid));
    return { ms, rssGrowthMb: this.peak - before, status: res.status, body };
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

interface Measured {
  medianMs: number;
  maxMs: number;
  rssGrowthMb: number;
  runs: number;
  note?: string;
}

interface Call {
  key: string;
  title: string;
  /** Not interactive: the 200 ms rule does not apply (a sheet, an export). */
  job?: boolean;
  runs?: number;
  warmup?: boolean;
  /** Calls made before the measured ones (1 by default, 0 with `warmup: false`). */
  warmups?: number;
  run(ctx: Ctx): Promise<Sample>;
  /** After each run (undo what it changed: reopen a closed month, delete a posted report). */
  after?(ctx: Ctx, sample: Sample): Promise<void>;
}

interface Ctx {
  plan: Plan;
  server: Server;
  meter: Meter;
  admin: string;
  superAdmin: string;
  driver: string;
}

const get = (ctx: Ctx, path: string, auth: string) => () => fetch(`${ctx.server.base}/api${path}`, { headers: { authorization: `Bearer ${auth}`, 'accept-encoding': 'gzip' }, signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
const post = (ctx: Ctx, path: string, auth: string, body: unknown) => () =>
  fetch(`${ctx.server.base}/api${path}`, { method: 'POST', headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });

/**
 * A different picture for each report, as drivers' are (a smooth 1024×768 JPEG of random colours, ~30 kB): the
 * duplicate-photo search probes the index pages of its own hash, so one photo sent again and again read the same
 * pages each time, warm after the first call, and hid what a new photo's search costs on a big database.
 */
async function tripPhoto(): Promise<Buffer> {
  return sharp(randomBytes(16 * 12 * 3), { raw: { width: 16, height: 12, channels: 3 } }).resize(1024, 768).jpeg({ quality: 70 }).toBuffer();
}

/**
 * The answer of GET /payroll/closes/{id} once the close has ended (read every 20 ms: the time to done is measured to
 * within that); a failed close is answered as its failure's status, so the run reports it.
 */
async function closeEnded(ctx: Ctx, id: number): Promise<Response> {
  for (;;) {
    const res = await get(ctx, `/payroll/closes/${id}`, ctx.admin)();
    const close = (await res.clone().json()) as PayrollClose;
    if (close.status === 'done') return res;
    if (close.status === 'failed') return new Response(JSON.stringify({ detail: close.error }), { status: close.error_status ?? 500 });
    await sleep(20);
  }
}

const reopenMeasured = async (ctx: Ctx): Promise<void> => {
  await post(ctx, '/payroll/reopen', ctx.superAdmin, { company_id: ctx.plan.companyId, month: ctx.plan.month, reason: 'bench: measured close' })();
};

const yearBefore = (end: string) => new Date(Date.parse(`${end}T00:00:00Z`) - 364 * 86_400_000).toISOString().slice(0, 10);

const ALL_CALLS: Call[] = [
  {
    key: 'report',
    title: 'driver: POST /reports/ with one photo',
    // Its goal is a ratio to the demo's ~15 ms: five samples of each moved it between 1.1× and 3.5× from run to run
    // on the shared machine; fifteen (a report is cheap) steady it. Five calls first: one left the path half-warm
    // (its JPEG decoding, hashing and statements still being optimised), and its median then moved between 17 and
    // 29 ms from one server to the next.
    runs: 15,
    warmups: 5,
    async run(ctx) {
      const form = reportForm({ association_id: ctx.plan.associationId, quantity: '20', loading_is_buyer: '0', unloading_is_buyer: '0', ticket_number: `B-${randomUUID().slice(0, 8)}` }, [{ data: await tripPhoto(), filename: 'bench.jpg' }]);
      const { payload, headers } = await encodeForm(form);
      return ctx.meter.sample(() =>
        fetch(`${ctx.server.base}/api/reports/`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${ctx.driver}`, 'idempotency-key': randomUUID() }, body: new Uint8Array(payload), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }),
      );
    },
    async after(ctx, sample) {
      const id = (JSON.parse(sample.body) as { id?: number }).id;
      if (id) await fetch(`${ctx.server.base}/api/reports/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${ctx.driver}` } });
    },
  },
  { key: 'driver-months', title: 'driver: his closed months (GET /payroll/driver/{id})', run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/driver/${ctx.plan.driverId}`, ctx.driver)) },
  {
    key: 'driver-month-items',
    title: "driver: a closed month's lines (GET /payroll/driver/{id}/{company}/{month})",
    run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/driver/${ctx.plan.driverId}/${ctx.plan.companyId}/${ctx.plan.closedMonth}`, ctx.driver)),
  },
  { key: 'assigned', title: 'driver: GET /tasks/assigned/', run: (ctx) => ctx.meter.sample(get(ctx, '/tasks/assigned/', ctx.driver)) },
  { key: 'driver-completed', title: 'driver: GET /tasks/driver/completed', run: (ctx) => ctx.meter.sample(get(ctx, '/tasks/driver/completed', ctx.driver)) },
  { key: 'driver-wages', title: 'driver: his month (GET /wages/driver/{id})', run: (ctx) => ctx.meter.sample(get(ctx, `/wages/driver/${ctx.plan.driverId}?start_date=${ctx.plan.month}-01&end_date=${ctx.plan.end}`, ctx.driver)) },
  { key: 'pending', title: 'staff: GET /reports/ pending this month', run: (ctx) => ctx.meter.sample(get(ctx, `/reports/?review=pending&date_from=${ctx.plan.month}-01&date_to=${ctx.plan.end}`, ctx.admin)) },
  { key: 'pending-flag', title: 'staff: GET /reports/ this month, flagged', run: (ctx) => ctx.meter.sample(get(ctx, `/reports/?flag=any&date_from=${ctx.plan.month}-01&date_to=${ctx.plan.end}`, ctx.admin)) },
  { key: 'pending-search', title: 'staff: GET /reports/ this month, searched by driver', run: (ctx) => ctx.meter.sample(get(ctx, `/reports/?search=${encodeURIComponent(ctx.plan.surname)}&date_from=${ctx.plan.month}-01&date_to=${ctx.plan.end}`, ctx.admin)) },
  { key: 'stats-month', title: 'staff: statistics for a month', run: (ctx) => ctx.meter.sample(get(ctx, `/wages/company/${ctx.plan.companyId}?start_date=${ctx.plan.month}-01&end_date=${ctx.plan.end}`, ctx.admin)) },
  { key: 'stats-year', title: 'staff: statistics for a year', runs: 3, run: (ctx) => ctx.meter.sample(get(ctx, `/wages/company/${ctx.plan.companyId}?start_date=${yearBefore(ctx.plan.end)}&end_date=${ctx.plan.end}`, ctx.admin)) },
  { key: 'stats-all', title: 'staff: statistics «Всё время»', runs: 1, warmup: false, run: (ctx) => ctx.meter.sample(get(ctx, `/wages/company/${ctx.plan.companyId}`, ctx.admin)) },
  { key: 'payroll-open', title: 'GET /payroll/ of a month, open', run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/?month=${ctx.plan.month}`, ctx.admin)) },
  { key: 'payroll-closed', title: 'GET /payroll/ of a month, closed', run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/?month=${ctx.plan.closedMonth}`, ctx.admin)) },
  { key: 'payroll-items', title: "GET /payroll/items: a driver's loads of the open month", run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/items?month=${ctx.plan.month}&driver_id=${ctx.plan.driverId}`, ctx.admin)) },
  {
    key: 'close',
    title: 'POST /payroll/close: the close started (202, a job; waited for and reopened after)',
    runs: 3,
    async run(ctx) {
      // The figures the admin confirms (as the close dialog sends them): read before the timed call.
      const month = (await (await get(ctx, `/payroll/?month=${ctx.plan.month}`, ctx.admin)()).json()) as PayrollMonth;
      return ctx.meter.sample(post(ctx, '/payroll/close', ctx.admin, { month: ctx.plan.month, confirmed: confirmedOf(month) }));
    },
    async after(ctx, sample) {
      await closeEnded(ctx, (JSON.parse(sample.body) as PayrollClose).id);
      await reopenMeasured(ctx);
    },
  },
  {
    key: 'close-job',
    title: "a month's close until done (POST /payroll/close, then GET /payroll/closes/{id}; reopened after)",
    job: true,
    runs: 3,
    async run(ctx) {
      const month = (await (await get(ctx, `/payroll/?month=${ctx.plan.month}`, ctx.admin)()).json()) as PayrollMonth;
      return ctx.meter.sample(async () => {
        const started = await post(ctx, '/payroll/close', ctx.admin, { month: ctx.plan.month, confirmed: confirmedOf(month) })();
        if (started.status !== 202) return started;
        return closeEnded(ctx, ((await started.json()) as PayrollClose).id);
      });
    },
    after: (ctx) => reopenMeasured(ctx),
  },
  { key: 'sheet', title: 'payroll sheet xlsx (a closed month)', job: true, runs: 3, run: (ctx) => ctx.meter.sample(get(ctx, `/payroll/${ctx.plan.companyId}/${ctx.plan.closedMonth}/sheet`, ctx.admin)) },
  { key: 'search-driver', title: 'task search by driver name', run: (ctx) => ctx.meter.sample(get(ctx, `/tasks/completed/?search=${encodeURIComponent(ctx.plan.surname)}`, ctx.admin)) },
  { key: 'search-cargo', title: 'task search by cargo text', run: (ctx) => ctx.meter.sample(get(ctx, `/tasks/completed/?search=${encodeURIComponent('щебень')}`, ctx.admin)) },
  { key: 'active', title: 'staff: GET /tasks/active/', run: (ctx) => ctx.meter.sample(get(ctx, '/tasks/active/', ctx.admin)) },
  { key: 'board', title: 'staff: the board of the last day', run: (ctx) => ctx.meter.sample(get(ctx, `/dispatch/board?date=${ctx.plan.end}`, ctx.admin)) },
  { key: 'history', title: "staff: a task's history", run: (ctx) => ctx.meter.sample(get(ctx, `/audit/?entity=task&id=${ctx.plan.taskId}`, ctx.admin)) },
  {
    key: 'export',
    title: 'completed-tasks export, a year (job until done)',
    job: true,
    runs: 1,
    warmup: false,
    async run(ctx) {
      return ctx.meter.sample(async () => {
        const created = await post(ctx, '/tasks/completed/export', ctx.admin, { date_from: yearBefore(ctx.plan.end), date_to: ctx.plan.end })();
        const job = (await created.json()) as { id: number };
        for (;;) {
          const res = await get(ctx, `/tasks/completed/export/${job.id}`, ctx.admin)();
          const state = (await res.clone().json()) as { status: string };
          if (state.status === 'done' || state.status === 'failed') return res;
          await sleep(200);
        }
      });
    },
  },
];

async function measureCall(ctx: Ctx, call: Call): Promise<Measured> {
  const runs = call.runs ?? RUNS;
  const times: number[] = [];
  let growth = 0;
  for (let i = (call.warmup ?? true) ? -(call.warmups ?? 1) : 0; i < runs; i++) {
    let sample: Sample;
    try {
      sample = await call.run(ctx);
    } catch (error) {
      return { medianMs: Number.NaN, maxMs: Number.NaN, rssGrowthMb: growth, runs: times.length, note: `failed: ${String((error as Error).message ?? error)}` };
    }
    if (sample.status >= 400) return { medianMs: Number.NaN, maxMs: Number.NaN, rssGrowthMb: growth, runs: times.length, note: `HTTP ${sample.status}: ${sample.body.slice(0, 120)}` };
    await call.after?.(ctx, sample);
    if (i >= 0) {
      times.push(sample.ms);
      growth = Math.max(growth, sample.rssGrowthMb);
    }
  }
  return { medianMs: median(times), maxMs: Math.max(...times), rssGrowthMb: growth, runs: times.length };
}

/** `--only key,key`: measure only these calls (e.g. `--only payroll-open,payroll-closed,close,sheet`); every call by default. */
const only = (parseArgs({ args: process.argv.slice(2), options: { only: { type: 'string' } }, allowPositionals: true, strict: false }).values.only as string | undefined)?.split(',');
const CALLS = only ? ALL_CALLS.filter((c) => only.includes(c.key) || c.key === 'assigned') : ALL_CALLS;

/** A driver's GET /tasks/assigned/ in a loop while `heavy` runs: how much longer it took than alone. */
async function delays(ctx: Ctx, idleMs: number, heavy: (running: (key: string) => void) => Promise<void>): Promise<Delay> {
  const other = await token(ctx.server.base, ctx.plan.otherDriverEmail, ctx.plan.password);
  const call = get(ctx, '/tasks/assigned/', other);
  const times: number[] = [];
  // Which heavy call ran while each sample was taken: the largest delay per heavy call is printed.
  let current = '';
  const byCall = new Map<string, number>();
  let errors = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      // A keep-alive socket the server closed while its event loop was held resets: the call is made again, and
      // the time it took in all counts.
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          await (await call()).arrayBuffer();
          break;
        } catch {
          errors += 1;
        }
      }
      const took = performance.now() - t0;
      times.push(took);
      if (current) byCall.set(current, Math.max(byCall.get(current) ?? 0, took - idleMs));
      await sleep(20);
    }
  })();
  try {
    await heavy((key) => {
      current = key;
    });
  } finally {
    running = false;
    await loop;
  }
  const extra = times.map((t) => Math.max(0, t - idleMs));
  const worst = [...byCall].map(([key, ms]) => `${key} ${Math.round(Math.max(0, ms))}`).join(', ');
  return { max: Math.max(0, ...extra), p99: percentile(extra, 99), samples: times.length, errors, worst };
}

interface Delay {
  max: number;
  p99: number;
  samples: number;
  /** Calls that failed at the socket (and were made again). */
  errors: number;
  /** The largest delay seen while each heavy call ran, e.g. `close 120, sheet 40`. */
  worst: string;
}

interface Run {
  label: string;
  results: Map<string, Measured>;
  delay: Delay;
  idleRssMb: number;
}

async function measure(plan: Plan, start: () => Promise<Server>, log: (line: string) => void, calls: readonly Call[]): Promise<Run> {
  const server = await start();
  const ctx: Ctx = { plan, server, meter: new Meter(server.pid), admin: '', superAdmin: '', driver: '' };
  // Access tokens live 15 minutes, and a run on the big database is longer: signed in again before each call.
  const signIn = async () => {
    ctx.admin = await token(ctx.server.base, plan.adminEmail, plan.password);
    ctx.superAdmin = await token(ctx.server.base, plan.superEmail, plan.password);
    ctx.driver = await token(ctx.server.base, plan.driverEmail, plan.password);
  };
  try {
    const idleRssMb = rssMb(ctx.server.pid);
    const results = new Map<string, Measured>();
    for (const call of calls) {
      await signIn();
      const m = await measureCall(ctx, call);
      results.set(call.key, m);
      log(`  ${plan.label}: ${call.title}: ${round(m.medianMs, 0)} ms (max ${round(m.maxMs, 0)}, RSS +${round(m.rssGrowthMb, 0)} MB)${m.note ? ` ${m.note}` : ''}`);
      if (m.note?.startsWith('failed')) {
        // A call given up may still hold the server's event loop for minutes: the next call gets a fresh server.
        log(`  ${plan.label}: restarting the server after a call given up`);
        ctx.meter.stop();
        await ctx.server.stop();
        ctx.server = await start();
        ctx.meter = new Meter(ctx.server.pid);
      }
    }
    await signIn();
    const idle = results.get('assigned')?.medianMs ?? (await measureCall(ctx, CALLS.find((c) => c.key === 'assigned') as Call)).medianMs;
    const heavy = CALLS.filter((c) => ['stats-year', 'sheet', 'close-job', 'payroll-closed', 'stats-month'].includes(c.key));
    const delay = await delays(ctx, idle, async (running) => {
      for (const call of heavy) {
        running(call.key);
        const sample = await call.run(ctx).catch(() => null);
        if (sample) await call.after?.(ctx, sample);
      }
    });
    log(`  ${plan.label}: a driver's GET /tasks/assigned/ delayed by up to ${round(delay.max, 0)} ms (p99 ${round(delay.p99, 0)}) over ${delay.samples} calls${delay.errors ? `, ${delay.errors} reset at the socket and made again` : ''}; by heavy call: ${delay.worst}`);
    return { label: plan.label, results, delay, idleRssMb };
  } finally {
    ctx.meter.stop();
    await ctx.server.stop();
  }
}

/** The goals of issue 35 item 2, per call: the figure checked and the rule. */
function goalOf(call: Call, big: Measured, demo: Measured | undefined): { goal: string; met: boolean }[] {
  const ms = big.medianMs;
  switch (call.key) {
    case 'report':
      return [{ goal: '≤ 2× demo', met: demo !== undefined && ms <= 2 * demo.medianMs }];
    case 'driver-months':
    case 'payroll-closed':
      return [{ goal: '≤ 50 ms', met: ms <= 50 }];
    case 'stats-year':
      return [{ goal: '≤ 1000 ms', met: ms <= 1000 }];
    case 'stats-all':
      return [{ goal: '≤ 2000 ms', met: ms <= 2000 }];
    case 'sheet':
    case 'close-job':
      return [{ goal: '≤ 1000 ms', met: ms <= 1000 }];
    case 'export':
      return [];
    default:
      return [{ goal: '≤ 200 ms', met: ms <= 200 }];
  }
}

const RSS_GOALS: Record<string, number> = { 'stats-year': 200, 'stats-all': 200, export: 150 };

function figures(big: Run, demo: Run, prefix: string): Figure[] {
  const out: Figure[] = [];
  for (const call of CALLS) {
    const b = big.results.get(call.key);
    if (!b) continue;
    const d = demo.results.get(call.key);
    const [g] = goalOf(call, b, d);
    const ok = !Number.isNaN(b.medianMs);
    out.push(figure(`${prefix}${call.title}`, 'ms', ok ? round(b.medianMs, 0) : null, d && !Number.isNaN(d.medianMs) ? round(d.medianMs, 1) : null, {
      ...(g ? { goal: g.goal, met: ok && g.met } : {}),
      note: b.note ?? `median of ${b.runs}, max ${round(b.maxMs, 0)} ms, RSS +${round(b.rssGrowthMb, 0)} MB`,
    }));
    const rssGoal = RSS_GOALS[call.key];
    if (rssGoal !== undefined) {
      out.push(figure(`${prefix}${call.title}: server RSS growth`, 'MB', round(b.rssGrowthMb, 0), d ? round(d.rssGrowthMb, 0) : null, { goal: `≤ ${rssGoal} MB`, met: ok && b.rssGrowthMb <= rssGoal }));
    }
  }
  out.push(
    figure(`${prefix}a driver's GET /tasks/assigned/ delayed by the heaviest staff calls: max`, 'ms', round(big.delay.max, 0), round(demo.delay.max, 0), { goal: '≤ 100 ms', met: big.delay.max <= 100, note: `p99 ${round(big.delay.p99, 0)} ms over ${big.delay.samples} calls${big.delay.errors ? ` (${big.delay.errors} socket resets)` : ''} (demo p99 ${round(demo.delay.p99, 0)})` }),
  );
  return out;
}

/** The seeded database of these options, made once and kept: SQLite under .tmp/scale/, PostgreSQL as a database of the server. */
async function cachedSeed(key: string, options: ReturnType<typeof scaleOptions>, databaseUrl: string | undefined, log: (line: string) => void): Promise<{ dataDir: string; databaseUrl: string | undefined; summary: ScaleSummary & { end: string } }> {
  const dataDir = resolve('.tmp/scale', databaseUrl ? `${key}-pg` : key);
  const summaryFile = join(dataDir, 'summary.json');
  let url: string | undefined;
  if (databaseUrl) {
    const name = `reis_scale_${key.replace(/[^a-z0-9]/gi, '_')}`.toLowerCase();
    const u = new URL(databaseUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    const cached = exists && existsSync(summaryFile) && (JSON.parse(readFileSync(summaryFile, 'utf8')) as { url?: string }).url === url;
    if (!cached) {
      if (exists) await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
    }
    await admin.end();
    if (cached) return { dataDir, databaseUrl: url, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as ScaleSummary & { end: string } };
  } else if (existsSync(summaryFile)) {
    return { dataDir, databaseUrl: undefined, summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as ScaleSummary & { end: string } };
  }
  rmSync(dataDir, { recursive: true, force: true });
  log(`seeding ${databaseUrl ? 'PostgreSQL' : 'SQLite'} (${JSON.stringify(options)}) into ${dataDir}: once for these options`);
  const summary = { ...(await seedScale({ dataDir, databaseUrl: url }, options, (line) => log(`  ${line}`))), end: options.end, url };
  writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
  return { dataDir, databaseUrl: url, summary };
}

async function scaleRun(seeded: Awaited<ReturnType<typeof cachedSeed>>, label: string, log: (line: string) => void, calls: readonly Call[]): Promise<Run> {
  const db = await openScaleDb({ dataDir: seeded.dataDir, databaseUrl: seeded.databaseUrl });
  const { summary } = seeded;
  const plan = await makePlan(db, label, summary.bigCompanyId, summary.end, { admin: summary.accounts.admin, super: summary.accounts.superAdmin }, SCALE_PASSWORD).finally(() => db.close());
  return measure(plan, () => startServer(seeded.dataDir, seeded.databaseUrl), log, calls);
}

/**
 * The same calls on the demo database: SQLite, or with `serverUrl` a database of its own on that PostgreSQL server
 * (made for the run, dropped after) — a PostgreSQL row's ratio is to the demo on PostgreSQL, its round trips too.
 */
async function demoRun(log: (line: string) => void, calls: readonly Call[], serverUrl?: string): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reis-scale-demo-'));
  const name = 'reis_bench_demo';
  const admin = serverUrl ? new pg.Client({ connectionString: serverUrl }) : null;
  let databaseUrl: string | undefined;
  try {
    if (admin && serverUrl) {
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`create database ${name}`);
      const u = new URL(serverUrl);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
    }
    const db = await openDb({ sqliteFile: join(dataDir, 'reis.sqlite'), databaseUrl });
    await seedDemo(db);
    const company = await db.kysely.selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const plan = await makePlan(db, 'demo', company.id, localToday(), { admin: 'admin@demo.local', super: 'super@demo.local' }, DEMO_PASSWORD).finally(() => db.close());
    return await measure(plan, () => startServer(dataDir, databaseUrl), log, calls);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await admin.end();
    }
  }
}

/** A throwaway PostgreSQL (scripts/ci-postgres.sh) when --pg is asked without a server to use. */
function throwawayPostgres(): { url: string; stop(): void } {
  const out = execFileSync('bash', ['scripts/ci-postgres.sh', 'start'], { encoding: 'utf8' });
  const url = /^TEST_DATABASE_URL=(.+)$/m.exec(out)?.[1];
  const dir = /^PG_DIR=(.+)$/m.exec(out)?.[1];
  if (!url || !dir) throw new Error(`scripts/ci-postgres.sh start did not give a server:\n${out}`);
  return { url, stop: () => execFileSync('bash', ['scripts/ci-postgres.sh', 'stop', dir]) };
}

export const scale: Benchmark = {
  id: 'scale',
  title: "A carrier's years: the hot calls on the scale seed against the demo (issue 35)",
  strictGoals: true,
  watchdogMinutes: 240,
  async run(): Promise<SectionResult> {
    const { values } = parseArgs({ args: process.argv.slice(2), options: { ...SCALE_ARGS, pg: { type: 'boolean' }, 'pg-only': { type: 'boolean' }, calls: { type: 'string' } }, allowPositionals: true, strict: false });
    // `--calls report,stats-year`: only these (the keys in CALLS), for a quick look at one fix; the delay check always runs.
    const only = typeof values.calls === 'string' ? values.calls.split(',') : null;
    const unknown = only?.filter((k) => !CALLS.some((c) => c.key === k)) ?? [];
    if (unknown.length > 0) throw new Error(`--calls: unknown ${unknown.join(', ')}; known: ${CALLS.map((c) => c.key).join(', ')}`);
    const calls = only ? CALLS.filter((c) => only.includes(c.key)) : CALLS;
    const options = scaleOptions({ ...(values as Record<string, string | undefined>), end: undefined });
    const key = `d${options.days}-t${options.trucks}-c${options.carriers}-s${options.seed}`;
    const log = (line: string) => process.stdout.write(`${line}\n`);

    // `--pg-only`: PostgreSQL beside the demo, the SQLite run left out (the SQLite seed is still read for its counts).
    const pgOnly = values['pg-only'] === true;
    const sqlite = await cachedSeed(key, options, undefined, log);
    log(`SQLite: ${sqlite.dataDir} (data up to ${sqlite.summary.end})`);
    const demo = pgOnly ? null : await demoRun(log, calls);
    const big = pgOnly ? null : await scaleRun(sqlite, 'sqlite', log, calls);
    const out = big && demo ? figures(big, demo, '') : [];

    const envUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
    let pgNote = '';
    let pgDemo: Run | null = null;
    if (values.pg || pgOnly || envUrl) {
      const throwaway = envUrl ? null : throwawayPostgres();
      try {
        const serverUrl = envUrl ?? throwaway?.url;
        const seeded = await cachedSeed(key, options, serverUrl, log);
        pgDemo = await demoRun(log, calls, serverUrl);
        const run = await scaleRun(seeded, 'postgres', log, calls);
        out.push(...figures(run, pgDemo, 'pg: '));
        pgNote = '; rows «pg:» the same on PostgreSQL';
      } finally {
        throwaway?.stop();
      }
    }
    return {
      ours: `the scale seed (${options.days} days, ${options.trucks} trucks, ${options.carriers} small carriers; ${pgOnly ? 'PostgreSQL only' : `SQLite${pgNote}`}), the big carrier's staff and one of its drivers`,
      baseline: `the same calls on the demo database, same run: ${[demo ? 'SQLite' : null, pgDemo ? '«pg:» rows on the demo seeded into PostgreSQL' : null].filter(Boolean).join('; ')}`,
      figures: out,
      details: { options, counts: sqlite.summary.counts, seedSeconds: sqlite.summary.seconds, demoIdleRssMb: demo?.idleRssMb, pgDemoIdleRssMb: pgDemo?.idleRssMb, idleRssMb: big?.idleRssMb },
    };
  },
};
