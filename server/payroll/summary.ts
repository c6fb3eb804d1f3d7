/**
 * What a closed month stores for the company's statistics (issue 35): its drivers' totals (payroll_drivers, the
 * drivers' loads, trips, delivered and pay) and, on its payroll_months row, the three figures that are not sums
 * over drivers — the loads' revenue, the loads that cost more than they brought, the tasks they belong to.
 * Written by `closeMonth` in the transaction that stores the lines, from those lines; cleared by a reopen in its
 * transaction. Nothing else can move them: every change to a closed month's load, task, price or driver is
 * refused (payroll/months.ts, late.ts). Statistics read them for a whole closed month (wages/statistics.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Dialect } from '../db/migrations.ts';
import { kopSql } from '../wages/open-month.ts';

type Q = Kysely<Database>;

export interface MonthFigures {
  revenue_kop: number;
  losses: number;
  tasks: number;
}

/** A load's revenue from its stored line: quantity × the task's price as stored at close, to the kopeck (0 without a price). */
export const lineRevenueSql = (dialect: Dialect) => sql<number>`(case when task_rate is null then 0 else ${kopSql(dialect, sql`quantity * task_rate`)} end)`;

/** The month's figures from its stored lines (in the close's transaction, right after they are stored). */
export async function figuresFromLines(trx: Q, dialect: Dialect, companyId: number, month: string): Promise<MonthFigures> {
  const revenue = lineRevenueSql(dialect);
  const row = await trx
    .selectFrom('payroll_lines')
    .select([
      sql<number | null>`sum(${revenue})`.as('revenue_kop'),
      sql<number | null>`sum(case when ${revenue} < amount_kop then 1 else 0 end)`.as('losses'),
      sql<number>`count(distinct task_id)`.as('tasks'),
    ])
    .where('company_id', '=', companyId)
    .where('month', '=', month)
    .executeTakeFirst();
  return { revenue_kop: Number(row?.revenue_kop ?? 0), losses: Number(row?.losses ?? 0), tasks: Number(row?.tasks ?? 0) };
}

/** A reopened month stores none: its figures are live again. */
export const NO_FIGURES = { revenue_kop: null, losses: null, tasks: null } as const;
