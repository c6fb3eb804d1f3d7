/**
 * Closing a company's payroll month and reopening it (server/routes/WAGES.md «Расчёт с водителями»). The close
 * stores every load's line and the totals in slices of days, in one transaction, against the figures the admin
 * confirmed; reopening, a super-admin's, deletes the lines (and what the close stored for statistics,
 * payroll/summary.ts) with a reason kept in the month's history. The month's read is payroll.ts.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import type { Dialect } from '../db/migrations.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict } from '../errors.ts';
import { fromKop, monthOf, monthRange, toKop, type PayrollConfirmed } from '../../contract/money.ts';
import { giveWay, monthSlices, openMonthPriced, SLICE_DAYS } from '../wages/open-month.ts';
import { sumDrivers, sumKop, sumQuantity, type DriverSum } from '../wages/pay.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { localToday } from '../tasks/scope.ts';
import { listAdjustments } from './adjustments.ts';
import { dropOpenLatePayments } from './late.ts';
import { closedText, isClosed } from './months.ts';
import { lineRevenueSql, NO_FIGURES, type MonthFigures } from './summary.ts';
import { pendingLoads } from './pending.ts';

type Q = Kysely<Database>;

/** What a close adds up from the lines it stores, slice by slice: per driver, and the month's figures (payroll/summary.ts). */
interface CloseSums {
  drivers: Map<number, DriverSum>;
  figures: MonthFigures;
}

/** Adds to `into` the lines a close has just stored after line `after` (one slice of its month, in its transaction). */
async function addStoredSlice(db: Q, dialect: Dialect, companyId: number, month: string, after: number, into: CloseSums): Promise<void> {
  const revenue = lineRevenueSql(dialect);
  const lines = () => db.selectFrom('payroll_lines as l').where('l.company_id', '=', companyId).where('l.month', '=', month).where('l.id', '>', after);
  const rows = await lines()
    .innerJoin('reports as r', 'r.id', 'l.report_id')
    .select([
      'l.driver_id',
      sql<number>`count(*)`.as('loads'),
      sql<number>`sum(r.trips)`.as('trips'),
      sql<number>`sum(l.quantity)`.as('quantity'),
      sql<number>`sum(l.amount_kop)`.as('amount_kop'),
      sql<number | null>`sum(${revenue})`.as('revenue_kop'),
      sql<number | null>`sum(case when ${revenue} < l.amount_kop then 1 else 0 end)`.as('losses'),
    ])
    .groupBy('l.driver_id')
    .execute();
  // A slice is whole days and a task has one date: its tasks are counted in no other slice.
  const tasks = await lines().select(sql<number>`count(distinct l.task_id)`.as('n')).executeTakeFirstOrThrow();
  into.figures.tasks += Number(tasks.n);
  for (const r of rows) {
    const d = into.drivers.get(r.driver_id) ?? { driver_id: r.driver_id, driver_name: '', loads: 0, trips: 0, quantity: 0, amount_kop: 0 };
    d.loads += Number(r.loads);
    d.trips += Number(r.trips);
    d.quantity += Number(r.quantity ?? 0);
    d.amount_kop += Number(r.amount_kop ?? 0);
    into.drivers.set(r.driver_id, d);
    into.figures.revenue_kop += Number(r.revenue_kop ?? 0);
    into.figures.losses += Number(r.losses ?? 0);
  }
}

/** The highest id of payroll_lines now (0 when none): the lines a slice stores next come after it. */
async function lastLineId(db: Q): Promise<number> {
  const row = await db.selectFrom('payroll_lines').select(sql<number | null>`max(id)`.as('id')).executeTakeFirstOrThrow();
  return Number(row.id ?? 0);
}

/** A month ahead of today cannot close (400). */
export function assertMonthBegun(month: string): void {
  if (month > monthOf(localToday())) throw badRequest(`month: ${closedText(month).replace(/ закрыт$/, '')} ещё не наступил`);
}

