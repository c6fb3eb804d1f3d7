/**
 * A company's figures for a period (the staff statistics, WAGES.md) at any length of history: aggregates, never
 * every load in memory. The period is walked month by month, and on SQLite what sums loads does so `SLICE_DAYS`
 * days a statement (`partsOf`: each statement is one turn of the event loop, the driver turning it before the next —
 * issue 35's «no call delays another by more than 100 ms»; tests/server/statistics-slices.test.ts; on PostgreSQL a
 * month a statement, which runs outside the event loop):
 * - a closed month the period covers whole is read from what its close stored (payroll/summary.ts): its drivers'
 *   totals (payroll_drivers) and its revenue, losses and tasks (payroll_months) — a few rows a month, whatever its
 *   loads; only when it has losses and the period's first LOSS_ITEMS are not yet named are its lines read for them,
 *   part by part until they are;
 * - a closed month the period cuts (its first or last) is summed from its stored lines in SQL, part by part: Σ
 *   amount_kop (the per-load kopecks as frozen), its revenue Σ of each load's quantity × task price rounded to the
 *   kopeck per load;
 * - an open month (the current one and the few not yet closed) is priced by the one rule in SQL (open-month.ts:
 *   the drivers' month volumes and bands first, then each load priced and rounded per load in the query), part by
 *   part with the month's rates read once;
 * - the loads not approved are counted a month a statement on SQLite (`reports_unapproved_idx`, a partial index:
 *   migration 029).
 * Per part the sums come per task and driver: the drivers' sums and the tasks (a task's loads share its date, so
 * its part) add up exactly — kopecks as integers, the delivered volume rounded once at the end. Per-load detail is
 * paged (`companyLoads`, company-loads.ts). The figures equal those of /payroll and the driver's statistics to the kopeck
 * (tests/server/money-properties.test.ts, payroll.test.ts, statistics-summary.test.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fromKop, LOSS_ITEMS, monthOf, monthRange, nextMonth, type CompanyWageItem, type CompanyWages } from '../../contract/money.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { amountKop, byDriverName, priceLoads, selectLoads, type Period } from './pay.ts';
import { companyPending } from './pending.ts';
import { giveWay, kopSql, monthSlices as daySlices, openMonthPriced, SLICE_DAYS } from './open-month.ts';
import { companyItem, transfersOf } from './company-loads.ts';

type Slice = { month: string; start: string; end: string };

/**
 * A month's slice in parts of `SLICE_DAYS` whole days, in date order: each figure is one short statement per part
 * (~3 600 loads of a 200-truck carrier, a few milliseconds), so no statement holds the event loop for long (issue 35:
 * no call delays another by more than 100 ms; outside a transaction the SQLite driver turns the loop before each).
 * PostgreSQL runs a statement in its own process, not in the event loop: there the slice stays one statement, whose
 * plan reads the month's assignments once (per part, its plan read them all again: `Seq Scan on task_drivers`).
 */
const partsOf = (db: Db, slice: Slice): Slice[] => (db.dialect === 'postgres' ? [slice] : daySlices(slice, SLICE_DAYS).map((p) => ({ month: slice.month, ...p })));

interface DriverSum {
  loads: number;
  trips: number;
  quantity: number;
  payKop: number;
  adjKop: number;
}

interface Acc {
  loads: number;
  tasks: number;
  quantity: number;
  payKop: number;
  revenueKop: number;
  lossCount: number;
  lossItems: CompanyWageItem[];
  drivers: Map<number, DriverSum>;
}

const driverSum = (acc: Acc, id: number): DriverSum => {
  const d = acc.drivers.get(id) ?? { loads: 0, trips: 0, quantity: 0, payKop: 0, adjKop: 0 };
  acc.drivers.set(id, d);
  return d;
};

interface PartRow {
  task_id: number;
  driver_id: number;
  loads: number;
  trips: number;
  quantity: number;
  pay_kop: number;
  revenue_kop: number;
  losses: number;
}

/**
 * A part's sums per task and driver (SQL aggregates) into the period's figures: the drivers' sums, the company's,
 * its tasks (a task's loads are all on its date, so in one part: the parts' tasks are disjoint) and losses.
 */
function addPart(acc: Acc, rows: readonly PartRow[]): void {
  addDriverRows(acc, rows);
  acc.tasks += new Set(rows.map((r) => r.task_id)).size;
  for (const r of rows) acc.lossCount += Number(r.losses);
}

