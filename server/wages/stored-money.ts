/**
 * Money of closed months read as their close stored it (issue 35): per task or per assignment, the approved loads'
 * stored lines summed in SQL — delivered, the drivers' pay, the revenue at the task's price per line (to the kopeck,
 * as `amountKop` does load by load) — and the last line (by report: an assignment's loads share its task's date, so
 * the highest id is the last in load order) for its rate. `priceLoads` reads the same lines one load at a time; a
 * year's export did so for every load it listed (10 GB allocated for 75 000 rows at three years' size). Nothing in a
 * closed month can change these lines (payroll/months.ts), so the sums are what pricing the loads would give.
 * `taskMoney` (a task's money on every task answer and the export) reads them so, and prices the open months' loads.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { isPostgres } from '../db/dialect.ts';
import { fromKop, monthOf, type RateSource } from '../../contract/money.ts';
import { lineRevenueSql } from '../payroll/summary.ts';
import { amountKop, closedMonths, priceLoads, selectLoads } from './pay.ts';
import type { TaskMoney } from '../../contract/entities.ts';
import { roundQuantity } from '../tasks/progress.ts';

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

/** A task's or an assignment's approved loads summed: delivered (to the gram), pay and revenue in kopecks, the last load's rate. */
export interface MoneySums extends StoredSums {
  /** Whether the figures are its closed month's, as stored. */
  frozen: boolean;
}

/**
 * Per task or assignment (each with its task's company and date): its approved loads' money — a closed month's summed
 * from its stored lines (`storedSums`), the rest priced load by load by the one rule (pay.ts).
 */
export async function moneySums(db: Q, per: 'task' | 'association', rows: readonly { id: number; company_id: number; date: string }[]): Promise<Map<number, MoneySums>> {
  const result = new Map<number, MoneySums>();
  if (rows.length === 0) return result;
  const { closed, open } = await byClosedMonth(db, rows);
  for (const [id, s] of await storedSums(db, per, closed.map((r) => r.id))) result.set(id, { ...s, quantity: roundQuantity(s.quantity), frozen: true });
  if (open.length === 0) return result;
  const ids = open.map((r) => r.id);
  const loads = await priceLoads(db, await selectLoads(db, per === 'task' ? { taskIds: ids, review: 'approved' } : { associationIds: ids, review: 'approved' }));
  for (const l of loads) {
    const id = per === 'task' ? l.task_id : l.association_id;
    const m = result.get(id) ?? { quantity: 0, pay_kop: 0, revenue_kop: 0, last: null, frozen: false };
    m.quantity = roundQuantity(m.quantity + l.quantity);
    m.pay_kop += l.amount_kop;
    m.revenue_kop += amountKop(l.quantity, l.task_rate);
    m.last = { rate: l.rate, rate_source: l.rate_source, month_volume: l.month_volume };
    m.frozen = l.frozen;
    result.set(id, m);
  }
  return result;
}

/** Per task: its approved loads' money (revenue at the task's price, the drivers' pay, the margin). */
export async function taskMoney(db: Q, taskIds: readonly number[]): Promise<Map<number, TaskMoney>> {
  if (taskIds.length === 0) return new Map();
  const tasks = await db.selectFrom('tasks').select(['id', 'company_id', 'date']).where('id', 'in', [...taskIds]).execute();
  const sums = await moneySums(db, 'task', tasks);
  return new Map([...sums].map(([id, s]) => [id, { approved: s.quantity, revenue: fromKop(s.revenue_kop), pay: fromKop(s.pay_kop), margin: fromKop(s.revenue_kop - s.pay_kop) }]));
}