const rubles = (n: number): string => `${new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 }).format(n)} ₽`;

/** What moved between the figures the admin confirmed and the month's figures now; empty when nothing did. */
function changedFigures(confirmed: PayrollConfirmed, now: PayrollConfirmed): string[] {
  const changes: string[] = [];
  if (toKop(confirmed.total_amount) !== toKop(now.total_amount)) changes.push(`к выплате: ${rubles(now.total_amount)} вместо ${rubles(confirmed.total_amount)}`);
  if (confirmed.loads !== now.loads) changes.push(`принято отчётов: ${now.loads} вместо ${confirmed.loads}`);
  if (confirmed.pending_loads !== now.pending_loads) changes.push(`ждут проверки отчётов: ${now.pending_loads} вместо ${confirmed.pending_loads}`);
  if (confirmed.drivers !== now.drivers) changes.push(`водителей: ${now.drivers} вместо ${confirmed.drivers}`);
  return changes;
}

/**
 * Closes a month: stores every approved load's line and the totals in one transaction (run as a job by
 * close-jobs.ts). `confirmed` is what the admin saw: when the month's figures differ now, nothing is stored (409
 * naming the change).
 */
export async function closeMonth(db: Db, user: AuthUser, company: { id: number; name: string }, month: string, confirmed: PayrollConfirmed): Promise<void> {
  assertMonthBegun(month);
  await db.kysely.transaction().execute(async (trx) => {
    if (await isClosed(trx, company.id, month)) throw conflict(`${closedText(month)} уже`);
    // Priced in SQL (wages/open-month.ts): the lines are stored by INSERT … SELECT, never read into JavaScript,
    // three days at a time (`SLICE_DAYS`) in load order (date, report: the order the sheet pages the stored lines in),
    // each slice's lines then summed as stored. Between statements a turn of the event loop: other calls' reads go
    // on beside the transaction (SQLite: the reader connection; issue 35, no call delays another by more than
    // 100 ms), while the transaction keeps the month whole — SQLite's write lock, held from BEGIN IMMEDIATE to
    // COMMIT, lets no other write in; a failure in any slice takes every line back.
    const priced = await openMonthPriced(trx, db.dialect, company.id, month);
    const { start, end } = monthRange(month);
    const stored: CloseSums = { drivers: new Map(), figures: { revenue_kop: 0, losses: 0, tasks: 0 } };
    for (const part of monthSlices({ start, end }, SLICE_DAYS)) {
      await giveWay(db.dialect);
      const after = await lastLineId(trx);
      const inserted = await trx
        .insertInto('payroll_lines')
        .columns(['company_id', 'month', 'report_id', 'driver_id', 'association_id', 'task_id', 'date', 'quantity', 'rate', 'rate_source', 'month_volume', 'amount_kop', 'task_rate'])
        .expression(
          priced
            .pay(part)
            .select(['p.company_id', sql<string>`cast(${month} as text)`.as('month'), 'p.report_id', 'p.driver_id', 'p.association_id', 'p.task_id', 'p.date', 'p.quantity', 'p.rate', 'p.rate_source', 'p.month_volume', 'p.amount_kop', 'p.task_rate'])
            .orderBy('p.date')
            .orderBy('p.report_id'),
        )
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      await giveWay(db.dialect);
      await addStoredSlice(trx, db.dialect, company.id, month, after, stored);
    }
    await giveWay(db.dialect);
    const adjustments = await listAdjustments(trx, { companyId: company.id, start_date: start, end_date: end });
    const pending = await pendingLoads(trx, db.dialect, company.id, month, 0);
    await giveWay(db.dialect);
    const sums = [...stored.drivers.values()].map((d) => ({ ...d, quantity: roundQuantity(d.quantity) }));
    const loadsCount = sums.reduce((n, d) => n + d.loads, 0);
    const loadsKop = sumKop(sums, (d) => d.amount_kop);
    const changes = changedFigures(confirmed, {
      total_amount: fromKop(loadsKop + sumKop(adjustments, (a) => toKop(a.amount))),
      drivers: sumDrivers(sums, adjustments).length,
      loads: loadsCount,
      pending_loads: pending.loads,
    });
    if (changes.length > 0) throw conflict(`Данные месяца изменились: ${changes.join(', ')}. Проверьте цифры и закройте месяц снова`);
    const now = nowIso();
    const drivers = sums.map((d) => ({ company_id: company.id, month, driver_id: d.driver_id, loads: d.loads, trips: d.trips, quantity: d.quantity, amount_kop: d.amount_kop }));
    for (let i = 0; i < drivers.length; i += 500) await trx.insertInto('payroll_drivers').values(drivers.slice(i, i + 500)).execute();
    const totals = {
      // The statistics' figures of the month, from the lines just stored (payroll/summary.ts).
      ...stored.figures,
      status: 'closed' as const,
      closed_at: now,
      closed_by: user.id,
      loads: loadsCount,
      quantity: sumQuantity(sums, (d) => d.quantity),
      amount_kop: loadsKop,
      adjustments_kop: sumKop(adjustments, (a) => toKop(a.amount)),
    };
    const updated = await trx.updateTable('payroll_months').set(totals).where('company_id', '=', company.id).where('month', '=', month).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('payroll_months').values({ company_id: company.id, month, ...totals }).execute();
    await trx.insertInto('payroll_events').values({ company_id: company.id, month, action: 'close', reason: null, user_id: user.id, created_at: now }).execute();
    // The COMMIT (writing the month's pages) in a turn of its own.
    await giveWay(db.dialect);
  });
}

