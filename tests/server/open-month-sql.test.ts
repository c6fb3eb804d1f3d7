/**
 * An open month priced in SQL (server/wages/open-month.ts, issue 35) against the one rule applied load by load in
 * JavaScript (`priceLive`, wages/pay.ts), over random months (fast-check): scale versions starting mid-month,
 * fractional rates, drivers with and without their own rate, quantities to the gram with unloading totals, loads
 * already paid as late loads, pending loads. Per driver the loads, trips, delivered and the pay must be equal to
 * the kopeck — and per load too, as `POST /payroll/close` stores each load's line from the same SQL.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makeCompany, makeUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { latePaid, priceLive } from '../../server/wages/pay.ts';
import { openMonthPriced, openMonthSums } from '../../server/wages/open-month.ts';
import { DELIVERED_SQL, roundQuantity } from '../../server/tasks/progress.ts';
import { CompiledQuery, sql } from 'kysely';
import { payrollMonth } from '../../server/payroll/payroll.ts';
import { unapprovedBefore } from '../../server/payroll/pending.ts';

const MONTH = '2026-10';
const day = (d: number) => `${MONTH}-${String(d).padStart(2, '0')}`;

const ladder = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 3 }), fc.array(fc.integer({ min: 10_000, max: 90_000 }), { minLength: 4, maxLength: 4 }))
  .map(([cuts, rates]) => {
    const bounds = [0, ...[...cuts].sort((a, b) => a - b)];
    // Rates to the kopeck (650,37 ₽): quantity × rate then lands on half-kopecks and worse.
    return bounds.map((min, i) => ({ min, max: bounds[i + 1] ?? null, rate: (rates[i] as number) / 100 }));
  });

const scenario = fc.record({
  versions: fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 3 }).chain((days) => fc.tuple(...days.map((d, i) => ladder.map((bands) => ({ from: i === 0 ? '2000-01-01' : day(d), bands }))))),
  loads: fc.array(
    fc.record({
      driver: fc.integer({ min: 0, max: 2 }),
      day: fc.integer({ min: 1, max: 31 }),
      // To the tenth of a gram: the rounding to the gram is exercised, halves included.
      quantity: fc.integer({ min: 1, max: 400_000 }).map((n) => n / 10_000),
      unloading: fc.option(fc.integer({ min: 1, max: 40_000 }).map((n) => n / 1000), { nil: null }),
      ownRate: fc.option(fc.integer({ min: 0, max: 90_000 }).map((n) => n / 100), { nil: null }),
      review: fc.constantFrom('approved', 'approved', 'approved', 'pending'),
      paidLate: fc.boolean(),
    }),
    { minLength: 1, maxLength: 14 },
  ),
});

describe.each(backends)('an open month priced in SQL ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  it('equals the rule applied load by load, per driver and per load, to the kopeck', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const company = await makeCompany(s);
        const drivers: number[] = [];
        for (let i = 0; i < 3; i++) drivers.push((await makeUser(s, 'driver', company, { name: `Водитель ${i}` })).id);
        for (const v of sc.versions) {
          for (const b of v.bands) {
            await s.db.kysely.insertInto('progressive_rates').values({ company_id: company, min_quantity: b.min, max_quantity: b.max, rate: b.rate, valid_from: v.from, created_at: nowIso() }).execute();
          }
        }
        for (const l of sc.loads) {
          const driver = drivers[l.driver] as number;
          const association = await addDriver(s, await createTask(s, company, { date: day(l.day), rate: 650.37 }), driver, { transport_rate: l.ownRate });
          const report = await addLoad(s, association, l.quantity, { review: l.review as 'approved' | 'pending', unloading: l.unloading });
          if (l.paidLate && l.review === 'approved') {
            await s.db.kysely
              .insertInto('payroll_adjustments')
              .values({ company_id: company, driver_id: driver, date: '2026-11-02', amount_kop: 100, reason: 'поздний рейс', report_id: report, concerns_month: MONTH, late: 1, created_by: null, created_at: nowIso() })
              .execute();
          }
        }

        // The reference: the month's approved loads read as rows and priced one by one by the JS rule.
        const rows = await s.db.kysely
          .selectFrom('tasks as t')
          .innerJoin('task_drivers as td', 'td.task_id', 't.id')
          .innerJoin('reports as r', 'r.association_id', 'td.id')
          .select(['r.id as report_id', 't.company_id', 'td.driver_id', 't.date', 'r.trips', 'td.transport_rate', sql<number>`${sql.raw(DELIVERED_SQL)}`.as('quantity')])
          .where('t.company_id', '=', company)
          .where('r.review_status', '=', 'approved')
          .execute();
        const late = await latePaid(s.db.kysely, rows);
        const priced = await priceLive(
          s.db.kysely,
          rows.filter((r) => !late.has(r.report_id)).map((r) => ({ ...r, quantity: roundQuantity(Number(r.quantity)), trips: Number(r.trips) })),
        );
        const expected = new Map<number, { loads: number; trips: number; quantity: number; amount_kop: number }>();
        for (const l of priced) {
          const d = expected.get(l.driver_id) ?? { loads: 0, trips: 0, quantity: 0, amount_kop: 0 };
          expected.set(l.driver_id, { loads: d.loads + 1, trips: d.trips + l.trips, quantity: roundQuantity(d.quantity + l.quantity), amount_kop: d.amount_kop + l.amount_kop });
        }

        const sums = await openMonthSums(s.db.kysely, s.db.dialect, company, MONTH);
        expect(new Map(sums.map(({ driver_id, loads, trips, quantity, amount_kop }) => [driver_id, { loads, trips, quantity, amount_kop }]))).toEqual(expected);

        const p = await openMonthPriced(s.db.kysely, s.db.dialect, company, MONTH);
        const lines = await p.loads.select(['p.report_id', 'p.quantity', 'p.rate', 'p.rate_source', 'p.month_volume', 'p.amount_kop']).execute();
        const byId = new Map(lines.map((l) => [l.report_id, { quantity: Number(l.quantity), rate: l.rate === null ? null : Number(l.rate), rate_source: l.rate_source, month_volume: Number(l.month_volume), amount_kop: Number(l.amount_kop) }]));
        expect(byId).toEqual(new Map(priced.map((l) => [l.report_id, { quantity: l.quantity, rate: l.rate, rate_source: l.rate_source, month_volume: l.month_volume, amount_kop: l.amount_kop }])));
      }),
      {
        numRuns: databaseUrl ? 15 : 40,
        // Found by this property in a full run: a month volume summed in another order came out 50,189 against 50,19
        // (its true value 50,1895): the volumes are rounded by `roundVolume`, past the sum's float noise.
        examples: [
          [
            {
              versions: [{ from: '2000-01-01', bands: [{ min: 0, max: null, rate: 100 }] }],
              loads: [
                { driver: 2, day: 1, quantity: 37.9135, unloading: null, ownRate: null, review: 'approved', paidLate: false },
                { driver: 2, day: 1, quantity: 0.0001, unloading: 0.24, ownRate: null, review: 'approved', paidLate: false },
                { driver: 2, day: 4, quantity: 0.0001, unloading: 12.036, ownRate: null, review: 'approved', paidLate: false },
                { driver: 0, day: 1, quantity: 0.0001, unloading: null, ownRate: null, review: 'approved', paidLate: false },
              ],
            },
          ],
        ],
      },
    );
  }, 120_000);
});

describe.each(backends)('the late loads still waiting ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  it('are the company\'s reports not approved before the month, read from their own index, not from the years of tasks', async () => {
    const company = await makeCompany(s);
    const other = await makeCompany(s);
    const driver = (await makeUser(s, 'driver', company)).id;
    const stranger = (await makeUser(s, 'driver', other)).id;
    const load = async (companyId: number, driverId: number, date: string, review: 'approved' | 'pending' | 'disputed') =>
      addLoad(s, await addDriver(s, await createTask(s, companyId, { date }), driverId), 10, { review });
    const pending = await load(company, driver, '2026-09-30', 'pending');
    const disputed = await load(company, driver, '2025-01-15', 'disputed');
    await load(company, driver, '2026-09-29', 'approved');
    await load(company, driver, '2026-10-01', 'pending');
    await load(other, stranger, '2026-09-01', 'pending');

    const query = unapprovedBefore(s.db.kysely, company, '2026-10-01');
    expect((await query.execute()).map((r) => r.id).sort((a, b) => a - b)).toEqual([pending, disputed].sort((a, b) => a - b));
    if (s.db.dialect === 'sqlite') {
      const { sql: text, parameters } = query.compile();
      const { rows } = await s.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
      // The outer loop scans the partial index of the reports waiting; tasks and parts are reached by their keys.
      expect(rows.map((r) => r.detail)).toEqual(['SCAN r USING INDEX reports_unapproved_idx', 'SEARCH td USING INTEGER PRIMARY KEY (rowid=?)', 'SEARCH t USING INTEGER PRIMARY KEY (rowid=?)']);
    }
  });
});

describe.each(backends)('an open month\'s priced loads ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  it('are read from the approved reports\' covering index, each load\'s figures computed once in a derived table of their own', async () => {
    const company = await makeCompany(s);
    const driver = (await makeUser(s, 'driver', company)).id;
    await addLoad(s, await addDriver(s, await createTask(s, company, { date: day(3), rate: 700 }), driver, { transport_rate: 650 }), 12.5, { review: 'approved' });
    await addLoad(s, await addDriver(s, await createTask(s, company, { date: day(4) }), driver), 3, { review: 'pending' });
    const p = await openMonthPriced(s.db.kysely, s.db.dialect, company, MONTH);
    const query = p.loads.select(['p.driver_id', sql<number>`count(*)`.as('loads'), sql<number>`sum(p.amount_kop)`.as('amount_kop'), sql<number>`sum(p.revenue_kop)`.as('revenue_kop')]).groupBy('p.driver_id');
    expect((await query.execute()).map((r) => ({ driver: r.driver_id, loads: Number(r.loads), pay: Number(r.amount_kop), revenue: Number(r.revenue_kop) }))).toEqual([{ driver, loads: 1, pay: 812_500, revenue: 875_000 }]);
    if (s.db.dialect === 'sqlite') {
      const { sql: text, parameters } = query.compile();
      const { rows } = await s.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
      const plan = rows.map((r) => r.detail);
      // Not flattened into the sums (each figure's expression would be copied into every use of it) …
      expect(plan).toEqual(expect.arrayContaining(['CO-ROUTINE p', 'CO-ROUTINE l']));
      // … and the month's reports read from the approved ones' index alone (migration 035), by their part.
      expect(plan).toContain('SEARCH r USING COVERING INDEX reports_approved_idx (association_id=?)');
    }
  });

  it('are summed for /payroll in one pass over the month, a statement per slice, the scale\'s few rates bound, not a table per driver', async () => {
    const company = await makeCompany(s);
    await s.db.kysely.insertInto('progressive_rates').values([0, 20].map((min, i) => ({ company_id: company, min_quantity: min, max_quantity: i === 0 ? 20 : null, rate: [500.5, 480.25][i] as number, valid_from: '2000-01-01', created_at: nowIso() }))).execute();
    const drivers: number[] = [];
    for (let i = 0; i < 12; i++) drivers.push((await makeUser(s, 'driver', company)).id);
    for (const [i, driver] of drivers.entries()) {
      // The first driver at his assignments' own rate (350 ₽/т), the others by the scale.
      for (const d of [2, 15, 29]) await addLoad(s, await addDriver(s, await createTask(s, company, { date: day(d) }), driver, { transport_rate: i === 0 ? 350 : null }), 3 + i, { review: 'approved' });
    }
    // Every statement the sums run, as the database receives it: a copy of the database handle (a plugin that changes
    // nothing gives it an executor of its own) whose executor notes each query it executes.
    const statements: { sql: string; parameters: number }[] = [];
    const watched = s.db.kysely.withPlugin({ transformQuery: (args) => args.node, transformResult: async (args) => args.result });
    const executor = watched.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = ((query: CompiledQuery) => {
      statements.push({ sql: query.sql, parameters: query.parameters.length });
      return execute(query);
    }) as typeof executor.executeQuery;
    const sums = await openMonthSums(watched, s.db.dialect, company, MONTH);
    // 9 t a month: 500,50 ₽/т; from 20 t: 480,25 ₽/т (3 loads of 3 + i t each).
    expect(sums.map((d) => ({ driver: d.driver_id, loads: d.loads, pay: d.amount_kop }))).toEqual(
      expect.arrayContaining(drivers.map((driver, i) => ({ driver, loads: 3, pay: 3 * Math.round((3 + i) * (i === 0 ? 350 : 9 + 3 * i < 20 ? 500.5 : 480.25) * 100) }))),
    );
    const overLoads = statements.filter((st) => /"reports"/.test(st.sql));
    // 31 days in 3-day slices: 11 statements (the drivers' volumes and their pay were 22, with a rates table of 5 values per driver).
    expect(overLoads).toHaveLength(11);
    for (const st of overLoads) expect(st.parameters).toBeLessThan(30);
  });

  it('waiting by the hundred: all counted and summed, the first 200 of them listed in load order', async () => {
    const company = await makeCompany(s);
    const driver = (await makeUser(s, 'driver', company)).id;
    const task = await createTask(s, company, { date: day(5) });
    const waiting: number[] = [];
    // Quantities to the gram that a float sum would not keep (0,1 + 0,2 …): the sum is the grams'.
    for (let i = 0; i < 203; i++) waiting.push(await addLoad(s, await addDriver(s, i === 0 ? task : await createTask(s, company, { date: day(1 + (i % 28)) }), driver), 0.1 + (i % 7) / 10, { review: i % 5 === 0 ? 'disputed' : 'pending' }));
    await addLoad(s, await addDriver(s, await createTask(s, company, { date: day(2) }), driver), 30, { review: 'approved' });
    const m = await payrollMonth(s.db, { id: company, name: 'Перевозчик' }, MONTH);
    const rows = await s.db.kysely.selectFrom('reports as r').innerJoin('task_drivers as td', 'td.id', 'r.association_id').innerJoin('tasks as t', 't.id', 'td.task_id').select(['r.id', 't.date', 'r.quantity']).where('r.id', 'in', waiting).orderBy('t.date').orderBy('r.id').execute();
    expect(m.pending.loads).toBe(203);
    expect(m.pending.quantity).toBe(roundQuantity(rows.reduce((sum, r) => sum + roundQuantity(Number(r.quantity)), 0)));
    expect(m.pending.items.map((i) => i.report_id)).toEqual(rows.slice(0, 200).map((r) => r.id));
    expect(m.loads).toBe(1);
  });
});
