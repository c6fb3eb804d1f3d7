/**
 * The one rate rule (server/routes/WAGES.md). A load is one approved report; its quantity is what it delivered
 * (docs/loads.md); its date and month are its task's. Its driver's rate:
 *   1. the assignment's own rate (`task_drivers.transport_rate`), else
 *   2. the company's scale — the version in force on the load's date — at the band reached by the driver's whole
 *      approved volume in that company in that month.
 * A load in a closed month is read as stored at close (payroll_lines), never recomputed. Every figure that shows a
 * driver's rate or pay — statistics, /payroll, the sheets, the exports, the driver's own task card — comes from
 * here; the task's own `rate` is the customer's price and is never a driver's pay.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DELIVERED_SQL, roundQuantity, roundVolume } from '../tasks/progress.ts';
import { ladderRate, type LadderBand } from '../../contract/ladder.ts';
import { fromKop, monthOf, monthRange, toKop, type Adjustment, type DriverPay, type PayrollDriver, type RateSource, type WageItem } from '../../contract/money.ts';
import { queryTemplate } from '../db/template.ts';
import { isPostgres } from '../db/dialect.ts';
import { currentOpenMonth } from '../payroll/months.ts';

type Q = Kysely<Database>;

export interface Period {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

export interface LoadRow {
  report_id: number;
  association_id: number;
  task_id: number;
  company_id: number;
  created_by: number | null;
  driver_id: number;
  driver_name: string;
  date: string;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  loading_place_id: number | null;
  unloading_place_id: number | null;
  unit: string;
  trips: number;
  ticket_number: string | null;
  /** What it delivered (docs/loads.md), rounded. */
  quantity: number;
  /** As reported: the report's own quantity, the loading and unloading totals (the statement shows them). */
  reported: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  trip_uid: string | null;
  transport_rate: number | null;
  task_rate: number | null;
  review_status: string;
  /** Its line stored when its month was closed (only a closed month has lines). */
  stored: StoredLine | null;
}

/** A load's figures as stored at its month's close (payroll_lines). */
export interface StoredLine {
  quantity: number;
  rate: number | null;
  rate_source: RateSource | null;
  month_volume: number;
  amount_kop: number;
}

export interface LoadFilter extends Period {
  driverId?: number;
  companyId?: number;
  /** The task's customer (the statement of trips, server/statements/statement.ts). */
  customerId?: number;
  createdBy?: number;
  associationIds?: readonly number[];
  taskIds?: readonly number[];
  reportIds?: readonly number[];
  /** A page of the loads (in their order): at most `limit` after skipping `offset`. */
  limit?: number;
  offset?: number;
  /** approved: the loads that are paid; unapproved: pending or disputed (not paid yet); any: both. */
  review: 'approved' | 'unapproved' | 'any';
}

/** Loads (reports) with their task and assignment, oldest first; each with its stored line if its month is closed. */
export async function selectLoads(db: Q, f: LoadFilter): Promise<LoadRow[]> {
  const rows = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    // A load's stored line by its report (a unique index): a closed month is read with its loads, not apart.
    .leftJoin('payroll_lines as pl', 'pl.report_id', 'r.id')
    .select([
      'r.id as report_id',
      'td.id as association_id',
      't.id as task_id',
      't.company_id',
      't.created_by',
      'td.driver_id',
      'u.name as driver_name',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.loading_place_id',
      't.unloading_place_id',
      't.unit',
      'r.trips',
      'r.ticket_number',
      sql<number>`${sql.raw(DELIVERED_SQL)}`.as('quantity'),
      'r.quantity as reported',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      'r.trip_uid',
      'td.transport_rate',
      't.rate as task_rate',
      'r.review_status',
      'pl.id as line_id',
      'pl.quantity as line_quantity',
      'pl.rate as line_rate',
      'pl.rate_source as line_rate_source',
      'pl.month_volume as line_month_volume',
      'pl.amount_kop as line_amount_kop',
    ])
    .$if(f.review === 'approved', (qb) => qb.where('r.review_status', '=', 'approved'))
    .$if(f.review === 'unapproved', (qb) => qb.where('r.review_status', '<>', 'approved'))
    .$if(f.driverId !== undefined, (qb) => qb.where('td.driver_id', '=', f.driverId as number))
    .$if(f.companyId !== undefined, (qb) => qb.where('t.company_id', '=', f.companyId as number))
    .$if(f.customerId !== undefined, (qb) => qb.where('t.customer_id', '=', f.customerId as number))
    .$if(f.createdBy !== undefined, (qb) => qb.where('t.created_by', '=', f.createdBy as number))
    .$if(f.taskIds !== undefined, (qb) => qb.where('t.id', 'in', f.taskIds?.length ? [...(f.taskIds as number[])] : [-1]))
    .$if(f.associationIds !== undefined, (qb) => qb.where('r.association_id', 'in', f.associationIds?.length ? [...(f.associationIds as number[])] : [-1]))
    .$if(f.reportIds !== undefined, (qb) => qb.where('r.id', 'in', f.reportIds?.length ? [...(f.reportIds as number[])] : [-1]))
    .$if(f.start_date !== undefined, (qb) => qb.where('t.date', '>=', f.start_date as string))
    .$if(f.end_date !== undefined, (qb) => qb.where('t.date', '<=', f.end_date as string))
    .orderBy('t.date')
    .orderBy('r.id')
    .$if(f.limit !== undefined, (qb) => qb.limit(f.limit as number).offset(f.offset ?? 0))
    .execute();
  return rows.map(({ line_id, line_quantity, line_rate, line_rate_source, line_month_volume, line_amount_kop, ...r }) => ({
    ...r,
    quantity: roundQuantity(Number(r.quantity ?? 0)),
    trips: Number(r.trips),
    stored:
      line_id === null
        ? null
        : { quantity: line_quantity as number, rate: line_rate, rate_source: line_rate_source as RateSource | null, month_volume: line_month_volume as number, amount_kop: Number(line_amount_kop) },
  }));
}

