/**
 * A company's loads one by one (statistics' «Рейсы» page, `companyLoads`) and what statistics and the company's
 * figures share with it: a priced load as the company's item, the accepted transfers touching the company. The
 * figures themselves, aggregates only, are statistics.ts.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fromKop, type CompanyWageItem, type CompanyWageLoads } from '../../contract/money.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { amountKop, priceLoads, selectLoads, toWageItem, type Period, type PricedLoad } from './pay.ts';

/** A priced load as the company's item: its revenue at the task's price, its margin, the transfer it did. */
export function companyItem(l: PricedLoad, transferOf: ReadonlyMap<number, number>): CompanyWageItem {
  const revenueKop = amountKop(l.quantity, l.task_rate);
  return {
    ...toWageItem(l),
    driver_id: l.driver_id,
    driver_name: l.driver_name,
    task_rate: l.task_rate,
    revenue: fromKop(revenueKop),
    margin: fromKop(revenueKop - l.amount_kop),
    transfer_id: transferOf.get(l.task_id) ?? null,
  };
}

/** Accepted transfers touching the company, with their carrier task's completed volume in the period. */
export async function transfersOf(db: Db, companyId: number, side: 'to' | 'from', period: Period) {
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

/** One page of the period's approved loads, priced (a closed month's as stored), with the transfer each did. */
export async function companyLoads(db: Db, companyId: number, page: Period & { limit: number; offset: number }): Promise<CompanyWageLoads> {
  const { limit, offset, ...period } = page;
  const count = await db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(sql<number>`count(*)`.as('n'))
    .where('r.review_status', '=', 'approved')
    .where('t.company_id', '=', companyId)
    .$if(period.start_date !== undefined, (qb) => qb.where('t.date', '>=', period.start_date as string))
    .$if(period.end_date !== undefined, (qb) => qb.where('t.date', '<=', period.end_date as string))
    .executeTakeFirst();
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { companyId, ...period, review: 'approved', limit, offset }));
  const taskIds = [...new Set(loads.map((l) => l.task_id))];
  const transfers = taskIds.length
    ? await db.kysely.selectFrom('transfers').select(['id', 'carrier_task_id']).where('status', '=', 'accepted').where('to_company_id', '=', companyId).where('carrier_task_id', 'in', taskIds).execute()
    : [];
  const transferOf = new Map(transfers.map((t) => [t.carrier_task_id as number, t.id]));
  return { count: Number(count?.n ?? 0), results: loads.map((l) => companyItem(l, transferOf)) };
}
