/**
 * An open month's approved loads priced by the one rule (pay.ts) in SQL, never brought into JavaScript one by one
 * (issue 35: a month of a 200-truck carrier is ~40 000 loads; reading them as rows cost most of a second and held
 * the event loop). The rule needs two figures per driver that SQL cannot see — the month's approved volume and
 * the scale's band it reaches in each version of the scale in force that month — so they are computed here (one
 * aggregate and the company's bands) and handed to the query as a small table of rates (driver × version period).
 * Everything per load is SQL on the same doubles JavaScript uses, rounded exactly as `Math.round` does, so the
 * sums are kopeck-identical to pricing load by load (`priceLive`; tests/server/open-month-sql.test.ts compares them).
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Dialect } from '../db/migrations.ts';
import { ladderRate } from '../../contract/ladder.ts';
import { monthRange } from '../../contract/money.ts';
import { DELIVERED_SQL, roundQuantity, roundVolume } from '../tasks/progress.ts';
import { scaleBands, versionAt, type ScaleBand } from './pay.ts';

type Q = Kysely<Database>;

/**
 * JavaScript's `Math.round(y)` for y ≥ 0, exactly: ⌊y + ½⌋ in doubles. The sum is exact for y ≥ ½ below 2⁵² (½ is
 * a multiple of y's ulp; where it crosses a power of two the floor is that power either way); below ½ it may round
 * up to 1 (y = 0,49999999999999994), hence 0 there.
 */
function roundSql(dialect: Dialect, y: RawBuilder<number>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`(case when (${y}) < 0.5 then 0 else floor((${y}) + 0.5) end)` : sql<number>`(case when (${y}) < 0.5 then 0 else cast((${y}) + 0.5 as integer) end)`;
}

/** `toKop(quantity × rate)` (contract/money.ts: Math.round(x·100 + 1e-9)); 0 without a rate. 1e-9 is bound, not parsed by the database. */
export function amountKopSql(dialect: Dialect, quantity: RawBuilder<number>, rate: RawBuilder<number | null>): RawBuilder<number> {
  return sql<number>`(case when (${rate}) is null then 0 else ${kopAtSql(dialect, quantity, rate)} end)`;
}

/** `toKop(quantity × rate)` for a rate that is not null. */
const kopAtSql = (dialect: Dialect, quantity: RawBuilder<number>, rate: RawBuilder<number | null>): RawBuilder<number> => {
  const kop = roundSql(dialect, sql<number>`((${quantity}) * (${rate})) * 100 + ${1e-9}`);
  return dialect === 'postgres' ? sql<number>`cast(${kop} as bigint)` : kop;
};

/** toKop(x) for x ≥ 0 on the same doubles as JS (contract/money.ts): ⌊x·100 + 1e-9 + 0.5⌋ — a load's revenue as statistics sum it. */
export function kopSql(dialect: Dialect, rubles: RawBuilder<unknown>): RawBuilder<number> {
  return dialect === 'postgres' ? sql<number>`floor((${rubles}) * 100 + 1e-9 + 0.5)` : sql<number>`cast((${rubles}) * 100 + 1e-9 + 0.5 as integer)`;
}

/** `roundQuantity(delivered)` (tasks/progress.ts: Math.round(v·1000) / 1000). */
export const quantitySql = (dialect: Dialect, delivered: RawBuilder<number>): RawBuilder<number> =>
  sql<number>`(${roundSql(dialect, sql<number>`(${delivered}) * 1000`)} / ${dialect === 'postgres' ? sql`1000.0::double precision` : sql`1000.0`})`;

/** A driver's rate from the scale over part of the month (one version of the scale in force), with the month's volume. */
interface RateRow {
  driver_id: number;
  from: string;
  to: string;
  rate: number | null;
  volume: number;
}

/**
 * Per driver with approved loads in the company's month, and per period of the month with one scale version in
 * force: the scale's rate at the driver's month volume (pay.ts `resolveRate` without an assignment's own rate).
 */
