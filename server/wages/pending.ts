/**
 * Statistics' loads filed but not approved (pending or disputed): counted apart, not paid — a driver's or a
 * company's, in SQL; the company's a statement a month on SQLite, giving way before each (issue 35).
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { PendingLoads } from '../../contract/money.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { giveWay } from './open-month.ts';
import type { LoadFilter } from './pay.ts';

/** Loads filed in the period but not approved (pending or disputed): counted apart, not paid. In SQL. */
export async function unapprovedLoads(db: Db, filter: Pick<LoadFilter, 'driverId' | 'companyId' | 'start_date' | 'end_date'>): Promise<PendingLoads> {
  const sum = await unapprovedSum(db, filter);
  return { loads: sum.loads, quantity: roundQuantity(sum.quantity) };
}

/** The count and delivered volume (not rounded) of the loads `unapprovedLoads` counts. */
async function unapprovedSum(db: Db, filter: Pick<LoadFilter, 'driverId' | 'companyId' | 'start_date' | 'end_date'>): Promise<{ loads: number; quantity: number }> {
  const row = await db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select([sql<number>`count(*)`.as('loads'), sql<number | null>`sum(${sql.raw(DELIVERED_SQL)})`.as('quantity')])
    .where('r.review_status', '<>', 'approved')
    .$if(filter.driverId !== undefined, (qb) => qb.where('td.driver_id', '=', filter.driverId as number))
    .$if(filter.companyId !== undefined, (qb) => qb.where('t.company_id', '=', filter.companyId as number))
    .$if(filter.start_date !== undefined, (qb) => qb.where('t.date', '>=', filter.start_date as string))
    .$if(filter.end_date !== undefined, (qb) => qb.where('t.date', '<=', filter.end_date as string))
    .executeTakeFirst();
  return { loads: Number(row?.loads ?? 0), quantity: Number(row?.quantity ?? 0) };
}

/**
 * The company's `unapprovedLoads` over the period's months (`monthSlices`, every task's date in one): on SQLite a
 * statement a month (each a short turn), on PostgreSQL one over them all (see `partsOf`).
 */
export async function companyPending(db: Db, companyId: number, slices: readonly { start: string; end: string }[]): Promise<PendingLoads> {
  let loads = 0;
  let quantity = 0;
  const first = slices[0];
  const last = slices.at(-1);
  const statements = db.dialect === 'postgres' && first && last ? [{ ...first, end: last.end }] : slices;
  for (const slice of statements) {
    await giveWay(db.dialect);
    const sum = await unapprovedSum(db, { companyId, start_date: slice.start, end_date: slice.end });
    loads += sum.loads;
    quantity += sum.quantity;
  }
  return { loads, quantity: roundQuantity(quantity) };
}
