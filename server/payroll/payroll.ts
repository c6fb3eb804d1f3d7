/**
 * A company's payroll month (server/routes/WAGES.md «Расчёт с водителями»). The month's figures are the wages'
 * figures (wages/pay.ts): its approved loads priced by the one rule, the adjustments dated in it, the loads still
 * waiting apart. A closed month is read from what its close stored (the close and the reopening: close.ts;
 * payroll/months.ts guards every change of a closed month).
 */
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import type { Dialect } from '../db/migrations.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { fromKop, monthOf, monthRange, toKop, type Adjustment, type AdjustmentPayload, type DriverPayrollMonth, type PayrollItems, type PayrollMonth, type RateSource, type WageItem } from '../../contract/money.ts';
import { openMonthSums } from '../wages/open-month.ts';
import { priceLoads, selectLoads, sumDrivers, sumKop, sumQuantity, toWageItem, type DriverSum, type PricedLoad } from '../wages/pay.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { listAdjustments } from './adjustments.ts';
import { pendingLoads } from './pending.ts';
import { assertMonthOpen, isClosed } from './months.ts';
import { writePayrollSheet, type SheetLoad } from './sheet.ts';
import { runningClose } from './close-jobs.ts';

type Q = Kysely<Database>;

/** The month's approved loads, priced (as stored when closed), with everything a line shows: a driver's loads, the sheet. */
export async function monthLoads(db: Q, companyId: number, month: string, driverId?: number): Promise<PricedLoad[]> {
  const { start, end } = monthRange(month);
  return priceLoads(db, await selectLoads(db, { companyId, start_date: start, end_date: end, review: 'approved', ...(driverId === undefined ? {} : { driverId }) }));
}


