/**
 * The company's statistics of closed months read what the close stored (payroll/summary.ts, issue 35), on both
 * databases. Over random months (fast-check: drivers with and without their own rate, tasks with and without a
 * price, prices that lose money, pending loads, adjustments before and after the close, one about a closed load) the
 * statistics of a range of closed months — whole months, a range cutting its first and last month, «Всё время» —
 * equal, to the kopeck, what the stored payroll lines give when summed here; again after a month is reopened,
 * changed and closed again. The stored figures are what is read (the lines deleted behind the API move no total of
 * a whole month), they are written in the close's transaction (a close failing at its last statement leaves none),
 * cleared by a reopen, and migration 031's backfill gives what the close stores.
 */
import { closeAndWait } from '../fixtures/payroll-close.ts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { closeMonth } from '../../server/payroll/close.ts';
import { backfillMonthFigures } from '../../server/db/migrations-scale.ts';
import { amountKop } from '../../server/wages/pay.ts';
import { roundQuantity } from '../../server/tasks/progress.ts';
import { confirmedOf, LOSS_ITEMS, toKop, type CompanyWages, type PayrollMonth } from '../../contract/money.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';

const MONTHS = ['2026-07', '2026-08', '2026-09', '2026-10'] as const;
const date = (month: string, d: number) => `${month}-${String(d).padStart(2, '0')}`;

