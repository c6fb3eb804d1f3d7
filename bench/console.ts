/**
 * The console's server benchmarks over 100 000 seeded tasks: a page of the task list with a search and a date
 * range (the whole HTTP call against the same SQL run raw through better-sqlite3), and an export of every
 * row (the streaming job against exceljs's in-memory Workbook, each in its own process for its memory).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { startTestServer } from '../tests/fixtures/server.ts';
import { makeCompany, makeUser, withAccessToken } from '../tests/fixtures/accounts.ts';
import { spellings } from '../server/tasks/search.ts';
import { seedTasks } from './console-seed.ts';
import { figure, median, percentile, round, type Benchmark, type SectionResult } from './support.ts';

const TASKS = 100_000;
const RUNS = 30;
const run = promisify(execFile);

async function world() {
  const server = await startTestServer({ listen: false });
  const company = await makeCompany(server, 'Бенчмарк');
  const manager = await withAccessToken(server, await makeUser(server, 'manager', company));
  const drivers = await Promise.all(Array.from({ length: 10 }, (_, i) => makeUser(server, 'driver', company, { name: `Водитель ${i + 1}` })));
  const file = join(server.config.dataDir, 'reis.sqlite');
  seedTasks(file, company, drivers.map((d) => d.id), TASKS);
  return { server, company, manager, file };
}

async function timed(fn: () => unknown | Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 3; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

export const taskList: Benchmark = {
  id: 'task-list',
  title: `GET /tasks/completed/: a page of 50 with a search and a date range over ${TASKS.toLocaleString('ru-RU')} tasks`,
  async run(): Promise<SectionResult> {
    const { server, company, manager, file } = await world();
    try {
      const search = 'щебень';
      const url = `/api/tasks/completed/?status=all&search=${encodeURIComponent(search)}&date_from=2026-03-01&date_to=2026-05-31&limit=50`;
      const first = await server.app.inject({ method: 'GET', url, headers: manager.auth });
      if (first.statusCode !== 200) throw new Error(`list answered ${first.statusCode}: ${first.body}`);
      const total = (first.json() as { total: number }).total;
      const ours = await timed(() => server.app.inject({ method: 'GET', url, headers: manager.auth }));

      // The same statements the server runs, prepared once and run raw: the floor of what the call can cost.
      const raw = new SQLite(file, { readonly: true });
      const likes = ['cargo', 'loading_place', 'unloading_place'].flatMap((c) => spellings(search).map(() => `t.${c} like ? escape '\\'`)).join(' or ');
      const likeArgs = ['cargo', 'loading_place', 'unloading_place'].flatMap(() => spellings(search).map((s) => `%${s}%`));
      const where = `t.company_id = ? and t.date >= ? and t.date <= ? and (${likes})`;
      const args = [company, '2026-03-01', '2026-05-31', ...likeArgs];
      const count = raw.prepare(`select count(*) as n from tasks t where ${where}`);
      const page = raw.prepare(`select t.id from tasks t where ${where} order by t.date desc, t.id desc limit 50 offset 0`);
      const plan = raw.prepare(`explain query plan select t.id from tasks t where ${where} order by t.date desc, t.id desc limit 50 offset 0`).all(...args) as { detail: string }[];
      const baseline = await timed(() => {
        count.get(...args);
        const ids = (page.all(...args) as { id: number }[]).map((r) => r.id);
        const marks = ids.map(() => '?').join(',');
        raw.prepare(`select * from tasks where id in (${marks})`).all(...ids);
        raw
          .prepare(
            `select td.*, u.name as driver_name, (select count(*) from reports r where r.association_id = td.id) as report_count,
             (select max(r.id) from reports r where r.association_id = td.id) as last_report_id,
             (select max(r.created_at) from reports r where r.association_id = td.id) as last_report_at,
             (select sum(r.quantity) from reports r where r.association_id = td.id) as reported_quantity
             from task_drivers td left join users u on u.id = td.driver_id where td.task_id in (${marks}) order by td.order_index, td.id`,
          )
          .all(...ids);
      });
      raw.close();
      const ratio = median(ours) / median(baseline);
      const scans = plan.filter((p) => /^SCAN/.test(p.detail));
      return {
        ours: 'the whole call: app.inject → auth, zod, Kysely, JSON',
        baseline: 'the same SQL through better-sqlite3, prepared, in this process',
        figures: [
          figure('median per page', 'ms', round(median(ours), 2), round(median(baseline), 2), { goal: '≤ 3×', met: ratio <= 3, note: `${total} matching tasks` }),
          figure('p95 per page', 'ms', round(percentile(ours, 95), 2), round(percentile(baseline, 95), 2)),
        ],
        details: { queryPlan: plan.map((p) => p.detail), scans: scans.map((p) => p.detail), runs: RUNS, tasks: TASKS },
      };
    } finally {
      await server.close();
    }
  },
};

export const exportRows: Benchmark = {
  id: 'export',
  title: `Export of ${TASKS.toLocaleString('ru-RU')} rows to xlsx`,
  async run(): Promise<SectionResult> {
    const { server, manager, file: live } = await world();
    const out = mkdtempSync(join(tmpdir(), 'reis-export-bench-'));
    // A consistent copy of its own: the test server (and its export runner) is closed before the children run.
    const file = join(out, 'bench.sqlite');
    const copy = new SQLite(live);
    copy.prepare('vacuum into ?').run(file);
    copy.close();
    await server.close();
    try {
      const user = JSON.stringify({ id: manager.id, email: manager.email, name: manager.name, role: 'manager', company_id: manager.company_id, device_id: 'bench' });
      const child = async (mode: 'stream' | 'workbook') => {
        const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/export-child.ts', file, mode, user, out], { maxBuffer: 1 << 20, timeout: 5 * 60_000 });
        return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { rows: number; ms: number; startRss: number; peakRss: number };
      };
      const ours = await child('stream');
      const base = await child('workbook');
      const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
      const rate = (r: { rows: number; ms: number }) => round(r.rows / (r.ms / 1000), 0);
      const growth = ours.peakRss - ours.startRss;
      return {
        ours: 'the server\'s export job: exceljs streaming WorkbookWriter, 200 tasks a chunk, backpressure awaited',
        baseline: 'the same rows with exceljs\'s in-memory Workbook and writeFile',
        figures: [
          figure('rows per second', 'rows/s', rate(ours), rate(base), { goal: 'no slower', met: rate(ours) >= rate(base) * 0.95, note: `${ours.rows} rows` }),
          figure('peak RSS growth of the process', 'MB', mb(growth), mb(base.peakRss - base.startRss), { goal: '< 150 MB', met: growth < 150 * 1024 * 1024 }),
        ],
        details: { ours, baseline: base },
      };
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  },
};