/** The names of these drivers. */
async function driverNames(db: Q, ids: readonly number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await db.selectFrom('users').select(['id', 'name']).where('id', 'in', [...ids]).execute() : [];
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Per driver of an open month: its loads summed. */
async function sumsOf(db: Q, loads: readonly PricedLoad[]): Promise<DriverSum[]> {
  const names = await driverNames(db, [...new Set(loads.map((l) => l.driver_id))]);
  const by = new Map<number, DriverSum>();
  for (const l of loads) {
    const r = by.get(l.driver_id) ?? { driver_id: l.driver_id, driver_name: names.get(l.driver_id) ?? '', loads: 0, trips: 0, quantity: 0, amount_kop: 0 };
    r.loads += 1;
    r.trips += l.trips;
    r.quantity = roundQuantity(r.quantity + l.quantity);
    r.amount_kop += l.amount_kop;
    by.set(l.driver_id, r);
  }
  return [...by.values()];
}

/** A closed month's per-driver totals as stored at close (payroll_drivers), with the drivers' names now. */
async function storedSums(db: Q, companyId: number, month: string): Promise<DriverSum[]> {
  const rows = await db
    .selectFrom('payroll_drivers as p')
    .innerJoin('users as u', 'u.id', 'p.driver_id')
    .select(['p.driver_id', 'u.name as driver_name', 'p.loads', 'p.trips', 'p.quantity', 'p.amount_kop'])
    .where('p.company_id', '=', companyId)
    .where('p.month', '=', month)
    .execute();
  return rows.map((r) => ({ ...r, loads: Number(r.loads), trips: Number(r.trips), amount_kop: Number(r.amount_kop) }));
}

/** Per driver of an open month: its priced sums (wages/open-month.ts) with the drivers' names. */
async function openSums(db: Q, dialect: Dialect, companyId: number, month: string): Promise<DriverSum[]> {
  const sums = await openMonthSums(db, dialect, companyId, month);
  const names = await driverNames(db, sums.map((d) => d.driver_id));
  return sums.map((d) => ({ ...d, driver_name: names.get(d.driver_id) ?? '' }));
}

/**
 * A company's month: per driver and in all. A closed month reads what its close stored; an open one prices its
 * loads now (`loads`: already priced by the caller — the sheet prices them once for both).
 */
export async function payrollMonth(db: Db, company: { id: number; name: string }, month: string, loads?: readonly PricedLoad[]): Promise<PayrollMonth> {
  const q = db.kysely;
  const { start, end } = monthRange(month);
  const row = await q.selectFrom('payroll_months as m').leftJoin('users as u', 'u.id', 'm.closed_by').select(['m.status', 'm.closed_at', 'u.name as closed_by_name']).where('m.company_id', '=', company.id).where('m.month', '=', month).executeTakeFirst();
  const closed = row?.status === 'closed';
  const [sums, adjustments, later, pending, history, ahead, closing] = await Promise.all([
    closed ? storedSums(q, company.id, month) : loads ? sumsOf(q, loads) : openSums(q, db.dialect, company.id, month),
    listAdjustments(q, { companyId: company.id, start_date: start, end_date: end }),
    listAdjustments(q, { companyId: company.id, concernsMonth: month }),
    pendingLoads(q, db.dialect, company.id, month, 200),
    q
      .selectFrom('payroll_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.action', 'e.reason', 'u.name as user_name', 'e.created_at'])
      .where('e.company_id', '=', company.id)
      .where('e.month', '=', month)
      .orderBy('e.id', 'desc')
      .execute(),
    closed ? null : daysAhead(q, company.id, month),
    closed ? null : runningClose(db, company.id, month),
  ]);
  const loadsKop = sumKop(sums, (d) => d.amount_kop);
  const adjustmentsKop = sumKop(adjustments, (a) => toKop(a.amount));
  return {
    company_id: company.id,
    company_name: company.name,
    month,
    status: closed ? 'closed' : 'open',
    closed_at: closed ? (row?.closed_at ?? null) : null,
    closed_by_name: closed ? (row?.closed_by_name ?? null) : null,
    drivers: sumDrivers(sums, adjustments),
    loads: sums.reduce((n, d) => n + d.loads, 0),
    trips: sums.reduce((n, d) => n + d.trips, 0),
    adjustments,
    later_adjustments: later.filter((a) => monthOf(a.date) !== month),
    pending: {
      loads: pending.loads,
      quantity: pending.quantity,
      items: pending.items.map((r) => ({ report_id: r.report_id, driver_name: r.driver_name, task_id: r.task_id, date: r.date, quantity: r.quantity, late: monthOf(r.date) !== month })),
    },
    total_quantity: sumQuantity(sums, (d) => d.quantity),
    loads_amount: fromKop(loadsKop),
    adjustments_amount: fromKop(adjustmentsKop),
    total_amount: fromKop(loadsKop + adjustmentsKop),
    history: history.map((h) => ({ action: h.action, reason: h.reason, user_name: h.user_name, created_at: h.created_at })),
    ahead,
    closing,
  };
}

/** One driver's loads of a company's month: a closed month's lines as stored, an open month's priced now. */
export async function payrollItems(db: Db, companyId: number, month: string, driverId: number): Promise<PayrollItems> {
  const closed = await isClosed(db.kysely, companyId, month);
  const items = closed ? await storedItems(db.kysely, companyId, month, driverId) : (await monthLoads(db.kysely, companyId, month, driverId)).map(toWageItem);
  return { company_id: companyId, month, driver_id: driverId, status: closed ? 'closed' : 'open', items };
}

/** A driver's lines of a closed month as stored at close, in load order. */
export async function storedItems(db: Q, companyId: number, month: string, driverId: number): Promise<WageItem[]> {
  const lines = await storedLines(db, companyId, month).where('l.driver_id', '=', driverId).orderBy('l.date').orderBy('l.report_id').execute();
  return lines.map(storedItem);
}

/**
 * A closed month's stored lines with what they show of their task and report. `page`: only the lines after that id,
 * so many, in id order — taken before the joins, so the plan never joins the month's every line to sort them for a
 * page (PostgreSQL did, ~60 ms a page, when a close's fresh lines were past its statistics' last id).
 */
