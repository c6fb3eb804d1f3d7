/**
 * Wages (server/routes/WAGES.md has the rules with examples):
 * - a driver earns quantity × rate on each completed association, the rate being the association's
 *   transport_rate, else the task company's progressive ladder rate for the driver's whole completed volume in
 *   that company in the period;
 * - a company's figures are its drivers' pay (the same items), its revenue (completed quantity × the task's
 *   rate), the work it did for other companies through accepted transfers, and the work it handed out;
 * - a manager earns their rate × the completed quantity of the tasks they created, task date in the period.
 * Every total comes with the items that make it, so a user can check the sum.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CompanyWages, DriverWages, WageItem } from '../../contract/driver.ts';
import type { ManagerWageItem, ManagerWageRow, ManagerWages } from '../../contract/wages.ts';
import { ladderRate } from '../../contract/ladder.ts';

export interface Period {
  start_date?: string | undefined;
  end_date?: string | undefined;
}

interface Band {
  company_id: number;
  min_quantity: number;
  max_quantity: number | null;
  rate: number;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
const sum = <T>(list: readonly T[], of: (item: T) => number): number => round2(list.reduce((s, item) => s + of(item), 0));

/** The company's ladder rate for `total` (server/wages/ladder.ts: the band holding it, the top band above a closed ladder). */
export function bandRate(bands: readonly Band[], companyId: number, total: number): number | null {
  return ladderRate(bands.filter((b) => b.company_id === companyId), total);
}

interface CompletedRow {
  association_id: number;
  task_id: number;
  date: string;
  cargo: string;
  company_id: number;
  driver_id: number;
  driver_name: string;
  quantity: number | null;
  transport_rate: number | null;
  task_rate: number | null;
  /** Σ quantity of the association's reports staff approved (docs/reports-review.md). */
  approved_quantity: number | string | null;
}

