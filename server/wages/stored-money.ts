/**
 * Money of closed months read as their close stored it (issue 35): per task or per assignment, the approved loads'
 * stored lines summed in SQL — delivered, the drivers' pay, the revenue at the task's price per line (to the kopeck,
 * as `amountKop` does load by load) — and the last line (by report: an assignment's loads share its task's date, so
 * the highest id is the last in load order) for its rate. `priceLoads` reads the same lines one load at a time; a
 * year's export did so for every load it listed (10 GB allocated for 75 000 rows at three years' size). Nothing in a
 * closed month can change these lines (payroll/months.ts), so the sums are what pricing the loads would give.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { isPostgres } from '../db/dialect.ts';
import { monthOf, type RateSource } from '../../contract/money.ts';
import { lineRevenueSql } from '../payroll/summary.ts';

type Q = Kysely<Database>;

export interface StoredSums {
  quantity: number;
  pay_kop: number;
  revenue_kop: number;
  /** The last load's line: its rate, where it came from, the driver's month volume. */
  last: { rate: number | null; rate_source: RateSource | null; month_volume: number } | null;
}

/** Splits tasks (or assignments, with their task's company and date) into those of closed months and the rest. */
export async function byClosedMonth<T extends { company_id: number; date: string }>(db: Q, rows: readonly T[]): Promise<{ closed: T[]; open: T[] }> {
  const closed = await closedMonths(db, rows.map((r) => ({ company_id: r.company_id, month: monthOf(r.date) })));
  const isClosed = (r: T) => closed.has(`${r.company_id}:${monthOf(r.date)}`);
  return { closed: rows.filter(isClosed), open: rows.filter((r) => !isClosed(r)) };
}

/** The stored lines of the approved loads of these tasks or assignments (of closed months), summed per one. */
export async function storedSums(db: Q, per: 'task' | 'association', ids: readonly number[]): Promise<Map<number, StoredSums>> {
  const result = new Map<number, StoredSums>();
  if (ids.length === 0) return result;
  const key = per === 'task' ? 'td.task_id' : 'td.id';
  const lines = () =>
    db
      .selectFrom('task_drivers as td')
      .innerJoin('reports as r', 'r.association_id', 'td.id')
      .innerJoin('payroll_lines as l', 'l.report_id', 'r.id')
      .where(sql<SqlBool>`r.review_status = 'approved'`)
      .where(key, 'in', [...ids]);
  const sums = await lines()
    .select([
      `${key} as id`,
      sql<number>`sum(l.quantity)`.as('quantity'),
      sql<number>`sum(l.amount_kop)`.as('pay_kop'),
      sql<number>`sum(${lineRevenueSql(isPostgres(db) ? 'postgres' : 'sqlite')})`.as('revenue_kop'),
      sql<number>`max(r.id)`.as('last'),
    ])
    .groupBy(key)
    .execute();
  if (sums.length === 0) return result;
  const last = new Map(
    (await lines().select(['r.id', 'l.rate', 'l.rate_source', 'l.month_volume']).where('r.id', 'in', sums.map((s) => Number(s.last))).execute()).map((l) => [Number(l.id), l]),
  );
  for (const s of sums) {
    const line = last.get(Number(s.last));
    result.set(Number(s.id), {
      quantity: Number(s.quantity),
      pay_kop: Number(s.pay_kop),
      revenue_kop: Number(s.revenue_kop),
      last: line ? { rate: line.rate, rate_source: line.rate_source as RateSource | null, month_volume: Number(line.month_volume) } : null,
    });
  }
  return result;
}

/** The (company, month) pairs among `keys` that are closed. */
export async function closedMonths(db: Q, keys: readonly { company_id: number; month: string }[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('payroll_months')
    .select(['company_id', 'month'])
    .where('status', '=', 'closed')
    .where('company_id', 'in', [...new Set(keys.map((k) => k.company_id))])
    .where('month', 'in', [...new Set(keys.map((k) => k.month))])
    .execute();
  return new Set(rows.map((r) => `${r.company_id}:${r.month}`));
}