/** Per-driver sums into the period's figures. */
function addDriverRows(acc: Acc, rows: readonly Omit<PartRow, 'task_id' | 'losses'>[]): void {
  for (const r of rows) {
    const d = driverSum(acc, r.driver_id);
    d.loads += Number(r.loads);
    d.trips += Number(r.trips);
    d.quantity += Number(r.quantity);
    d.payKop += Number(r.pay_kop);
    acc.loads += Number(r.loads);
    acc.quantity += Number(r.quantity);
    acc.payKop += Number(r.pay_kop);
    acc.revenueKop += Number(r.revenue_kop);
  }
}

/**
 * The months a period touches, each clipped to it, within the months of the company's first and last task (no
 * load is dated outside them: the months before a young company's first task are not walked); «all time» is those
 * months whole. Two index lookups (min and max apart, each one step of the company's date index).
 */
async function monthSlices(db: Db, companyId: number, period: Period): Promise<Slice[]> {
  const tasks = db.kysely.selectFrom('tasks').where('company_id', '=', companyId);
  const [first, last] = await Promise.all([
    tasks.select(sql<string | null>`min(date)`.as('d')).executeTakeFirst(),
    tasks.select(sql<string | null>`max(date)`.as('d')).executeTakeFirst(),
  ]);
  if (!first?.d || !last?.d) return [];
  const spanStart = monthRange(monthOf(first.d)).start;
  const spanEnd = monthRange(monthOf(last.d)).end;
  const start = period.start_date === undefined || period.start_date < spanStart ? spanStart : period.start_date;
  const end = period.end_date === undefined || period.end_date > spanEnd ? spanEnd : period.end_date;
  if (start > end) return [];
  const slices = [];
  for (let month = monthOf(start); month <= monthOf(end); month = nextMonth(month)) {
    const range = monthRange(month);
    slices.push({ month, start: range.start > start ? range.start : start, end: range.end < end ? range.end : end });
  }
  return slices;
}

/**
 * The company's approved loads of a closed month's slice, from its stored lines (the joins selectLoads makes). On
 * SQLite the lines' month is no index key (`+`): a part of a few days is read from the company's tasks of those
 * days, each load's line by its report, not by walking the month's every line in its index.
 */
function closedLines(db: Db, companyId: number, slice: Slice) {
  const line = (column: 'company_id' | 'month') => (db.dialect === 'postgres' ? sql.ref(`pl.${column}`) : sql`+pl.${sql.ref(column)}`);
  return db.kysely
    .selectFrom('payroll_lines as pl')
    .innerJoin('reports as r', 'r.id', 'pl.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .where(line('company_id'), '=', companyId)
    .where(line('month'), '=', slice.month)
    .where('pl.date', '>=', slice.start)
    .where('pl.date', '<=', slice.end)
    .where('t.company_id', '=', companyId)
    .where('t.date', '>=', slice.start)
    .where('t.date', '<=', slice.end)
    .where('r.review_status', '=', 'approved');
}

/** A closed month's slice cut by the period, summed from its stored lines part by part (`partsOf`). */
async function addClosed(db: Db, companyId: number, slice: Slice, acc: Acc, transferOf: Map<number, number>): Promise<void> {
  const revenue = closedRevenue(db);
  for (const part of partsOf(db, slice)) {
    await giveWay(db.dialect);
    const rows = await closedLines(db, companyId, part)
      .select([
        't.id as task_id',
        'td.driver_id',
        sql<number>`count(*)`.as('loads'),
        sql<number>`sum(r.trips)`.as('trips'),
        sql<number>`sum(pl.quantity)`.as('quantity'),
        sql<number>`sum(pl.amount_kop)`.as('pay_kop'),
        sql<number>`sum(${revenue})`.as('revenue_kop'),
        sql<number>`sum(case when ${revenue} < pl.amount_kop then 1 else 0 end)`.as('losses'),
      ])
      .groupBy(['t.id', 'td.driver_id'])
      .execute();
    addPart(acc, rows);
    if (rows.some((r) => Number(r.losses) > 0)) await addClosedLossItems(db, companyId, part, acc, transferOf);
  }
}

/** The revenue of a stored line `pl` at its task's price `t.rate`, per load to the kopeck. */
const closedRevenue = (db: Db) => sql<number>`case when t.rate is null then 0 else ${kopSql(db.dialect, sql`pl.quantity * t.rate`)} end`;

/** The first loss loads of a closed month's part, oldest first, while the period has named fewer than LOSS_ITEMS. */
async function addClosedLossItems(db: Db, companyId: number, slice: Slice, acc: Acc, transferOf: Map<number, number>): Promise<void> {
  const wanted = LOSS_ITEMS - acc.lossItems.length;
  if (wanted <= 0) return;
  await giveWay(db.dialect);
  const ids = await closedLines(db, companyId, slice)
    .select('r.id')
    .where(sql<boolean>`${closedRevenue(db)} < pl.amount_kop`)
    .orderBy('t.date')
    .orderBy('r.id')
    .limit(wanted)
    .execute();
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, reportIds: ids.map((i) => i.id), review: 'approved' }));
  acc.lossItems.push(...loads.map((l) => companyItem(l, transferOf)));
}