async function scaleRates(db: Q, dialect: Dialect, companyId: number, month: string): Promise<RateRow[]> {
  const { start, end } = monthRange(month);
  const [bands, volumes] = await Promise.all([
    scaleBands(db, [companyId]).then((by) => by.get(companyId) ?? []),
    monthVolumes(db, dialect, companyId, month),
  ]);
  const periods = scalePeriods(bands, start, end);
  const rows: RateRow[] = [];
  for (const [driverId, sum] of volumes) {
    const volume = roundVolume(sum);
    for (const p of periods) rows.push({ driver_id: driverId, from: p.from, to: p.to, rate: ladderRate(p.version, volume), volume });
  }
  return rows;
}

/** Part of a month with one version of the scale in force: its days and that version's bands. */
interface ScalePeriod {
  from: string;
  to: string;
  version: ScaleBand[];
}

/** The month `start`–`end` cut where a version of the scale starts: within a period the version, so the rate, is one. */
function scalePeriods(bands: readonly ScaleBand[], start: string, end: string): ScalePeriod[] {
  const starts = [start, ...new Set(bands.map((b) => b.valid_from).filter((d) => d > start && d <= end))].sort();
  return starts.map((from, i) => ({ from, to: i + 1 < starts.length ? dayBefore(starts[i + 1] as string) : end, version: versionAt(bands, from) }));
}

/**
 * Per driver: the month's approved delivered volume, summed over slices of a few days (`SLICE_DAYS`), each its own
 * statement — a turn of the event loop between them, so a 200-truck month never holds the loop in one (issue 35).
 */
async function monthVolumes(db: Q, dialect: Dialect, companyId: number, month: string): Promise<Map<number, number>> {
  const by = new Map<number, number>();
  for (const part of monthSlices(monthRange(month), SLICE_DAYS)) {
    // Also inside a transaction (a close), where the database driver runs statement after statement in one turn.
    await giveWay(dialect);
    const rows = await db
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['td.driver_id', sql<number>`sum(${sql.raw(DELIVERED_SQL)})`.as('volume')])
      .where(sql<SqlBool>`r.review_status = 'approved'`)
      .where('t.company_id', '=', companyId)
      .where('t.date', '>=', part.start)
      .where('t.date', '<=', part.end)
      .groupBy('td.driver_id')
      .execute();
    for (const r of rows) by.set(r.driver_id, (by.get(r.driver_id) ?? 0) + Number(r.volume ?? 0));
  }
  return by;
}

/** One turn of the event loop: what other calls are waiting for runs before the next statement. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Turns of the event loop a long job's statement over loads lets pass before it runs on SQLite (besides the driver's
 * own turn outside a transaction, sqlite-driver.ts): a short call made meanwhile — a driver's dozen statements, one a
 * turn — runs ~GIVE_WAY of its statements for each of the job's, so it waits for a few of them, not for one per
 * statement of its own (statistics, the open month, the close; issue 35: no call delays another by more than 100 ms).
 * When no other call waits, a turn costs microseconds. PostgreSQL runs statements in its own processes: one turn.
 */
export const GIVE_WAY = 3;

export async function giveWay(dialect: Dialect): Promise<void> {
  for (let i = dialect === 'sqlite' ? GIVE_WAY : 1; i > 0; i--) await nextTurn();
}