export interface ScaleBand extends LadderBand {
  company_id: number;
  valid_from: string;
}

/** The scale's version in force on `date`: the bands of the latest version starting on or before it. */
export function versionAt(bands: readonly ScaleBand[], date: string): ScaleBand[] {
  let from: string | null = null;
  for (const b of bands) if (b.valid_from <= date && (from === null || b.valid_from > from)) from = b.valid_from;
  return from === null ? [] : bands.filter((b) => b.valid_from === from);
}

/** The rule itself, pure: the assignment's rate, else the scale's version on `date` at `monthVolume`. */
export function resolveRate(input: { transport_rate: number | null; bands: readonly ScaleBand[]; date: string; month_volume: number }): { rate: number | null; source: RateSource | null } {
  if (input.transport_rate !== null) return { rate: input.transport_rate, source: 'transport_rate' };
  const rate = ladderRate(versionAt(input.bands, input.date), input.month_volume);
  return rate === null ? { rate: null, source: null } : { rate, source: 'progressive' };
}

export const amountKop = (quantity: number, rate: number | null): number => (rate === null ? 0 : toKop(quantity * rate));

/** What pricing adds to a load; amounts also in kopecks for exact sums. */
export interface Priced {
  rate: number | null;
  rate_source: RateSource | null;
  month_volume: number;
  amount_kop: number;
  frozen: boolean;
}

/** A load priced. */
export interface PricedLoad extends LoadRow, Priced {}

/** What the rule reads of a load (a lean row of the open month's loads will do). */
export type PricingInput = Pick<LoadRow, 'company_id' | 'driver_id' | 'date' | 'transport_rate' | 'quantity'>;

const volumeKey = (driverId: number, companyId: number, month: string) => `${driverId}:${companyId}:${month}`;

const bandsOf = queryTemplate((db, companyIds: readonly number[]) =>
  db.selectFrom('progressive_rates').select(['id', 'company_id', 'valid_from', 'min_quantity', 'max_quantity', 'rate']).where('company_id', 'in', companyIds),
);

export async function scaleBands(db: Q, companyIds: readonly number[]): Promise<Map<number, ScaleBand[]>> {
  const rows = companyIds.length ? await bandsOf(db, [...companyIds]) : [];
  const by = new Map<number, ScaleBand[]>();
  for (const r of rows) by.set(r.company_id, [...(by.get(r.company_id) ?? []), r]);
  return by;
}

const approvedVolumes = queryTemplate((db, driverIds: readonly number[], companyIds: readonly number[], from: string, to: string) =>
  db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.driver_id', 't.company_id', sql<string>`substr(t.date, 1, 7)`.as('month'), sql<number>`sum(${sql.raw(DELIVERED_SQL)})`.as('volume')])
    .where('r.review_status', '=', 'approved')
    // SQLite `+`: the drivers filter each part of the period's tasks; as an index key SQLite probed every task ×
    // driver. PostgreSQL cannot use the drivers' index for the expression and read all 385 000 assignments (0.14 s at
    // full size, against 0.05 s from the index).
    .where(isPostgres(db) ? sql.ref('td.driver_id') : sql`+td.driver_id`, 'in', driverIds)
    .where('t.company_id', 'in', companyIds)
    .where('t.date', '>=', from)
    .where('t.date', '<=', to)
    .groupBy(['td.driver_id', 't.company_id', sql`substr(t.date, 1, 7)`]),
);

