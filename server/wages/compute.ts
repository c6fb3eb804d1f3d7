/**
 * Wages (server/routes/WAGES.md has the rules with examples). Every amount rests on approved loads priced by the
 * one rate rule (pay.ts); a closed month's loads come as stored at close; adjustments count on their own date.
 * - a driver: their loads and adjustments in the period;
 * - a company: its drivers' pay (the same loads), its revenue (delivered × the task's price), the margin, the
 *   work it did for other companies through accepted transfers, and the work it handed out;
 * - a manager: their rate × the delivered approved volume of the tasks they created, task date in the period.
 * Every total comes with the items that make it, so a user can check the sum.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CompanyDriverTotals, CompanyWages, DriverWages, PendingLoads } from '../../contract/money.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import type { ManagerWageItem, ManagerWageRow, ManagerWages } from '../../contract/wages.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { amountKop, driverTotals, priceLoads, selectLoads, sumKop, sumQuantity, toWageItem, type LoadFilter, type Period } from './pay.ts';
import { listAdjustments } from '../payroll/adjustments.ts';

export type { Period } from './pay.ts';


/** Loads filed in the period but not approved (pending or disputed): counted apart, not paid. */
export async function pendingLoads(db: Db, filter: Omit<LoadFilter, 'review'>): Promise<PendingLoads> {
  const rows = await selectLoads(db.kysely, { ...filter, review: 'unapproved' });
  return { loads: rows.length, quantity: sumQuantity(rows, (r) => r.quantity) };
}

export async function driverWages(db: Db, driverId: number, period: Period): Promise<DriverWages> {
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { driverId, ...period, review: 'approved' }));
  const adjustments = await listAdjustments(db.kysely, { driverId, ...period });
  const loadsKop = sumKop(loads, (l) => l.amount_kop);
  const adjustmentsKop = sumKop(adjustments, (a) => toKop(a.amount));
  return {
    driver_id: driverId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sumQuantity(loads, (l) => l.quantity),
    loads_amount: fromKop(loadsKop),
    adjustments_amount: fromKop(adjustmentsKop),
    total_amount: fromKop(loadsKop + adjustmentsKop),
    pending: await pendingLoads(db, { driverId, ...period }),
    items: loads.map(toWageItem),
    adjustments,
  };
}

