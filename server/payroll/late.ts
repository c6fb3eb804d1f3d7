/**
 * Loads after close (server/routes/WAGES.md «Рейс после закрытия месяца»). A closed month stores the loads approved
 * at its close; a load of that month it did not store (filed after, or still waiting for review then) is a **late
 * load**: never silently unpaid, it is paid in the company's next open month. Once approved, the system adds for it
 * an adjustment (marked `late`, no author, `report_id` the load, `concerns_month` its month) dated in that open
 * month, for the load's pay by the one rate rule; every later change to the load (review, edit, delete) settles that
 * adjustment again while its month is open. A late load's changes move no closed sheet, so they are not refused.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import { conflict } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { monthLabel, monthOf, monthRange } from '../../contract/money.ts';
import { priceLive, selectLoads } from '../wages/pay.ts';
import { closedText, currentOpenMonth, isClosed } from './months.ts';

type Q = Kysely<Database>;

/** Where a load stands in the payroll: its month, whether it is closed, whether the close stored it, its late payment. */
interface Standing {
  companyId: number;
  taskId: number;
  month: string;
  closed: boolean;
  inSheet: boolean;
  payment: { id: number; date: string } | null;
}

async function standingOf(db: Q, reportId: number): Promise<Standing | null> {
  const row = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['t.id as task_id', 't.company_id', 't.date'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!row) return null;
  const month = monthOf(row.date);
  const [closed, payment] = await Promise.all([isClosed(db, row.company_id, month), latePayment(db, reportId)]);
  const line = closed
    ? await db.selectFrom('payroll_lines').select('id').where('report_id', '=', reportId).where('company_id', '=', row.company_id).where('month', '=', month).executeTakeFirst()
    : undefined;
  return { companyId: row.company_id, taskId: row.task_id, month, closed, inSheet: line !== undefined, payment: payment ?? null };
}

const latePayment = (db: Q, reportId: number) =>
  db.selectFrom('payroll_adjustments').select(['id', 'date']).where('report_id', '=', reportId).where('late', '=', 1).executeTakeFirst();

/**
 * Refuses a change to a load that would move a closed sheet: a load stored at close, or a late load whose payment
 * is in a month closed since. `what` says what was tried («Отчёт нельзя изменить»); the text names the month.
 */
export async function assertLoadChangeable(db: Q, reportId: number, what: string): Promise<void> {
  const s = await standingOf(db, reportId);
  if (!s) return;
  if (s.inSheet) throw conflict(`${what}: ${closedText(s.month).toLowerCase()} (расчёт с водителями). Исправление — корректировкой в открытом месяце`);
  // Also when the load's own month has been reopened since: the closed month that paid it keeps it.
  const paidIn = s.payment ? monthOf(s.payment.date) : null;
  if (paidIn !== null && (await isClosed(db, s.companyId, paidIn))) {
    throw conflict(`${what}: рейс оплачен в расчёте за ${monthLabel(paidIn)}, месяц закрыт. Исправление — корректировкой в открытом месяце`);
  }
}

/** The day a late load's payment is dated: today when today's month is open, else the first day of the open month. */
async function payDay(db: Q, companyId: number): Promise<string> {
  const today = localToday();
  const month = await currentOpenMonth(db, companyId, today);
  return monthOf(today) === month ? today : monthRange(month).start;
}