/** Σ approved delivered per driver, company and month, for the months the keys name. */
async function monthVolumes(db: Q, keys: readonly { driver_id: number; company_id: number; month: string }[]): Promise<Map<string, number>> {
  const volumes = new Map<string, number>();
  if (keys.length === 0) return volumes;
  const months = [...new Set(keys.map((k) => k.month))].sort();
  const rows = await approvedVolumes(
    db,
    [...new Set(keys.map((k) => k.driver_id))],
    [...new Set(keys.map((k) => k.company_id))],
    monthRange(months[0] as string).start,
    monthRange(months.at(-1) as string).end,
  );
  for (const r of rows) volumes.set(volumeKey(r.driver_id, r.company_id, r.month), roundVolume(Number(r.volume ?? 0)));
  return volumes;
}

/**
 * The loads among `loads` paid as late loads (payroll/late.ts): the system's adjustment (`late`) for them.
 * Such a payment outlives a reopening of the load's month only when it is dated in a month that is closed.
 */
export async function latePaid(db: Q, loads: readonly { company_id: number; date: string }[]): Promise<Set<number>> {
  if (loads.length === 0) return new Set();
  const rows = await db
    .selectFrom('payroll_adjustments')
    .select('report_id')
    .where('late', '=', 1)
    .where('company_id', 'in', [...new Set(loads.map((l) => l.company_id))])
    .where('concerns_month', 'in', [...new Set(loads.map((l) => monthOf(l.date)))])
    .execute();
  return new Set(rows.map((r) => r.report_id as number));
}

/**
 * Prices approved loads by the one rule; loads of a closed month come as stored at close (a load of a closed
 * month that has no stored line — approved after close cannot happen; one pending at close — is left out: it is
 * paid, if at all, by an adjustment). A load of an open month already paid as a late load (its month closed
 * then, reopened since, the payment in a month still closed) is left out too: paid once, by that adjustment.
 */
export async function priceLoads(db: Q, loads: readonly LoadRow[]): Promise<PricedLoad[]> {
  if (loads.length === 0) return [];
  const closed = await closedMonths(db, loads.map((l) => ({ company_id: l.company_id, month: monthOf(l.date) })));
  const inClosed = (l: LoadRow) => closed.has(`${l.company_id}:${monthOf(l.date)}`);
  const paidLate = await latePaid(db, loads.filter((l) => !inClosed(l)));
  const live = new Map((await priceLive(db, loads.filter((l) => !inClosed(l) && !paidLate.has(l.report_id)))).map((l) => [l.report_id, l]));
  const priced: PricedLoad[] = [];
  for (const l of loads) {
    if (paidLate.has(l.report_id)) continue;
    if (inClosed(l)) {
      const line = l.stored;
      if (!line) continue;
      priced.push({ ...l, quantity: line.quantity, rate: line.rate, rate_source: line.rate_source, month_volume: line.month_volume, amount_kop: line.amount_kop, frozen: true });
      continue;
    }
    priced.push(live.get(l.report_id) as PricedLoad);
  }
  return priced;
}

/**
 * The rule applied now, whatever the month: the assignment's rate, else the scale's version on the load's date at
 * the driver's approved volume in its month. Open months' loads; and a load its closed month did not store (a
 * late load, payroll/late.ts), which is paid in the next open month at what the rule says for it.
 */
export async function priceLive<T extends PricingInput>(db: Q, loads: readonly T[]): Promise<(T & Priced)[]> {
  if (loads.length === 0) return [];
  const bands = await scaleBands(db, [...new Set(loads.filter((l) => l.transport_rate === null).map((l) => l.company_id))]);
  const volumes = await monthVolumes(
    db,
    [...new Map(loads.map((l) => [volumeKey(l.driver_id, l.company_id, monthOf(l.date)), { driver_id: l.driver_id, company_id: l.company_id, month: monthOf(l.date) }])).values()],
  );
  return loads.map((l) => {
    const month_volume = volumes.get(volumeKey(l.driver_id, l.company_id, monthOf(l.date))) ?? 0;
    const { rate, source } = resolveRate({ transport_rate: l.transport_rate, bands: bands.get(l.company_id) ?? [], date: l.date, month_volume });
    return { ...l, rate, rate_source: source, month_volume, amount_kop: amountKop(l.quantity, rate), frozen: false };
  });
}

/** A priced load as the wire's WageItem. */
export function toWageItem(l: PricedLoad): WageItem {
  return {
    report_id: l.report_id,
    association_id: l.association_id,
    task_id: l.task_id,
    date: l.date,
    cargo: l.cargo,
    unit: l.unit,
    trips: l.trips,
    ticket_number: l.ticket_number,
    quantity: l.quantity,
    rate: l.rate,
    rate_source: l.rate_source,
    month_volume: l.month_volume,
    amount: fromKop(l.amount_kop),
    frozen: l.frozen,
  };
}

/**
 * What a driver is paid per unit on tasks (their task cards): the assignment's own rate where it has one, else
 * the scale's band for the task's date at the driver's approved volume in the task's company that month.
 */