interface StoredMonth {
  revenue_kop: number;
  losses: number;
  tasks: number;
}

/**
 * The closed months the period covers whole, from what their closes stored (payroll/summary.ts): the drivers'
 * totals summed over the months in one aggregate, the months' revenue, losses and tasks added. Their loss loads are
 * named later, month by month in the period's order (`addClosedLossItems`).
 */
async function addStored(db: Db, companyId: number, months: ReadonlyMap<string, StoredMonth>, acc: Acc): Promise<void> {
  if (months.size === 0) return;
  const rows = await db.kysely
    .selectFrom('payroll_drivers')
    .select(['driver_id', sql<number>`sum(loads)`.as('loads'), sql<number>`sum(trips)`.as('trips'), sql<number>`sum(quantity)`.as('quantity'), sql<number>`sum(amount_kop)`.as('pay_kop')])
    .where('company_id', '=', companyId)
    .where('month', 'in', [...months.keys()])
    .groupBy('driver_id')
    .execute();
  addDriverRows(acc, rows.map((r) => ({ ...r, revenue_kop: 0 })));
  for (const m of months.values()) {
    acc.revenueKop += m.revenue_kop;
    acc.lossCount += m.losses;
    acc.tasks += m.tasks;
  }
}

/**
 * An open month's slice: its loads priced in SQL (open-month.ts), summed per task and driver part by part (`partsOf`);
 * only the first losses read as loads.
 */
async function addOpen(db: Db, companyId: number, slice: Slice, acc: Acc, transferOf: Map<number, number>): Promise<void> {
  const p = await openMonthPriced(db.kysely, db.dialect, companyId, slice.month, slice);
  for (const part of partsOf(db, slice)) {
    await giveWay(db.dialect);
    const rows = await p
      .part(part)
      .select([
        'p.task_id',
        'p.driver_id',
        sql<number>`count(*)`.as('loads'),
        sql<number>`sum(p.trips)`.as('trips'),
        sql<number>`sum(p.quantity)`.as('quantity'),
        sql<number>`sum(p.amount_kop)`.as('pay_kop'),
        sql<number>`sum(p.revenue_kop)`.as('revenue_kop'),
        sql<number>`sum(case when p.revenue_kop < p.amount_kop then 1 else 0 end)`.as('losses'),
      ])
      .groupBy(['p.task_id', 'p.driver_id'])
      .execute();
    addPart(acc, rows);
    const wanted = LOSS_ITEMS - acc.lossItems.length;
    if (wanted > 0 && rows.some((r) => Number(r.losses) > 0)) {
      const ids = await p.part(part).select('p.report_id as id').where(sql<boolean>`p.revenue_kop < p.amount_kop`).orderBy('p.date').orderBy('p.report_id').limit(wanted).execute();
      const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, reportIds: ids.map((i) => i.id), review: 'approved' }));
      acc.lossItems.push(...loads.map((l) => companyItem(l, transferOf)));
    }
  }
}