/** Completed associations in the period, oldest first. */
async function completedRows(db: Db, filter: { driverId?: number; companyId?: number }, period: Period): Promise<CompletedRow[]> {
  return db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .select([
      'td.id as association_id',
      't.id as task_id',
      't.date',
      't.cargo',
      't.company_id',
      'td.driver_id',
      'u.name as driver_name',
      'td.quantity',
      'td.transport_rate',
      't.rate as task_rate',
      sql<number>`(select coalesce(sum(r.quantity), 0) from reports r where r.association_id = td.id and r.review_status = 'approved')`.as('approved_quantity'),
    ])
    .where('td.status', '=', 'completed')
    .$if(filter.driverId !== undefined, (qb) => qb.where('td.driver_id', '=', filter.driverId as number))
    .$if(filter.companyId !== undefined, (qb) => qb.where('t.company_id', '=', filter.companyId as number))
    .$if(period.start_date !== undefined, (qb) => qb.where('t.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('t.date', '<=', period.end_date as string))
    .orderBy('t.date')
    .orderBy('td.id')
    .execute();
}

/** Each row priced: its rate and where the rate came from. */
async function priced(db: Db, rows: readonly CompletedRow[]): Promise<(WageItem & { driver_id: number; driver_name: string; company_id: number; task_rate: number | null })[]> {
  const needBands = [...new Set(rows.filter((r) => r.transport_rate === null).map((r) => r.company_id))];
  const bands: Band[] = needBands.length
    ? await db.kysely.selectFrom('progressive_rates').select(['company_id', 'min_quantity', 'max_quantity', 'rate']).where('company_id', 'in', needBands).execute()
    : [];
  // The ladder is read at the driver's whole volume in that company in the period.
  const volume = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.driver_id}:${r.company_id}`;
    volume.set(key, (volume.get(key) ?? 0) + (r.quantity ?? 0));
  }
  return rows.map((r) => {
    const quantity = r.quantity ?? 0;
    const progressive = r.transport_rate === null ? bandRate(bands, r.company_id, volume.get(`${r.driver_id}:${r.company_id}`) ?? 0) : null;
    const rate = r.transport_rate ?? progressive;
    const amount = rate === null ? 0 : round2(quantity * rate);
    // What staff approved of it, at the same rate; the rest waits for review.
    const approvedAmount = rate === null ? 0 : Math.min(amount, round2(Math.min(quantity, Number(r.approved_quantity ?? 0)) * rate));
    return {
      association_id: r.association_id,
      task_id: r.task_id,
      date: r.date,
      cargo: r.cargo,
      quantity,
      rate,
      rate_source: r.transport_rate !== null ? 'transport_rate' : progressive !== null ? 'progressive' : null,
      amount,
      approved_amount: approvedAmount,
      driver_id: r.driver_id,
      driver_name: r.driver_name,
      company_id: r.company_id,
      task_rate: r.task_rate,
    };
  });
}

export async function driverWages(db: Db, driverId: number, period: Period): Promise<DriverWages> {
  const items = (await priced(db, await completedRows(db, { driverId }, period))).map(
    ({ association_id, task_id, date, cargo, quantity, rate, rate_source, amount, approved_amount }): WageItem => ({
      association_id,
      task_id,
      date,
      cargo,
      quantity,
      rate,
      rate_source,
      amount,
      approved_amount,
    }),
  );
  return {
    driver_id: driverId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sum(items, (i) => i.quantity),
    total_amount: sum(items, (i) => i.amount),
    approved_amount: sum(items, (i) => i.approved_amount),
    items,
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
  const done = ids.length
    ? await db.kysely
        .selectFrom('task_drivers')
        .select(['task_id', (eb) => eb.fn.sum<number | null>('quantity').as('quantity')])
        .where('task_id', 'in', ids)
        .where('status', '=', 'completed')
        .groupBy('task_id')
        .execute()
    : [];
  const completed = new Map(done.map((d) => [d.task_id, Number(d.quantity ?? 0)]));
  return rows.map((r) => ({ ...r, carrier_task_id: r.carrier_task_id as number, completed_quantity: round2(completed.get(r.carrier_task_id as number) ?? 0) }));
}

/** Every driver who completed a task of the company in the period, with their pay; revenue; transfers both ways. */
export async function companyWages(db: Db, companyId: number, period: Period): Promise<CompanyWages> {
  const items = await priced(db, await completedRows(db, { companyId }, period));
  const byDriver = new Map<number, { driver_id: number; driver_name: string; total_quantity: number; total_amount: number }>();
  for (const i of items) {
    const d = byDriver.get(i.driver_id) ?? { driver_id: i.driver_id, driver_name: i.driver_name, total_quantity: 0, total_amount: 0 };
    d.total_quantity = round2(d.total_quantity + i.quantity);
    d.total_amount = round2(d.total_amount + i.amount);
    byDriver.set(i.driver_id, d);
  }
  const drivers = [...byDriver.values()].sort((a, b) => a.driver_name.localeCompare(b.driver_name, 'ru') || a.driver_id - b.driver_id);
  const incoming = await transfersOf(db, companyId, 'to', period);
  const outgoing = await transfersOf(db, companyId, 'from', period);
  return {
    company_id: companyId,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sum(items, (i) => i.quantity),
    total_amount: sum(items, (i) => i.amount),
    approved_amount: sum(items, (i) => i.approved_amount),
    revenue: sum(items, (i) => i.quantity * (i.task_rate ?? 0)),
    drivers,
    items: items.map((i) => ({
      association_id: i.association_id,
      task_id: i.task_id,
      date: i.date,
      cargo: i.cargo,
      driver_id: i.driver_id,
      driver_name: i.driver_name,
      quantity: i.quantity,
      rate: i.rate,
      rate_source: i.rate_source,
      amount: i.amount,
      approved_amount: i.approved_amount,
      task_rate: i.task_rate,
      revenue: round2(i.quantity * (i.task_rate ?? 0)),
      transfer_id: incoming.find((t) => t.carrier_task_id === i.task_id)?.transfer_id ?? null,
    })),
    for_other_companies: incoming.map((t) => {
      const mine = items.filter((i) => i.task_id === t.carrier_task_id);
      return {
        transfer_id: t.transfer_id,
        company_id: t.company_id,
        company_name: t.company_name,
        carrier_task_id: t.carrier_task_id,
        date: t.date,
        cargo: t.cargo,
        quantity: t.quantity,
        completed_quantity: t.completed_quantity,
        drivers_amount: sum(mine, (i) => i.amount),
        revenue: sum(mine, (i) => i.quantity * (i.task_rate ?? 0)),
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

/** A manager's (or admin's) salary: their rate × the completed volume of the tasks they created. */
export async function managerWages(db: Db, manager: StaffRow, period: Period): Promise<ManagerWages> {
  const rate = (await db.kysely.selectFrom('manager_rates').select('rate').where('manager_id', '=', manager.id).executeTakeFirst())?.rate ?? null;
  const rows = await db.kysely
    .selectFrom('tasks as t')
    .innerJoin('task_drivers as td', 'td.task_id', 't.id')
    .select(['t.id as task_id', 't.date', 't.cargo', 't.unit', 't.company_id', (eb) => eb.fn.sum<number | null>('td.quantity').as('quantity')])
    .where('t.created_by', '=', manager.id)
    .where('td.status', '=', 'completed')
    .$if(period.start_date !== undefined, (qb) => qb.where('t.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('t.date', '<=', period.end_date as string))
    .groupBy(['t.id', 't.date', 't.cargo', 't.unit', 't.company_id'])
    .orderBy('t.date')
    .orderBy('t.id')
    .execute();
  const items: ManagerWageItem[] = rows.map((r) => {
    const completed = round2(Number(r.quantity ?? 0));
    return { task_id: r.task_id, date: r.date, cargo: r.cargo, unit: r.unit, company_id: r.company_id, completed_quantity: completed, amount: rate === null ? 0 : round2(completed * rate) };
  });
  return {
    manager_id: manager.id,
    manager_name: manager.name,
    role: manager.role,
    company_id: manager.company_id,
    company_name: manager.company_name,
    rate,
    start_date: period.start_date ?? null,
    end_date: period.end_date ?? null,
    total_quantity: sum(items, (i) => i.completed_quantity),
    total_amount: sum(items, (i) => i.amount),
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
