/**
 * Wages (server/routes/WAGES.md has the rules with examples). Every amount rests on approved loads priced by the
 * one rate rule (pay.ts); a closed month's loads come as stored at close; adjustments count on their own date.
 * - a driver: their loads and adjustments in the period;
 * - a company: its drivers' pay (the same loads), its revenue (delivered × the task's price), the margin, the
 *   work it did for other companies through accepted transfers, and the work it handed out;
 * - a manager: their rate × the delivered approved volume of the tasks they created, task date in the period.
 * Every total comes with the items that make it, so a user can check the sum.
 */
import type { Db } from '../db/connect.ts';
import type { Adjustment, CompanyWageItem, DriverWages } from '../../contract/money.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import type { ManagerWageItem, ManagerWageRow, ManagerWages } from '../../contract/wages.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { amountKop, priceLoads, selectLoads, sumKop, sumQuantity, toWageItem, type Period } from './pay.ts';
import { unapprovedLoads } from './pending.ts';
import { companyItem, transfersOf } from './company-loads.ts';
import { listAdjustments } from '../payroll/adjustments.ts';

export type { Period } from './pay.ts';


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
    pending: await unapprovedLoads(db, { driverId, ...period }),
    items: loads.map(toWageItem),
    adjustments,
  };
}

/**
 * Every approved load of the period priced, and the adjustments: the company's xlsx breakdown (an export; the
 * screen reads the aggregates of statistics.ts and pages the loads).
 */
export async function companyWageSheet(db: Db, companyId: number, period: Period): Promise<{ items: CompanyWageItem[]; adjustments: Adjustment[] }> {
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, ...period, review: 'approved' }));
  const incoming = await transfersOf(db, companyId, 'to', period);
  const transferOf = new Map(incoming.map((t) => [t.carrier_task_id, t.transfer_id]));
  return { items: loads.map((l) => companyItem(l, transferOf)), adjustments: await listAdjustments(db.kysely, { companyId, ...period }) };
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