/** Accepted transfers touching the company, with their carrier task's completed volume in the period. */
async function transfersOf(db: Db, companyId: number, side: 'to' | 'from', period: Period) {
  const rows = await db.kysely
    .selectFrom('transfers as tr')
    .innerJoin('tasks as src', 'src.id', 'tr.task_id')
    .innerJoin('tasks as ct', 'ct.id', 'tr.carrier_task_id')
    .innerJoin('companies as other', 'other.id', side === 'to' ? 'tr.from_company_id' : 'tr.to_company_id')
    .select(['tr.id as transfer_id', 'tr.task_id', 'tr.carrier_task_id', 'tr.quantity', 'src.cargo', 'ct.date', 'other.id as company_id', 'other.name as company_name'])
    .where('tr.status', '=', 'accepted')
    .where(side === 'to' ? 'tr.to_company_id' : 'tr.from_company_id', '=', companyId)
    .$if(period.start_date !== undefined, (qb) => qb.where('ct.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('ct.date', '<=', period.end_date as string))
    .orderBy('ct.date')
    .orderBy('tr.id')
    .execute();
  const ids = rows.map((r) => r.carrier_task_id as number);
  // Done = the approved delivered volume on the carrier task (the one figure every screen reads).
  const done = ids.length
    ? await db.kysely
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .select(['td.task_id', sql<number>`sum(${sql.raw(DELIVERED_SQL)})`.as('quantity')])
        .where('td.task_id', 'in', ids)
        .where('r.review_status', '=', 'approved')
        .groupBy('td.task_id')
        .execute()
    : [];
  const completed = new Map(done.map((d) => [d.task_id, Number(d.quantity ?? 0)]));
  return rows.map((r) => ({ ...r, carrier_task_id: r.carrier_task_id as number, completed_quantity: roundQuantity(completed.get(r.carrier_task_id as number) ?? 0) }));
}

/** The company's drivers' pay on its approved loads, revenue and margin; adjustments; transfers both ways. */
export async function companyWages(db: Db, companyId: number, period: Period): Promise<CompanyWages> {
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, ...period, review: 'approved' }));
  const adjustments = await listAdjustments(db.kysely, { companyId, ...period });
  const incoming = await transfersOf(db, companyId, 'to', period);
  const outgoing = await transfersOf(db, companyId, 'from', period);
  const transferOf = new Map(incoming.map((t) => [t.carrier_task_id, t.transfer_id]));
  const revenueKop = (l: { quantity: number; task_rate: number | null }) => amountKop(l.quantity, l.task_rate);
  // The same per-driver totals as /payroll's, without the load count.
  const drivers: CompanyDriverTotals[] = driverTotals(loads, adjustments).map(({ loads: _count, trips: _trips, quantity, ...d }) => ({ ...d, total_quantity: quantity }));
  const loadsKop = sumKop(loads, (l) => l.amount_kop);
  const adjustmentsKop = sumKop(adjustments, (a) => toKop(a.amount));
  const totalRevenueKop = sumKop(loads, revenueKop);
  return {
    company_id: companyId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sumQuantity(loads, (l) => l.quantity),
    loads_amount: fromKop(loadsKop),
    adjustments_amount: fromKop(adjustmentsKop),
    total_amount: fromKop(loadsKop + adjustmentsKop),
    revenue: fromKop(totalRevenueKop),
    margin: fromKop(totalRevenueKop - loadsKop - adjustmentsKop),
    pending: await pendingLoads(db, { companyId, ...period }),
    drivers,
    items: loads.map((l) => ({
      ...toWageItem(l),
      driver_id: l.driver_id,
      driver_name: l.driver_name,
      task_rate: l.task_rate,
      revenue: fromKop(revenueKop(l)),
      margin: fromKop(revenueKop(l) - l.amount_kop),
      transfer_id: transferOf.get(l.task_id) ?? null,
    })),
    adjustments,
    for_other_companies: incoming.map((t) => {
      const mine = loads.filter((l) => l.task_id === t.carrier_task_id);
      return {
        transfer_id: t.transfer_id,
        company_id: t.company_id,
        company_name: t.company_name,
        carrier_task_id: t.carrier_task_id,
        date: t.date,
        cargo: t.cargo,
        quantity: t.quantity,
        completed_quantity: t.completed_quantity,
        drivers_amount: fromKop(sumKop(mine, (l) => l.amount_kop)),
        revenue: fromKop(sumKop(mine, revenueKop)),
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

/** A manager or admin as the wage calls read them. */
export interface StaffRow {
  id: number;
  name: string;
  role: string;
  company_id: number | null;
  company_name: string | null;
}

/** A manager's (or admin's) salary: their rate × the approved delivered volume of the tasks they created. */
export async function managerWages(db: Db, manager: StaffRow, period: Period): Promise<ManagerWages> {
  const rate = (await db.kysely.selectFrom('manager_rates').select('rate').where('manager_id', '=', manager.id).executeTakeFirst())?.rate ?? null;
  // The same loads as every other figure (a closed month's as stored), grouped by task.
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { createdBy: manager.id, ...period, review: 'approved' }));
  const byTask = new Map<number, ManagerWageItem>();
  for (const l of loads) {
    const item = byTask.get(l.task_id) ?? { task_id: l.task_id, date: l.date, cargo: l.cargo, unit: l.unit, company_id: l.company_id, completed_quantity: 0, amount: 0 };
    item.completed_quantity = roundQuantity(item.completed_quantity + l.quantity);
    byTask.set(l.task_id, item);
  }
  const items = [...byTask.values()].map((i) => ({ ...i, amount: fromKop(amountKop(i.completed_quantity, rate)) }));
  return {
    manager_id: manager.id,
    manager_name: manager.name,
    role: manager.role,
    company_id: manager.company_id,
    company_name: manager.company_name,
    rate,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sumQuantity(items, (i) => i.completed_quantity),
    total_amount: fromKop(sumKop(items, (i) => toKop(i.amount))),
    items,
  };
}

export async function managerWageRows(db: Db, managers: readonly StaffRow[], period: Period): Promise<ManagerWageRow[]> {
  const rows: ManagerWageRow[] = [];
  for (const m of managers) {
    const w = await managerWages(db, m, period);
    rows.push({
      manager_id: m.id,
      manager_name: m.name,
      role: m.role,
      company_id: m.company_id,
      company_name: m.company_name,
      rate: w.rate,
      total_quantity: w.total_quantity,
      total_amount: w.total_amount,
    });
  }
  return rows;
}
