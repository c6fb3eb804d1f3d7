/**
 * The scale seed (server/db/scale-seed.ts, `npm run seed:scale`) at a small size: 40 days, 3 trucks and 2 small
 * carriers. The app answers on what it wrote: the rows are there and the same for the same options, a closed
 * month's payroll reads the lines its close stored, a driver's closed months add up to them, the statistics of a
 * closed month agree with its payroll, the review queue holds the last days, a real photo file is served.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, freshPostgres, type TestServer } from '../fixtures/server.ts';
import { call, login } from '../fixtures/accounts.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/connect.ts';
import { BIG_EMAIL, openScaleDb, SCALE_PASSWORD, seedScale, type ScaleOptions, type ScaleSummary } from '../../server/db/scale-seed.ts';
import type { CompanyWages, DriverPayrollMonth, PayrollMonth } from '../../contract/money.ts';

const OPTIONS: ScaleOptions = { days: 40, trucks: 3, carriers: 2, end: '2026-03-10', seed: 7, photoFiles: 2 };

/** Every row of the seed's main tables, hashed: what "the same for the same options" compares. */
function fingerprint(file: string): string {
  const db = new SQLite(file, { readonly: true });
  const hash = createHash('sha256');
  for (const table of ['users', 'tasks', 'task_drivers', 'reports', 'report_photos', 'audit_log', 'transfers', 'daily_hours']) {
    // A password hash has a random salt: every other column is the generator's.
    for (const row of db.prepare(`select * from ${table} order by id`).iterate()) hash.update(JSON.stringify({ ...(row as object), password_hash: null }));
  }
  db.close();
  return hash.digest('hex');
}

describe.each(backends)('scale seed ($name)', ({ databaseUrl }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reis-scale-'));
  let pgDb: Awaited<ReturnType<typeof freshPostgres>> | null = null;
  let summary: ScaleSummary;
  let db: Db;
  let app: FastifyInstance;
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    pgDb = databaseUrl ? await freshPostgres(databaseUrl) : null;
    const target = { dataDir, databaseUrl: pgDb?.url };
    summary = await seedScale(target, OPTIONS);
    db = await openScaleDb(target);
    const config = loadConfig({ ...process.env, DATABASE_URL: pgDb?.url ?? '' }, { dataDir, jwtSecret: 'test-secret-'.padEnd(48, 'x'), logger: false, demo: false });
    app = await buildApp({ config, db });
    await app.ready();
    server = { app, db, config, url: '', close: async () => undefined };
    admin = (await login(server, BIG_EMAIL.admin, SCALE_PASSWORD)).access_token;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db?.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes trips with tickets and photos, their history, transfers and two closed months per company', () => {
    const c = summary.counts;
    expect(c.companies).toBe(3);
    expect(c.reports).toBeGreaterThan(1000);
    expect(c.report_photos).toBeGreaterThan(c.reports as number);
    expect(c.audit_log).toBeGreaterThan(3 * (c.reports as number));
    expect(c.transfers).toBeGreaterThan(0);
    expect(summary.closedMonths).toBe(6);
    expect(c.payroll_months).toBe(6);
    expect(c.payroll_lines).toBeGreaterThan(0);
  });

  it('a closed month is read from the lines its close stored', async () => {
    const res = await call<PayrollMonth>(server, 'GET', '/api/payroll/?month=2026-02', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('closed');
    const lines = await db.kysely
      .selectFrom('payroll_lines')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_kop').as('kop')])
      .where('company_id', '=', summary.bigCompanyId)
      .where('month', '=', '2026-02')
      .executeTakeFirstOrThrow();
    expect(res.body.loads).toBe(Number(lines.n));
    expect(res.body.loads_amount).toBeCloseTo(Number(lines.kop) / 100, 2);
  });

  it("a driver's closed months add up to his stored lines", async () => {
    const driver = await login(server, BIG_EMAIL.driver, SCALE_PASSWORD);
    const me = await call<{ id: number }>(server, 'GET', '/api/users/me/', { token: driver.access_token });
    const res = await call<DriverPayrollMonth[]>(server, 'GET', `/api/payroll/driver/${me.body.id}`, { token: driver.access_token });
    expect(res.status).toBe(200);
    expect(res.body.map((m) => m.month)).toEqual(['2026-02', '2026-01']);
    for (const m of res.body) {
      const lines = await db.kysely
        .selectFrom('payroll_lines')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount_kop').as('kop')])
        .where('driver_id', '=', me.body.id)
        .where('month', '=', m.month)
        .executeTakeFirstOrThrow();
      expect(m.loads).toBe(Number(lines.n));
      expect(m.loads_amount).toBeCloseTo(Number(lines.kop) / 100, 2);
    }
  });

  it("the statistics of a closed month agree with its payroll (drivers' pay, loads, tonnes)", async () => {
    const stats = await call<CompanyWages>(server, 'GET', `/api/wages/company/${summary.bigCompanyId}?start_date=2026-02-01&end_date=2026-02-28`, { token: admin });
    const payroll = await call<PayrollMonth>(server, 'GET', '/api/payroll/?month=2026-02', { token: admin });
    expect(stats.status).toBe(200);
    expect(stats.body.loads_amount).toBeCloseTo(payroll.body.loads_amount, 2);
    expect(stats.body.total_amount).toBeCloseTo(payroll.body.total_amount, 2);
    expect(stats.body.total_quantity).toBeCloseTo(payroll.body.total_quantity, 1);
    expect(stats.body.loads).toBe(payroll.body.loads);
    expect(stats.body.revenue).toBeGreaterThan(0);
  });

  it('the review queue holds the last days, and the newest photo is a real file', async () => {
    const res = await call<{ count: number; pending: number; results: { id: number; photos?: unknown }[] }>(server, 'GET', '/api/reports/?review=pending&date_from=2026-03-01&date_to=2026-03-10', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.pending).toBeGreaterThan(0);
    const photo = await db.kysely.selectFrom('report_photos').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const superAdmin = await login(server, BIG_EMAIL.superAdmin, SCALE_PASSWORD);
    const file = await app.inject({ method: 'GET', url: `/api/reports/photos/${photo.id}`, headers: { authorization: `Bearer ${superAdmin.access_token}` } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
  });

  it('the app writes after the seed: a new task with a driver gets the next ids and its history', async () => {
    const driver = await db.kysely.selectFrom('users').select('id').where('email', '=', BIG_EMAIL.driver).executeTakeFirstOrThrow();
    const res = await call<{ id: number }>(server, 'POST', '/api/tasks/', { token: admin, body: { date: OPTIONS.end, cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 20, driver_ids: [driver.id] } });
    expect(res.status).toBe(201);
    const top = await db.kysely.selectFrom('tasks').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
    expect(res.body.id).toBe(Number(top.id));
    const history = await call<unknown[]>(server, 'GET', `/api/audit/?entity=task&id=${res.body.id}`, { token: admin });
    expect(history.body.length).toBeGreaterThan(0);
  });
});

it('the scale seed writes the same rows for the same options', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'reis-scale-a-')), mkdtempSync(join(tmpdir(), 'reis-scale-b-'))];
  try {
    for (const dir of dirs) await seedScale({ dataDir: dir }, { ...OPTIONS, photoFiles: 0 });
    expect(fingerprint(join(dirs[0] as string, 'reis.sqlite'))).toBe(fingerprint(join(dirs[1] as string, 'reis.sqlite')));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