const scenario = fc.record({
  loads: fc.array(
    fc.record({
      driver: fc.integer({ min: 0, max: 2 }),
      month: fc.integer({ min: 0, max: 3 }),
      day: fc.integer({ min: 1, max: 28 }),
      // To the tenth of a gram: the rounding to the gram and to the kopeck is exercised.
      quantity: fc.integer({ min: 1, max: 400_000 }).map((n) => n / 10_000),
      ownRate: fc.option(fc.integer({ min: 0, max: 90_000 }).map((n) => n / 100), { nil: null }),
      // Some tasks priced below the drivers' pay: losses.
      taskRate: fc.option(fc.integer({ min: 1, max: 90_000 }).map((n) => n / 100), { nil: null }),
      approved: fc.boolean(),
      sameTask: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  ),
  adjustments: fc.array(fc.record({ driver: fc.integer({ min: 0, max: 2 }), month: fc.integer({ min: 0, max: 3 }), day: fc.integer({ min: 1, max: 28 }), kop: fc.integer({ min: -50_000, max: 50_000 }).filter((k) => k !== 0) }), { maxLength: 5 }),
  cut: fc.record({ from: fc.integer({ min: 2, max: 28 }), to: fc.integer({ min: 1, max: 27 }) }),
  reopen: fc.integer({ min: 0, max: 3 }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

interface Expected {
  loads: number;
  tasks: number;
  payKop: number;
  adjKop: number;
  revenueKop: number;
  quantity: number;
  losses: number;
  lossIds: number[];
  drivers: Map<number, { payKop: number; adjKop: number; quantity: number }>;
}

/** The reference: the company's stored lines of the range and its adjustments dated in it, summed here. */
async function fromLines(db: Kysely<Database>, companyId: number, start: string, end: string): Promise<Expected> {
  const lines = await db
    .selectFrom('payroll_lines as l')
    .innerJoin('tasks as t', 't.id', 'l.task_id')
    .select(['l.report_id', 'l.driver_id', 'l.task_id', 'l.date', 'l.quantity', 'l.amount_kop', 't.rate'])
    .where('l.company_id', '=', companyId)
    .where('l.date', '>=', start)
    .where('l.date', '<=', end)
    .execute();
  const adjustments = await db.selectFrom('payroll_adjustments').select(['driver_id', 'amount_kop']).where('company_id', '=', companyId).where('date', '>=', start).where('date', '<=', end).execute();
  const e: Expected = { loads: lines.length, tasks: new Set(lines.map((l) => l.task_id)).size, payKop: 0, adjKop: 0, revenueKop: 0, quantity: 0, losses: 0, lossIds: [], drivers: new Map() };
  const driver = (id: number) => {
    const d = e.drivers.get(id) ?? { payKop: 0, adjKop: 0, quantity: 0 };
    e.drivers.set(id, d);
    return d;
  };
  const losses: { date: string; id: number }[] = [];
  for (const l of lines) {
    const pay = Number(l.amount_kop);
    const revenue = amountKop(l.quantity, l.rate);
    e.payKop += pay;
    e.revenueKop += revenue;
    e.quantity += l.quantity;
    driver(l.driver_id).payKop += pay;
    driver(l.driver_id).quantity += l.quantity;
    if (revenue < pay) losses.push({ date: l.date, id: l.report_id });
  }
  for (const a of adjustments) {
    e.adjKop += Number(a.amount_kop);
    driver(a.driver_id).adjKop += Number(a.amount_kop);
  }
  e.losses = losses.length;
  e.lossIds = losses
    .sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id)
    .slice(0, LOSS_ITEMS)
    .map((l) => l.id);
  return e;
}

const kop = (rubles: number) => toKop(rubles);

function expectEqual(got: CompanyWages, want: Expected): void {
  expect({
    loads: got.loads,
    tasks: got.tasks,
    payKop: kop(got.loads_amount),
    adjKop: kop(got.adjustments_amount),
    totalKop: kop(got.total_amount),
    revenueKop: kop(got.revenue),
    marginKop: kop(got.margin),
    quantity: got.total_quantity,
    losses: got.losses.count,
    lossIds: got.losses.items.map((i) => i.report_id),
  }).toEqual({
    loads: want.loads,
    tasks: want.tasks,
    payKop: want.payKop,
    adjKop: want.adjKop,
    totalKop: want.payKop + want.adjKop,
    revenueKop: want.revenueKop,
    marginKop: want.revenueKop - want.payKop - want.adjKop,
    quantity: roundQuantity(want.quantity),
    losses: want.losses,
    lossIds: want.lossIds,
  });
  const drivers = Object.fromEntries(got.drivers.map((d) => [d.driver_id, { payKop: kop(d.loads_amount), adjKop: kop(d.adjustments_amount), quantity: d.total_quantity }]));
  expect(drivers).toEqual(Object.fromEntries([...want.drivers].map(([id, d]) => [id, { ...d, quantity: roundQuantity(d.quantity) }])));
}

describe.each(backends)('statistics of closed months from what the close stored ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  /** A company with three drivers, a scale, and the loads and adjustments of the scenario; nothing closed yet. */
  async function company(sc: Scenario) {
    const id = await makeCompany(s);
    const admin = await withAccessToken(s, await makeUser(s, 'admin', id));
    const drivers: number[] = [];
    for (let i = 0; i < 3; i++) drivers.push((await makeUser(s, 'driver', id, { name: `Водитель ${i}` })).id);
    for (const b of [
      { min: 0, max: 20, rate: 410.5 },
      { min: 20, max: null, rate: 455.25 },
    ]) {
      await s.db.kysely.insertInto('progressive_rates').values({ company_id: id, min_quantity: b.min, max_quantity: b.max, rate: b.rate, valid_from: '2000-01-01', created_at: nowIso() }).execute();
    }
    const reports: number[] = [];
    let task = 0;
    const parts = new Map<string, number>();
    for (const l of sc.loads) {
      // Now and then a load on the previous task (another driver's, or his next trip): a task counted once.
      if (!l.sameTask || task === 0) task = await createTask(s, id, { date: date(MONTHS[l.month] as string, l.day), rate: l.taskRate });
      const key = `${task}:${l.driver}`;
      const association = parts.get(key) ?? (await addDriver(s, task, drivers[l.driver] as number, { transport_rate: l.ownRate }));
      parts.set(key, association);
      reports.push(await addLoad(s, association, l.quantity, { review: l.approved ? 'approved' : 'pending' }));
    }
    for (const a of sc.adjustments) {
      await s.db.kysely
        .insertInto('payroll_adjustments')
        .values({ company_id: id, driver_id: drivers[a.driver] as number, date: date(MONTHS[a.month] as string, a.day), amount_kop: a.kop, reason: 'премия', report_id: null, concerns_month: null, created_by: admin.id, created_at: nowIso() })
        .execute();
    }
    return { id, admin, drivers, reports };
  }

  const send = (method: 'GET' | 'POST', url: string, user: SignedInUser, payload?: unknown) => s.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function close(companyId: number, admin: SignedInUser, month: string): Promise<void> {
    const m = (await send('GET', `/payroll/?month=${month}&company_id=${companyId}`, admin)).json() as PayrollMonth;
    const r = await closeAndWait(s.app, admin.auth, { company_id: companyId, month, confirmed: confirmedOf(m) });
    expect(r.statusCode, r.body).toBe(200);
  }

  const stats = async (companyId: number, admin: SignedInUser, range?: { start: string; end: string }) =>
    (await send('GET', `/wages/company/${companyId}${range ? `?start_date=${range.start}&end_date=${range.end}` : ''}`, admin)).json() as CompanyWages;

  /** Whole closed months, a range cutting its first and last month, «Всё время»: each as the lines give. */
  async function expectAllRanges(c: { id: number; admin: SignedInUser }, sc: Scenario): Promise<void> {
    const cut = { start: date('2026-07', sc.cut.from), end: date('2026-10', sc.cut.to) };
    for (const range of [{ start: '2026-07-01', end: '2026-10-31' }, cut, { start: '2026-08-01', end: '2026-09-30' }]) {
      expectEqual(await stats(c.id, c.admin, range), await fromLines(s.db.kysely, c.id, range.start, range.end));
    }
    expectEqual(await stats(c.id, c.admin), await fromLines(s.db.kysely, c.id, '0000-01-01', '9999-12-31'));
  }

  it('equal to the kopeck what the stored lines give, for any range of closed months, with adjustments, after a reopen and a new close', async () => {
    const superAdmin = await withAccessToken(s, await makeUser(s, 'super-admin', null));
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const c = await company(sc);
        for (const month of MONTHS) await close(c.id, c.admin, month);
        // Adjustments after the close, dated in the open month: one about a closed month's load.
        const approved = sc.loads.findIndex((l) => l.approved);
        const about = approved >= 0 ? { report_id: c.reports[approved] as number, driver_id: c.drivers[(sc.loads[approved] as { driver: number }).driver] as number } : { driver_id: c.drivers[0] as number };
        expect((await send('POST', '/payroll/adjustments', c.admin, { company_id: c.id, amount: -123.45, reason: 'штраф за простой', date: '2026-11-02', ...about })).statusCode).toBe(201);
        await expectAllRanges(c, sc);

        // Reopened (the stored figures go with the lines), changed, closed again: rewritten.
        const month = MONTHS[sc.reopen] as string;
        expect((await send('POST', '/payroll/reopen', superAdmin, { company_id: c.id, month, reason: 'пересчёт' })).statusCode).toBe(200);
        const reopened = await s.db.kysely.selectFrom('payroll_months').select(['revenue_kop', 'losses', 'tasks']).where('company_id', '=', c.id).where('month', '=', month).executeTakeFirstOrThrow();
        expect(reopened).toEqual({ revenue_kop: null, losses: null, tasks: null });
        const task = await createTask(s, c.id, { date: date(month, 15), rate: 1.01 });
        await addLoad(s, await addDriver(s, task, c.drivers[1] as number, { transport_rate: 512.5 }), 7.777);
        await close(c.id, c.admin, month);
        await expectAllRanges(c, sc);
      }),
      { numRuns: databaseUrl ? 6 : 15 },
    );
  }, 240_000);

  it('reads the stored figures of a whole closed month, not its lines', async () => {
    const sc = { loads: [1, 2, 3].map((d) => ({ driver: d % 3, month: 1, day: d, quantity: 10 + d, ownRate: 500, taskRate: 600, approved: true, sameTask: false })), adjustments: [], cut: { from: 2, to: 1 }, reopen: 0 };
    const c = await company(sc);
    await close(c.id, c.admin, '2026-08');
    const range = { start: '2026-08-01', end: '2026-08-31' };
    const before = await stats(c.id, c.admin, range);
    expect([before.loads, before.tasks, kop(before.loads_amount), kop(before.revenue)]).toEqual([3, 3, (11 + 12 + 13) * 50_000, (11 + 12 + 13) * 60_000]);
    // Behind the API (nothing the app does): the month's lines gone, its stored figures left.
    await s.db.kysely.deleteFrom('payroll_lines').where('company_id', '=', c.id).execute();
    const after = await stats(c.id, c.admin, range);
    expect(after).toEqual(before);
    // A range cutting the month sums its lines: none now.
    expect((await stats(c.id, c.admin, { start: '2026-08-02', end: '2026-08-31' })).loads).toBe(0);
  });

  it('stores the figures in the close’s transaction: a close failing at its last statement leaves no lines, totals or figures', async () => {
    const sc = { loads: [1, 2].map((d) => ({ driver: d % 3, month: 2, day: d, quantity: 5, ownRate: 500, taskRate: 400, approved: true, sameTask: false })), adjustments: [], cut: { from: 2, to: 1 }, reopen: 0 };
    const c = await company(sc);
    const m = (await send('GET', `/payroll/?month=2026-09&company_id=${c.id}`, c.admin)).json() as PayrollMonth;
    const user = { id: c.admin.id, email: c.admin.email, name: c.admin.name, role: 'admin' as const, company_id: c.id, device_id: 'test' };
    // The close's last statement (its history entry) refused by a trigger.
    if (databaseUrl) {
      await sql`create or replace function fail_close() returns trigger language plpgsql as $$ begin raise exception 'сбой'; end $$`.execute(s.db.kysely);
      await sql`create trigger payroll_events_fail before insert on payroll_events for each row execute function fail_close()`.execute(s.db.kysely);
    } else {
      await sql`create trigger payroll_events_fail before insert on payroll_events begin select raise(abort, 'сбой'); end`.execute(s.db.kysely);
    }
    try {
      await expect(closeMonth(s.db, user, { id: c.id, name: '' }, '2026-09', confirmedOf(m))).rejects.toThrow(/сбой/);
    } finally {
      await sql.raw(databaseUrl ? 'drop trigger payroll_events_fail on payroll_events' : 'drop trigger payroll_events_fail').execute(s.db.kysely);
    }
    const count = async (table: 'payroll_lines' | 'payroll_drivers' | 'payroll_months') =>
      Number((await s.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('company_id', '=', c.id).executeTakeFirstOrThrow()).n);
    expect([await count('payroll_lines'), await count('payroll_drivers'), await count('payroll_months')]).toEqual([0, 0, 0]);
    await close(c.id, c.admin, '2026-09');
    const stored = await s.db.kysely.selectFrom('payroll_months').select(['revenue_kop', 'losses', 'tasks']).where('company_id', '=', c.id).where('month', '=', '2026-09').executeTakeFirstOrThrow();
    expect({ ...stored, revenue_kop: Number(stored.revenue_kop) }).toEqual({ revenue_kop: 2 * 5 * 40_000, losses: 2, tasks: 2 });
  });

  it('migration 031’s backfill gives every closed month the figures its close stores', async () => {
    const sc = { loads: [1, 12, 25].map((d, i) => ({ driver: i, month: i, day: d, quantity: 3.333 * (i + 1), ownRate: i === 1 ? null : 499.99, taskRate: i === 2 ? null : 450.5, approved: true, sameTask: false })), adjustments: [], cut: { from: 2, to: 1 }, reopen: 0 };
    const c = await company(sc);
    for (const month of MONTHS) await close(c.id, c.admin, month);
    const read = () => s.db.kysely.selectFrom('payroll_months').select(['month', 'revenue_kop', 'losses', 'tasks']).where('company_id', '=', c.id).orderBy('month').execute();
    const stored = await read();
    await s.db.kysely.updateTable('payroll_months').set({ revenue_kop: null, losses: null, tasks: null }).where('company_id', '=', c.id).execute();
    await backfillMonthFigures(s.db.kysely as unknown as Kysely<unknown>, databaseUrl ? 'postgres' : 'sqlite');
    expect(await read()).toEqual(stored);
    expect(stored.map((m) => Number(m.tasks))).toEqual([1, 1, 1, 0]);
  });
});