export const storedLines = (db: Q, companyId: number, month: string, page?: { after: number; size: number }) => {
  let lines = db.selectFrom('payroll_lines').selectAll().where('company_id', '=', companyId).where('month', '=', month);
  if (page) lines = lines.where('id', '>', page.after).orderBy('id').limit(page.size);
  return db
    .selectFrom(lines.as('l'))
    .leftJoin('tasks as t', 't.id', 'l.task_id')
    .leftJoin('reports as r', 'r.id', 'l.report_id')
    .select(['l.id', 'l.driver_id', 'l.report_id', 'l.association_id', 'l.task_id', 'l.date', 'l.quantity', 'l.rate', 'l.rate_source', 'l.month_volume', 'l.amount_kop', 't.cargo', 't.unit', 'r.trips', 'r.ticket_number']);
};

type StoredLineRow = Awaited<ReturnType<ReturnType<typeof storedLines>['execute']>>[number];

export const storedItem = (l: StoredLineRow): WageItem => ({
  report_id: l.report_id,
  association_id: l.association_id,
  task_id: l.task_id,
  date: l.date,
  cargo: l.cargo ?? '',
  unit: l.unit ?? 'т',
  trips: Number(l.trips ?? 1),
  ticket_number: l.ticket_number ?? null,
  quantity: l.quantity,
  rate: l.rate,
  rate_source: l.rate_source as RateSource | null,
  month_volume: l.month_volume,
  amount: fromKop(Number(l.amount_kop)),
  frozen: true,
});

/** The days of a running month after today and the tasks dated on them (what an early close leaves to the next month). */
async function daysAhead(db: Q, companyId: number, month: string): Promise<PayrollMonth['ahead']> {
  const today = localToday();
  const { end } = monthRange(month);
  if (monthOf(today) !== month || today >= end) return null;
  const from = nextDay(today);
  const tasks = db.selectFrom('tasks').where('company_id', '=', companyId).where('date', '>=', from).where('date', '<=', end).where('status', '<>', 'cancelled');
  const [count, first] = await Promise.all([
    tasks.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    tasks.select(['id', 'date', 'cargo']).orderBy('date').orderBy('id').limit(50).execute(),
  ]);
  return { from, to: end, count: Number(count.n), tasks: first };
}

const nextDay = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * An adjustment: ± money for a driver of the company, dated in an open month (today by default), maybe about one
 * of the driver's loads (then the load's month is kept, so that month's breakdown shows it too).
 */