const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The rates as a derived table `rt` (column1 driver, 2 from, 3 to, 4 rate, 5 volume: both databases name VALUES' columns so). */
function ratesTable(rows: readonly RateRow[]) {
  const values = (rows.length ? rows : [{ driver_id: -1, from: '', to: '', rate: null, volume: 0 }]).map(
    (r) => sql`(cast(${r.driver_id} as integer), cast(${r.from} as text), cast(${r.to} as text), cast(${r.rate} as double precision), cast(${r.volume} as double precision))`,
  );
  return sql<{ column1: number; column2: string; column3: string; column4: number | null; column5: number }>`(values ${sql.join(values)})`.as('rt');
}

/**
 * The company's approved loads dated `start`–`end` (within the month), not yet priced: tasks `t`, parts `td`,
 * reports `r`. A load already paid as a late load (payroll/late.ts) is left out, as `priceLive`'s callers leave it
 * out. The review state is a literal: the approved loads' covering index (migration 035) is partial on it.
 */
function approvedLoads(db: Q, companyId: number, month: string, start: string, end: string) {
  return everyApproved(db, companyId, start, end).where(sql<SqlBool>`r.id not in ${paidLate(companyId, month)}`);
}

/** The company's approved loads dated `start`–`end`, those paid late included (they count in the driver's month volume). */
const everyApproved = (db: Q, companyId: number, start: string, end: string) =>
  db
    .selectFrom('tasks as t')
    .innerJoin('task_drivers as td', 'td.task_id', 't.id')
    .innerJoin('reports as r', 'r.association_id', 'td.id')
    .where('t.company_id', '=', companyId)
    .where('t.date', '>=', start)
    .where('t.date', '<=', end)
    .where(sql<SqlBool>`r.review_status = 'approved'`);

/** The reports of the company's month already paid as late loads (payroll/late.ts), as a subquery. */
const paidLate = (companyId: number, month: string) =>
  sql`(select a.report_id from payroll_adjustments a where a.late = 1 and a.company_id = ${companyId} and a.concerns_month = ${month} and a.report_id is not null)`;

/**
 * Keeps a derived table a table of its own: each of its columns is computed once per row. Without it both databases
 * pull the subquery up into the query around it and copy its expressions into every place they are used — a load's
 * quantity then evaluated 4 times in its pay, 12 times in statistics' figures (SQLite: a subquery with a LIMIT is
 * not flattened into an aggregate or a join; PostgreSQL: OFFSET 0).
 */
const keepDerived = (dialect: Dialect) => (dialect === 'postgres' ? sql`offset 0` : sql`limit -1`);

/**
 * The loads of `approvedLoads`, each priced, as a derived table `p` to select from: company_id, report_id,
 * driver_id, association_id, task_id, date, trips, task_rate, quantity, rate, rate_source, month_volume,
 * amount_kop and revenue_kop. Two levels, each kept (`keepDerived`): the load's delivered volume and rate, then
 * its quantity, pay and revenue from them.
 */
function pricedLoads(db: Q, dialect: Dialect, companyId: number, month: string, rates: readonly RateRow[], start: string, end: string, revenue = true) {
  const raw = approvedLoads(db, companyId, month, start, end)
    .leftJoin(ratesTable(rates), (j) => j.on(sql<SqlBool>`rt.column1 = td.driver_id and t.date >= rt.column2 and t.date <= rt.column3`))
    .select([
      't.company_id',
      'r.id as report_id',
      'td.driver_id',
      'td.id as association_id',
      't.id as task_id',
      't.date',
      'r.trips',
      't.rate as task_rate',
      sql<number>`${sql.raw(DELIVERED_SQL)}`.as('delivered'),
      sql<number | null>`coalesce(td.transport_rate, rt.column4)`.as('rate'),
      sql<string | null>`(case when td.transport_rate is not null then 'transport_rate' when rt.column4 is not null then 'progressive' else null end)`.as('rate_source'),
      sql<number>`coalesce(rt.column5, 0)`.as('month_volume'),
    ])
    .modifyEnd(keepDerived(dialect));
  const quantity = quantitySql(dialect, sql<number>`l.delivered`);
  const priced = db
    .selectFrom(raw.as('l'))
    .select([
      'l.company_id',
      'l.report_id',
      'l.driver_id',
      'l.association_id',
      'l.task_id',
      'l.date',
      'l.trips',
      'l.task_rate',
      'l.rate',
      'l.rate_source',
      'l.month_volume',
      quantity.as('quantity'),
      amountKopSql(dialect, quantity, sql<number | null>`l.rate`).as('amount_kop'),
    ])
    // Computed for every load the derived table yields, used or not: left out where only the pay is summed.
    .$if(revenue, (qb) => qb.select(amountKopSql(dialect, quantity, sql<number | null>`l.task_rate`).as('revenue_kop')))
    .modifyEnd(keepDerived(dialect));
  return db.selectFrom(priced.as('p'));
}

/**
 * An open month's approved loads, priced: `loads` the whole month (or `range` of it) as a derived table `p` (see
 * `pricedLoads`), `part` another range of the same month with the same rates (read once), `pay` the same without
 * the revenue, `approved` the loads
 * of `range` unpriced (tasks `t`, parts `td`, reports `r`) for what needs no price.
 */
export async function openMonthPriced(db: Q, dialect: Dialect, companyId: number, month: string, range?: { start: string; end: string }) {
  const { start, end } = range ?? monthRange(month);
  const rates = await scaleRates(db, dialect, companyId, month);
  return {
    loads: pricedLoads(db, dialect, companyId, month, rates, start, end),
    part: (r: { start: string; end: string }) => pricedLoads(db, dialect, companyId, month, rates, r.start, r.end),
    /** Another range of the month, priced without the revenue (`revenue_kop`): the close's lines, the pay's sums. */
    pay: (r: { start: string; end: string }) => pricedLoads(db, dialect, companyId, month, rates, r.start, r.end, false),
    approved: approvedLoads(db, companyId, month, start, end),
  };
}

export type OpenMonthPriced = Awaited<ReturnType<typeof openMonthPriced>>;

/**
 * Per driver of an open month: loads, trips, delivered and pay, summed in SQL over slices of `SLICE_DAYS` days (each
 * its own statement, a turn of the event loop between: issue 35's «no call delays another»), the slices' sums added
 * here — the pay in whole kopecks, so exactly; the delivered volume rounded once at the end. Names are the caller's.
 *
 * One pass over the month's loads, not two (the drivers' volumes, then the loads priced at the rates they give): a
 * load's pay is `toKop(quantity × rate)`, and a driver's rate from the scale is one of the few rates of the versions
 * in force that month, the same for all their loads of a period. So each slice sums, per driver and period, every
 * load's pay at each of those rates (and at the assignment's own rate where it has one) beside the delivered
 * volume; once the volumes are known, the band each driver reaches picks which sum is theirs. Exact: the sum picked
 * is the sum of the very per-load amounts `pricedLoads` would compute (tests/server/open-month-sql.test.ts).
 */
export async function openMonthSums(db: Q, dialect: Dialect, companyId: number, month: string): Promise<{ driver_id: number; loads: number; trips: number; quantity: number; amount_kop: number }[]> {
  const range = monthRange(month);
  const bands = (await scaleBands(db, [companyId])).get(companyId) ?? [];
  const periods = scalePeriods(bands, range.start, range.end);
  const rates = [...new Set(periods.flatMap((p) => p.version.map((b) => b.rate)))];
  // The load's period: the last whose first day is on or before its date (a literal 0 when the month has one).
  const period =
    periods.length === 1
      ? sql<number>`0`
      : sql<number>`(case ${sql.join(
          periods
            .map((p, i) => ({ p, i }))
            .slice(1)
            .reverse()
            .map(({ p, i }) => sql`when t.date >= ${p.from} then ${i}`),
          sql` `,
        )} else 0 end)`;
  const by = new Map<string, { driver_id: number; period: number; loads: number; trips: number; quantity: number; own_kop: number; kop: number[] }>();
  const volumes = new Map<number, number>();
  for (const part of monthSlices(range, SLICE_DAYS)) {
    await giveWay(dialect);
    const loads = everyApproved(db, companyId, part.start, part.end)
      .select([
        'td.driver_id',
        period.as('period'),
        // A load paid late counts in its driver's volume, not in the month's loads and pay (`pricedLoads` leaves it out).
        sql<number>`(case when r.id in ${paidLate(companyId, month)} then 1 else 0 end)`.as('late'),
        'r.trips',
        'td.transport_rate',
        sql<number>`${sql.raw(DELIVERED_SQL)}`.as('delivered'),
        quantitySql(dialect, sql<number>`${sql.raw(DELIVERED_SQL)}`).as('quantity'),
      ])
      .modifyEnd(keepDerived(dialect));
    const q = sql<number>`l.quantity`;
    const rows = await db
      .selectFrom(loads.as('l'))
      .select([
        'l.driver_id',
        'l.period',
        'l.late',
        sql<number>`count(*)`.as('loads'),
        sql<number>`sum(l.trips)`.as('trips'),
        sql<number>`sum(l.delivered)`.as('volume'),
        sql<number>`sum(l.quantity)`.as('quantity'),
        sql<number>`sum(${amountKopSql(dialect, q, sql<number | null>`l.transport_rate`)})`.as('own_kop'),
        // At each rate of the scale: the loads without a rate of their own (a literal rate, bound as a double).
        ...rates.map((rate, k) =>
          sql<number>`sum(case when l.transport_rate is null then ${kopAtSql(dialect, q, sql<number>`cast(${rate} as double precision)`)} else 0 end)`.as(`kop${k}`),
        ),
      ])
      .groupBy(['l.driver_id', 'l.period', 'l.late'])
      .execute();
    for (const r of rows as unknown as Record<string, unknown>[]) {
      const driverId = Number(r.driver_id);
      const p = Number(r.period);
      volumes.set(driverId, (volumes.get(driverId) ?? 0) + Number(r.volume ?? 0));
      if (Number(r.late) === 1) continue;
      const key = `${driverId}:${p}`;
      const d = by.get(key) ?? { driver_id: driverId, period: p, loads: 0, trips: 0, quantity: 0, own_kop: 0, kop: rates.map(() => 0) };
      d.loads += Number(r.loads);
      d.trips += Number(r.trips);
      d.quantity += Number(r.quantity ?? 0);
      d.own_kop += Number(r.own_kop ?? 0);
      rates.forEach((_, k) => (d.kop[k] = (d.kop[k] as number) + Number(r[`kop${k}`] ?? 0)));
      by.set(key, d);
    }
  }
  const drivers = new Map<number, { driver_id: number; loads: number; trips: number; quantity: number; amount_kop: number }>();
  for (const d of by.values()) {
    const rate = ladderRate((periods[d.period] as ScalePeriod).version, roundVolume(volumes.get(d.driver_id) ?? 0));
    const s = drivers.get(d.driver_id) ?? { driver_id: d.driver_id, loads: 0, trips: 0, quantity: 0, amount_kop: 0 };
    s.loads += d.loads;
    s.trips += d.trips;
    s.quantity += d.quantity;
    s.amount_kop += d.own_kop + (rate === null ? 0 : (d.kop[rates.indexOf(rate)] as number));
    drivers.set(d.driver_id, s);
  }
  return [...drivers.values()].map((d) => ({ ...d, quantity: roundQuantity(d.quantity) }));
}

/**
 * How many days a statement over an open month reads at most: ~6 000 loads of a 200-truck carrier's month, a few
 * milliseconds of SQL each (issue 35: no call delays another by more than 100 ms).
 */
export const SLICE_DAYS = 3;

/** A month's slice cut every `days` days (1st–3rd, 4th–6th, … for 3): every figure summed over it is a sum over its days. */
export function monthSlices(slice: { start: string; end: string }, days: number): { start: string; end: string }[] {
  const parts = [];
  for (let start = slice.start; start <= slice.end; ) {
    let end = start;
    for (let i = 1; i < days && end < slice.end; i++) end = nextDay(end);
    parts.push({ start, end });
    start = nextDay(end);
  }
  return parts;
}

/** A month's slice cut at the 10th and the 20th: every figure summed over it is a sum over its days. */
export function monthThirds(slice: { month: string; start: string; end: string }): { month: string; start: string; end: string }[] {
  const cuts = [`${slice.month}-10`, `${slice.month}-20`];
  const parts = [];
  let start = slice.start;
  for (const cut of cuts) {
    if (cut >= start && cut < slice.end) {
      parts.push({ month: slice.month, start, end: cut });
      start = nextDay(cut);
    }
  }
  parts.push({ month: slice.month, start, end: slice.end });
  return parts;
}

const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
