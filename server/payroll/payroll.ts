/**
 * A company's payroll month (server/routes/WAGES.md «Расчёт с водителями»). The month's figures are the wages'
 * figures (wages/pay.ts): its approved loads priced by the one rule, the adjustments dated in it, the loads still
 * waiting apart. Closing stores every load's line and the totals and freezes the month (payroll/months.ts guards
 * every change); reopening, a super-admin's, deletes the lines with a reason kept in the month's history.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { fromKop, monthOf, monthRange, toKop, type Adjustment, type AdjustmentPayload, type DriverPayrollMonth, type PayrollConfirmed, type PayrollMonth, type RateSource } from '../../contract/money.ts';
import { closedMonths, driverTotals, priceLoads, selectLoads, sumKop, sumQuantity, toWageItem, type LoadRow, type PricedLoad } from '../wages/pay.ts';
import { listAdjustments } from './adjustments.ts';
import { dropOpenLatePayments } from './late.ts';
import { assertMonthOpen, closedText, currentOpenMonth, isClosed } from './months.ts';

type Q = Kysely<Database>;

/**
 * The loads still waiting for review that the month would pay: its own, and in the company's current open month
 * also the late loads of closed months (payroll/late.ts: approved, they are paid here).
 */
async function pendingLoads(db: Q, companyId: number, month: string): Promise<LoadRow[]> {
  const { start, end } = monthRange(month);
  const own = await selectLoads(db, { companyId, start_date: start, end_date: end, review: 'unapproved' });
  if ((await isClosed(db, companyId, month)) || month !== (await currentOpenMonth(db, companyId))) return own;
  const earlier = await selectLoads(db, { companyId, end_date: dayBefore(start), review: 'unapproved' });
  const closed = await closedMonths(db, earlier.map((l) => ({ company_id: companyId, month: monthOf(l.date) })));
  return [...earlier.filter((l) => closed.has(`${companyId}:${monthOf(l.date)}`)), ...own];
}

const dayBefore = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** The month's approved loads, priced (as stored when closed). */
async function monthLoads(db: Q, companyId: number, month: string): Promise<PricedLoad[]> {
  const { start, end } = monthRange(month);
  return priceLoads(db, await selectLoads(db, { companyId, start_date: start, end_date: end, review: 'approved' }));
}

export async function payrollMonth(db: Db, company: { id: number; name: string }, month: string): Promise<PayrollMonth> {
  const q = db.kysely;
  const { start, end } = monthRange(month);
  const [loads, adjustments, later, pendingRows, row, history, ahead] = await Promise.all([
    monthLoads(q, company.id, month),
    listAdjustments(q, { companyId: company.id, start_date: start, end_date: end }),
    listAdjustments(q, { companyId: company.id, concernsMonth: month }),
    pendingLoads(q, company.id, month),
    q.selectFrom('payroll_months as m').leftJoin('users as u', 'u.id', 'm.closed_by').select(['m.status', 'm.closed_at', 'u.name as closed_by_name']).where('m.company_id', '=', company.id).where('m.month', '=', month).executeTakeFirst(),
    q
      .selectFrom('payroll_events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.action', 'e.reason', 'u.name as user_name', 'e.created_at'])
      .where('e.company_id', '=', company.id)
      .where('e.month', '=', month)
      .orderBy('e.id', 'desc')
      .execute(),
    daysAhead(q, company.id, month),
  ]);
  const closed = row?.status === 'closed';
  const loadsKop = sumKop(loads, (l) => l.amount_kop);
  const adjustmentsKop = sumKop(adjustments, (a) => toKop(a.amount));
  return {
    company_id: company.id,
    company_name: company.name,
    month,
    status: closed ? 'closed' : 'open',
    closed_at: closed ? (row?.closed_at ?? null) : null,
    closed_by_name: closed ? (row?.closed_by_name ?? null) : null,
    drivers: driverTotals(loads, adjustments),
    items: loads.map((l) => ({ ...toWageItem(l), driver_id: l.driver_id, driver_name: l.driver_name })),
    adjustments,
    later_adjustments: later.filter((a) => monthOf(a.date) !== month),
    pending: {
      loads: pendingRows.length,
      quantity: sumQuantity(pendingRows, (r) => r.quantity),
      items: pendingRows.slice(0, 200).map((r) => ({ report_id: r.report_id, driver_name: r.driver_name, task_id: r.task_id, date: r.date, quantity: r.quantity, late: monthOf(r.date) !== month })),
    },
    total_quantity: sumQuantity(loads, (l) => l.quantity),
    loads_amount: fromKop(loadsKop),
    adjustments_amount: fromKop(adjustmentsKop),
    total_amount: fromKop(loadsKop + adjustmentsKop),
    history: history.map((h) => ({ action: h.action, reason: h.reason, user_name: h.user_name, created_at: h.created_at })),
    ahead: closed ? null : ahead,
  };
}

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
 * Closes a month: stores every approved load's line and the totals in one transaction; answers the closed month.
 * `confirmed` is what the admin saw: when the month's figures differ now, nothing is stored (409 naming the change).
 */