export async function driverPayFor(
  db: Q,
  driverId: number,
  tasks: readonly { id: number; company_id: number; date: string; transport_rate: number | null }[],
): Promise<Map<number, DriverPay>> {
  const pay = new Map<number, DriverPay>();
  if (tasks.length === 0) return pay;
  const keys = [...new Map(tasks.map((t) => [volumeKey(driverId, t.company_id, monthOf(t.date)), { driver_id: driverId, company_id: t.company_id, month: monthOf(t.date) }])).values()];
  const [volumes, bands, closed] = await Promise.all([monthVolumes(db, keys), scaleBands(db, [...new Set(tasks.map((t) => t.company_id))]), closedMonths(db, keys)]);
  const paidIn = new Map<number, string>();
  for (const companyId of new Set([...closed].map((key) => Number(key.split(':')[0])))) paidIn.set(companyId, await currentOpenMonth(db, companyId));
  for (const t of tasks) {
    const month_volume = volumes.get(volumeKey(driverId, t.company_id, monthOf(t.date))) ?? 0;
    const { rate, source } = resolveRate({ transport_rate: t.transport_rate, bands: bands.get(t.company_id) ?? [], date: t.date, month_volume });
    const late = closed.has(`${t.company_id}:${monthOf(t.date)}`) ? paidIn.get(t.company_id) : undefined;
    pay.set(t.id, { rate, source, month_volume, ...(late ? { paid_in: late } : {}) });
  }
  return pay;
}

/** The (company, month) pairs among `keys` that are closed. */
export async function closedMonths(db: Q, keys: readonly { company_id: number; month: string }[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('payroll_months')
    .select(['company_id', 'month'])
    .where('status', '=', 'closed')
    .where('company_id', 'in', [...new Set(keys.map((k) => k.company_id))])
    .where('month', 'in', [...new Set(keys.map((k) => k.month))])
    .execute();
  return new Set(rows.map((r) => `${r.company_id}:${r.month}`));
}

/** Sums kopecks exactly, and quantities rounded to the gram. */
export const sumKop = <T>(list: readonly T[], of: (item: T) => number): number => list.reduce((s, item) => s + of(item), 0);
export const sumQuantity = <T>(list: readonly T[], of: (item: T) => number): number => roundQuantity(list.reduce((s, item) => s + of(item), 0));

/** Per driver: loads, delivered, pay for loads, adjustments and the total, sorted by name (the company's figures and /payroll). */
export function driverTotals(loads: readonly PricedLoad[], adjustments: readonly Adjustment[]): PayrollDriver[] {
  return sumDrivers(loads.map((l) => ({ driver_id: l.driver_id, driver_name: l.driver_name, loads: 1, trips: l.trips, quantity: l.quantity, amount_kop: l.amount_kop })), adjustments);
}

/** A driver's loads summed (one load, or a closed month's stored totals: payroll_drivers). */
export interface DriverSum {
  driver_id: number;
  driver_name: string;
  loads: number;
  trips: number;
  quantity: number;
  amount_kop: number;
}

/** Per driver: the sums of `rows` and the adjustments, sorted by name. */
export function sumDrivers(rows: readonly DriverSum[], adjustments: readonly Adjustment[]): PayrollDriver[] {
  const by = new Map<number, PayrollDriver & { loadsKop: number; adjKop: number }>();
  const row = (driver_id: number, driver_name: string) => {
    const r = by.get(driver_id) ?? { driver_id, driver_name, loads: 0, trips: 0, quantity: 0, loads_amount: 0, adjustments_amount: 0, total_amount: 0, loadsKop: 0, adjKop: 0 };
    by.set(driver_id, r);
    return r;
  };
  for (const l of rows) {
    const r = row(l.driver_id, l.driver_name);
    r.loads += l.loads;
    r.trips += l.trips;
    r.quantity = roundQuantity(r.quantity + l.quantity);
    r.loadsKop += l.amount_kop;
  }
  for (const a of adjustments) row(a.driver_id, a.driver_name).adjKop += toKop(a.amount);
  return [...by.values()]
    .map(({ loadsKop, adjKop, ...r }) => ({ ...r, loads_amount: fromKop(loadsKop), adjustments_amount: fromKop(adjKop), total_amount: fromKop(loadsKop + adjKop) }))
    .sort(byDriverName);
}

/**
 * Drivers in the order every list shows them: by name (Russian), then id. One collator for all: `localeCompare(…, 'ru')`
 * builds one per comparison — ~5 ms to sort a 200-driver month, in every /payroll and close (issue 35).
 */
const names = new Intl.Collator('ru');
export const byDriverName = (a: { driver_name: string; driver_id: number }, b: { driver_name: string; driver_id: number }): number =>
  names.compare(a.driver_name, b.driver_name) || a.driver_id - b.driver_id;