/** After a change to a load: a late load approved is paid (its adjustment made or repriced), otherwise not. */
export async function settleLateLoad(db: Q, reportId: number): Promise<void> {
  const s = await standingOf(db, reportId);
  if (!s?.closed || s.inSheet) return;
  const [load] = (await selectLoads(db, { taskIds: [s.taskId], review: 'approved' })).filter((l) => l.report_id === reportId);
  if (!load) {
    if (s.payment) await db.deleteFrom('payroll_adjustments').where('id', '=', s.payment.id).execute();
    return;
  }
  const [priced] = await priceLive(db, [load]);
  const amount_kop = priced?.amount_kop ?? 0;
  const reason = `Рейс после закрытия месяца (${monthLabel(s.month)}): задача №${load.task_id}, ${String(load.quantity).replace('.', ',')} ${load.unit}`;
  if (s.payment) {
    await db.updateTable('payroll_adjustments').set({ amount_kop, reason }).where('id', '=', s.payment.id).execute();
    return;
  }
  await db
    .insertInto('payroll_adjustments')
    .values({
      company_id: s.companyId,
      driver_id: load.driver_id,
      date: await payDay(db, s.companyId),
      amount_kop,
      reason,
      report_id: reportId,
      concerns_month: s.month,
      created_by: null,
      created_at: nowIso(),
      late: 1,
    })
    .execute();
}

/**
 * Which of these loads are paid in a closed sheet (what assertLoadChangeable refuses): stored at a close, or a late
 * load whose payment is dated in a month closed since. The screens offer no change to them.
 */
export async function closedLoads(db: Q, reportIds: readonly number[]): Promise<Set<number>> {
  const closed = new Set<number>();
  for (let i = 0; i < reportIds.length; i += 500) {
    const ids = reportIds.slice(i, i + 500);
    const [stored, paid] = await Promise.all([
      db.selectFrom('payroll_lines').select('report_id').where('report_id', 'in', ids).execute(),
      db
        .selectFrom('payroll_adjustments as a')
        .innerJoin('payroll_months as pm', (join) => join.onRef('pm.company_id', '=', 'a.company_id').on('pm.month', '=', sql<string>`substr(a.date, 1, 7)`))
        .select('a.report_id')
        .where('pm.status', '=', 'closed')
        .where('a.late', '=', 1)
        .where('a.report_id', 'in', ids)
        .execute(),
    ]);
    for (const r of [...stored, ...paid]) if (r.report_id !== null) closed.add(r.report_id);
  }
  return closed;
}

/** settleLateLoad for many loads (approve-clean): only those of closed months are looked at. */
export async function settleLateLoads(db: Q, reportIds: readonly number[]): Promise<void> {
  for (let i = 0; i < reportIds.length; i += 500) {
    const late = await db
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .innerJoin('payroll_months as pm', (join) => join.onRef('pm.company_id', '=', 't.company_id').on('pm.month', '=', sql<string>`substr(t.date, 1, 7)`))
      .select('r.id')
      .where('pm.status', '=', 'closed')
      .where('r.id', 'in', reportIds.slice(i, i + 500))
      .execute();
    for (const r of late) await settleLateLoad(db, r.id);
  }
}

/**
 * After reopening `month`: the late payments that neither a closed load month nor a closed payment month holds
 * go — their loads count in their own month again. So a payment lives on only in a closed month (its load then
 * paid there, once: wages/pay.ts leaves the load out of its reopened month) or for a load of a closed month.
 */
export async function dropOpenLatePayments(db: Q, companyId: number, month: string): Promise<void> {
  const { start, end } = monthRange(month);
  const payments = await db
    .selectFrom('payroll_adjustments')
    .select(['id', 'date', 'concerns_month'])
    .where('company_id', '=', companyId)
    .where('late', '=', 1)
    .where((eb) => eb.or([eb('concerns_month', '=', month), eb.and([eb('date', '>=', start), eb('date', '<=', end)])]))
    .execute();
  for (const p of payments) {
    const held = (p.concerns_month !== null && (await isClosed(db, companyId, p.concerns_month))) || (await isClosed(db, companyId, monthOf(p.date)));
    if (!held) await db.deleteFrom('payroll_adjustments').where('id', '=', p.id).execute();
  }
}

/** A deleted load's late payment goes with it (assertLoadChangeable has checked that its month is open). */
export async function dropLatePayment(db: Q, reportId: number): Promise<void> {
  await db.deleteFrom('payroll_adjustments').where('report_id', '=', reportId).where('late', '=', 1).execute();
}