/**
 * A month's stored lines deleted in runs of ids (~a day of a 200-truck carrier's month each), a turn of the event
 * loop between: one statement over 36 000 lines and their indexes held the loop (issue 35). In the caller's transaction.
 */
async function deleteLines(trx: Q, dialect: Dialect, companyId: number, month: string): Promise<void> {
  const lines = () => trx.deleteFrom('payroll_lines').where('company_id', '=', companyId).where('month', '=', month);
  const ids = await trx.selectFrom('payroll_lines').select([sql<number | null>`min(id)`.as('first'), sql<number | null>`max(id)`.as('last')]).where('company_id', '=', companyId).where('month', '=', month).executeTakeFirstOrThrow();
  if (ids.first === null || ids.last === null) return;
  for (let from = Number(ids.first); from <= Number(ids.last); from += DELETE_RUN) {
    await giveWay(dialect);
    await lines().where('id', '>=', from).where('id', '<', from + DELETE_RUN).execute();
  }
}

const DELETE_RUN = 1_500;

/** Reopens a closed month (the super-admin, with a reason kept in its history): its stored lines go, figures live again. The route answers the month. */
export async function reopenMonth(db: Db, user: AuthUser, company: { id: number; name: string }, month: string, reason: string): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    if (!(await isClosed(trx, company.id, month))) throw conflict(`${closedText(month).replace(/ закрыт$/, '')} не закрыт`);
    const now = nowIso();
    await deleteLines(trx, db.dialect, company.id, month);
    await trx.deleteFrom('payroll_drivers').where('company_id', '=', company.id).where('month', '=', month).execute();
    await trx.updateTable('payroll_months').set({ status: 'reopened', reopened_at: now, reopened_by: user.id, reopen_reason: reason, ...NO_FIGURES }).where('company_id', '=', company.id).where('month', '=', month).execute();
    // Late loads whose month and payment month are both open now count in their own month again (payroll/late.ts).
    await dropOpenLatePayments(trx, company.id, month);
    await trx.insertInto('payroll_events').values({ company_id: company.id, month, action: 'reopen', reason, user_id: user.id, created_at: now }).execute();
    await giveWay(db.dialect);
  });
}