export async function closeMonth(db: Db, user: AuthUser, company: { id: number; name: string }, month: string, confirmed: PayrollConfirmed): Promise<PayrollMonth> {
  if (month > monthOf(localToday())) throw badRequest(`month: ${closedText(month).replace(/ закрыт$/, '')} ещё не наступил`);
  await db.kysely.transaction().execute(async (trx) => {
    if (await isClosed(trx, company.id, month)) throw conflict(`${closedText(month)} уже`);
    const loads = await monthLoads(trx, company.id, month);
    const { start, end } = monthRange(month);
    const adjustments = await listAdjustments(trx, { companyId: company.id, start_date: start, end_date: end });
    const pending = await pendingLoads(trx, company.id, month);
    const changes = changedFigures(confirmed, {
      total_amount: fromKop(sumKop(loads, (l) => l.amount_kop) + sumKop(adjustments, (a) => toKop(a.amount))),
      drivers: driverTotals(loads, adjustments).length,
      loads: loads.length,
      pending_loads: pending.length,
    });
    if (changes.length > 0) throw conflict(`Данные месяца изменились: ${changes.join(', ')}. Проверьте цифры и закройте месяц снова`);
    const now = nowIso();
    const lines = loads.map((l) => ({
      company_id: company.id,
      month,
      report_id: l.report_id,
      driver_id: l.driver_id,
      association_id: l.association_id,
      task_id: l.task_id,
      date: l.date,
      quantity: l.quantity,
      rate: l.rate,
      rate_source: l.rate_source,
      month_volume: l.month_volume,
      amount_kop: l.amount_kop,
      task_rate: l.task_rate,
    }));
    // In chunks: a month of ten thousand loads stays under every database's parameter limit.
    for (let i = 0; i < lines.length; i += 500) await trx.insertInto('payroll_lines').values(lines.slice(i, i + 500)).execute();
    const totals = {
      status: 'closed' as const,
      closed_at: now,
      closed_by: user.id,
      loads: loads.length,
      quantity: sumQuantity(loads, (l) => l.quantity),
      amount_kop: sumKop(loads, (l) => l.amount_kop),
      adjustments_kop: sumKop(adjustments, (a) => toKop(a.amount)),
    };
    const updated = await trx.updateTable('payroll_months').set(totals).where('company_id', '=', company.id).where('month', '=', month).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('payroll_months').values({ company_id: company.id, month, ...totals }).execute();
    await trx.insertInto('payroll_events').values({ company_id: company.id, month, action: 'close', reason: null, user_id: user.id, created_at: now }).execute();
  });
  return payrollMonth(db, company, month);
}

/** Reopens a closed month (the super-admin, with a reason kept in its history): its stored lines go, figures live again. */
export async function reopenMonth(db: Db, user: AuthUser, company: { id: number; name: string }, month: string, reason: string): Promise<PayrollMonth> {
  await db.kysely.transaction().execute(async (trx) => {
    if (!(await isClosed(trx, company.id, month))) throw conflict(`${closedText(month).replace(/ закрыт$/, '')} не закрыт`);
    const now = nowIso();
    await trx.deleteFrom('payroll_lines').where('company_id', '=', company.id).where('month', '=', month).execute();
    await trx.updateTable('payroll_months').set({ status: 'reopened', reopened_at: now, reopened_by: user.id, reopen_reason: reason }).where('company_id', '=', company.id).where('month', '=', month).execute();
    // Late loads whose month and payment month are both open now count in their own month again (payroll/late.ts).
    await dropOpenLatePayments(trx, company.id, month);
    await trx.insertInto('payroll_events').values({ company_id: company.id, month, action: 'reopen', reason, user_id: user.id, created_at: now }).execute();
  });
  return payrollMonth(db, company, month);
}

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
 * A driver's closed months, newest first, each read from what was stored at close (its lines) with the
 * adjustments dated in it. `companyId`: only that company's months (staff see their own company's only, even of a
 * driver who has since moved); undefined: every company's (the driver themself, the super-admin).
 */
export async function driverClosedMonths(db: Db, driverId: number, companyId?: number): Promise<DriverPayrollMonth[]> {
  const months = await db.kysely
    .selectFrom('payroll_months as m')
    .select(['m.company_id', 'm.month', 'm.closed_at'])
    .where('m.status', '=', 'closed')
    .$if(companyId !== undefined, (qb) => qb.where('m.company_id', '=', companyId as number))
    .where(({ exists, selectFrom }) => exists(selectFrom('payroll_lines as l').select('l.id').whereRef('l.company_id', '=', 'm.company_id').whereRef('l.month', '=', 'm.month').where('l.driver_id', '=', driverId)))
    .orderBy('m.month', 'desc')
    .limit(24)
    .execute();
  const out: DriverPayrollMonth[] = [];
  for (const m of months) {
    const { start, end } = monthRange(m.month);
    const lines = await db.kysely
      .selectFrom('payroll_lines as l')
      .leftJoin('tasks as t', 't.id', 'l.task_id')
      .leftJoin('reports as r', 'r.id', 'l.report_id')
      .select(['l.report_id', 'l.association_id', 'l.task_id', 'l.date', 'l.quantity', 'l.rate', 'l.rate_source', 'l.month_volume', 'l.amount_kop', 't.cargo', 't.unit', 'r.trips', 'r.ticket_number'])
      .where('l.company_id', '=', m.company_id)
      .where('l.month', '=', m.month)
      .where('l.driver_id', '=', driverId)
      .orderBy('l.date')
      .orderBy('l.report_id')
      .execute();
    const adjustments = await listAdjustments(db.kysely, { driverId, companyId: m.company_id, start_date: start, end_date: end });
    const loadsKop = sumKop(lines, (l) => Number(l.amount_kop));
    const adjKop = sumKop(adjustments, (a) => toKop(a.amount));
    out.push({
      company_id: m.company_id,
      month: m.month,
      closed_at: m.closed_at,
      loads: lines.length,
      quantity: sumQuantity(lines, (l) => l.quantity),
      loads_amount: fromKop(loadsKop),
      adjustments_amount: fromKop(adjKop),
      total_amount: fromKop(loadsKop + adjKop),
      items: lines.map((l) => ({
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
      })),
      adjustments,
    });
  }
  return out;
}