/** The company's figures: drivers' pay, revenue, margin, losses, transfers both ways — aggregates only. */
export async function companyStatistics(db: Db, companyId: number, period: Period): Promise<CompanyWages> {
  const incoming = await transfersOf(db, companyId, 'to', period);
  const outgoing = await transfersOf(db, companyId, 'from', period);
  const transferOf = new Map(incoming.map((t) => [t.carrier_task_id, t.transfer_id]));
  const slices = await monthSlices(db, companyId, period);
  const closedRows =
    slices.length === 0
      ? []
      : await db.kysely
          .selectFrom('payroll_months')
          .select(['month', 'revenue_kop', 'losses', 'tasks'])
          .where('company_id', '=', companyId)
          .where('status', '=', 'closed')
          .where('month', '>=', (slices[0] as { month: string }).month)
          .where('month', '<=', (slices.at(-1) as { month: string }).month)
          .execute();
  const closed = new Set(closedRows.map((r) => r.month));
  // A closed month the period covers whole is read as stored (a month closed before its figures were, none: its lines).
  const stored = new Map<string, StoredMonth>();
  for (const r of closedRows) {
    const slice = slices.find((x) => x.month === r.month);
    const range = monthRange(r.month);
    if (slice?.start === range.start && slice.end === range.end && r.revenue_kop !== null && r.losses !== null && r.tasks !== null) {
      stored.set(r.month, { revenue_kop: Number(r.revenue_kop), losses: Number(r.losses), tasks: Number(r.tasks) });
    }
  }
  const acc: Acc = { loads: 0, tasks: 0, quantity: 0, payKop: 0, revenueKop: 0, lossCount: 0, lossItems: [], drivers: new Map() };
  await addStored(db, companyId, stored, acc);
  for (const slice of slices) {
    const whole = stored.get(slice.month);
    if (whole) {
      // Its figures are in; its lines are read only for the period's first loss loads, part by part until named.
      if (whole.losses > 0) for (const part of partsOf(db, slice)) if (acc.lossItems.length < LOSS_ITEMS) await addClosedLossItems(db, companyId, part, acc, transferOf);
      continue;
    }
    if (closed.has(slice.month)) await addClosed(db, companyId, slice, acc, transferOf);
    else await addOpen(db, companyId, slice, acc, transferOf);
  }
  const adjustments = await db.kysely
    .selectFrom('payroll_adjustments')
    .select(['driver_id', sql<number>`sum(amount_kop)`.as('kop')])
    .where('company_id', '=', companyId)
    .$if(period.start_date !== undefined, (qb) => qb.where('date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('date', '<=', period.end_date as string))
    .groupBy('driver_id')
    .execute();
  let adjustmentsKop = 0;
  for (const a of adjustments) {
    driverSum(acc, a.driver_id).adjKop += Number(a.kop);
    adjustmentsKop += Number(a.kop);
  }
  const ids = [...acc.drivers.keys()];
  const names = new Map(ids.length ? (await db.kysely.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute()).map((u) => [u.id, u.name]) : []);
  const drivers = [...acc.drivers]
    .map(([driver_id, d]) => ({
      driver_id,
      driver_name: names.get(driver_id) ?? '',
      total_quantity: roundQuantity(d.quantity),
      loads_amount: fromKop(d.payKop),
      adjustments_amount: fromKop(d.adjKop),
      total_amount: fromKop(d.payKop + d.adjKop),
    }))
    .sort(byDriverName);

  // Work done for other companies: the carrier tasks' own loads (few), priced as every other figure.
  const carrierIds = incoming.map((t) => t.carrier_task_id);
  const carried = carrierIds.length ? await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, taskIds: carrierIds, ...period, review: 'approved' })) : [];
  return {
    company_id: companyId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: roundQuantity(acc.quantity),
    loads_amount: fromKop(acc.payKop),
    adjustments_amount: fromKop(adjustmentsKop),
    total_amount: fromKop(acc.payKop + adjustmentsKop),
    revenue: fromKop(acc.revenueKop),
    margin: fromKop(acc.revenueKop - acc.payKop - adjustmentsKop),
    pending: await companyPending(db, companyId, slices),
    loads: acc.loads,
    tasks: acc.tasks,
    drivers,
    losses: { count: acc.lossCount, items: acc.lossItems },
    for_other_companies: incoming.map((t) => {
      const mine = carried.filter((l) => l.task_id === t.carrier_task_id);
      return {
        transfer_id: t.transfer_id,
        company_id: t.company_id,
        company_name: t.company_name,
        carrier_task_id: t.carrier_task_id,
        date: t.date,
        cargo: t.cargo,
        quantity: t.quantity,
        completed_quantity: t.completed_quantity,
        drivers_amount: fromKop(mine.reduce((s, l) => s + l.amount_kop, 0)),
        revenue: fromKop(mine.reduce((s, l) => s + amountKop(l.quantity, l.task_rate), 0)),
      };
    }),
    transferred_out: outgoing.map((t) => ({
      transfer_id: t.transfer_id,
      company_id: t.company_id,
      company_name: t.company_name,
      task_id: t.task_id,
      carrier_task_id: t.carrier_task_id,
      date: t.date,
      cargo: t.cargo,
      quantity: t.quantity,
      completed_quantity: t.completed_quantity,
    })),
  };
}