export async function addAdjustment(db: Db, user: AuthUser, company: { id: number }, input: AdjustmentPayload): Promise<Adjustment> {
  const driver = await db.kysely.selectFrom('users').select(['id', 'company_id']).where('id', '=', input.driver_id).where('role', '=', 'driver').executeTakeFirst();
  if (!driver || driver.company_id !== company.id) throw badRequest('driver_id: водитель не найден в компании');
  const date = input.date ?? localToday();
  await assertMonthOpen(db.kysely, company.id, date, 'Корректировку нельзя провести этим днём');
  let concernsMonth: string | null = null;
  if (input.report_id != null) {
    const load = await db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['td.driver_id', 't.company_id', 't.date'])
      .where('r.id', '=', input.report_id)
      .executeTakeFirst();
    if (!load || load.company_id !== company.id || load.driver_id !== driver.id) throw badRequest('report_id: рейс этого водителя не найден');
    concernsMonth = monthOf(load.date);
  }
  const row = await db.kysely
    .insertInto('payroll_adjustments')
    .values({
      company_id: company.id,
      driver_id: driver.id,
      date,
      amount_kop: toKop(input.amount),
      reason: input.reason,
      report_id: input.report_id ?? null,
      concerns_month: concernsMonth,
      created_by: user.id,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const [made] = (await listAdjustments(db.kysely, { companyId: company.id, driverId: driver.id })).filter((a) => a.id === row.id);
  return made as Adjustment;
}

/**
 * A driver's closed months, newest first, each as stored at close (the driver's totals, payroll_drivers) with the
 * adjustments dated in it; a month's lines on demand (`storedItems`). `companyId`: only that company's months
 * (staff see their own company's only, even of a driver who has since moved); undefined: every company's (the
 * driver themself, the super-admin).
 */
export async function driverClosedMonths(db: Db, driverId: number, companyId?: number): Promise<DriverPayrollMonth[]> {
  const months = await db.kysely
    .selectFrom('payroll_drivers as p')
    .innerJoin('payroll_months as m', (j) => j.onRef('m.company_id', '=', 'p.company_id').onRef('m.month', '=', 'p.month'))
    .select(['p.company_id', 'p.month', 'm.closed_at', 'p.loads', 'p.trips', 'p.quantity', 'p.amount_kop'])
    .where('p.driver_id', '=', driverId)
    .where('m.status', '=', 'closed')
    .$if(companyId !== undefined, (qb) => qb.where('p.company_id', '=', companyId as number))
    .orderBy('p.month', 'desc')
    .orderBy('p.company_id')
    .limit(24)
    .execute();
  if (months.length === 0) return [];
  // One read of the driver's adjustments over the months shown, each counted in its company's month.
  const adjustments = await listAdjustments(db.kysely, {
    driverId,
    ...(companyId === undefined ? {} : { companyId }),
    start_date: monthRange((months.at(-1) as { month: string }).month).start,
    end_date: monthRange((months[0] as { month: string }).month).end,
  });
  return months.map((m) => {
    const own = adjustments.filter((a) => a.company_id === m.company_id && monthOf(a.date) === m.month);
    const loadsKop = Number(m.amount_kop);
    const adjKop = sumKop(own, (a) => toKop(a.amount));
    return {
      company_id: m.company_id,
      month: m.month,
      closed_at: m.closed_at,
      loads: Number(m.loads),
      trips: Number(m.trips),
      quantity: m.quantity,
      loads_amount: fromKop(loadsKop),
      adjustments_amount: fromKop(adjKop),
      total_amount: fromKop(loadsKop + adjKop),
      adjustments: own,
    };
  });
}

/**
 * A closed month's stored lines for its sheet, in pages of `size` by id (the order they were stored in: date, report),
 * each with its driver's name; the pages are read as the sheet is written, never the whole month at once.
 */
export async function* storedSheetLoads(db: Q, companyId: number, month: string, names: ReadonlyMap<number, string>, size = SHEET_PAGE): AsyncGenerator<SheetLoad> {
  const read = (after: number) => storedLines(db, companyId, month, { after, size }).orderBy('l.id').execute();
  for (let next: ReturnType<typeof read> | null = read(0); next; ) {
    const page: StoredLineRow[] = await next;
    // The next page is read while this one is written (on PostgreSQL the two overlap: ~10 ms of each a page). Pages
    // of 1 000, not 2 000: a driver's call made meanwhile waited up to 95 ms behind the bigger ones (50 now).
    next = page.length < size ? null : read((page.at(-1) as { id: number }).id);
    // A failed read ahead surfaces where it is awaited, never as an unhandled rejection while this page is written.
    next?.catch(() => undefined);
    for (const l of page) yield { ...storedItem(l), driver_name: names.get(l.driver_id) ?? '' };
  }
}

/** Stored lines a sheet reads at a time. */
const SHEET_PAGE = 1000;

/** Writes a month's sheet: a closed month from what its close stored, an open month priced once. */
export async function payrollSheet(db: Db, company: { id: number; name: string }, month: string): Promise<{ month: PayrollMonth; write: (stream: Writable) => Promise<void> }> {
  if (await isClosed(db.kysely, company.id, month)) {
    const m = await payrollMonth(db, company, month);
    const names = new Map(m.drivers.map((d) => [d.driver_id, d.driver_name]));
    return { month: m, write: (stream) => writePayrollSheet(stream, m, storedSheetLoads(db.kysely, company.id, month, names)) };
  }
  const loads = await monthLoads(db.kysely, company.id, month);
  const m = await payrollMonth(db, company, month, loads);
  return { month: m, write: (stream) => writePayrollSheet(stream, m, loads.map((l) => ({ ...toWageItem(l), driver_name: l.driver_name }))) };
}
