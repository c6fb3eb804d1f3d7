/**
 * What a closed month stores for the company's statistics (issue 35): its drivers' totals (payroll_drivers, the
 * drivers' loads, trips, delivered and pay) and, on its payroll_months row, the three figures that are not sums
 * over drivers — the loads' revenue, the loads that cost more than they brought, the tasks they belong to.
 * Written by `closeMonth` in the transaction that stores the lines, from those lines (summed slice by slice as stored); cleared by a reopen in its
 * transaction. Nothing else can move them: every change to a closed month's load, task, price or driver is
 * refused (payroll/months.ts, late.ts). Statistics read them for a whole closed month (wages/statistics.ts).
 */
import { sql } from 'kysely';
import type { Dialect } from '../db/migrations.ts';
import { kopSql } from '../wages/open-month.ts';

export interface MonthFigures {
  revenue_kop: number;
  losses: number;
  tasks: number;
}

/** A load's revenue from its stored line `l`: quantity × the task's price as stored at close, to the kopeck (0 without a price). */
export const lineRevenueSql = (dialect: Dialect) => sql<number>`(case when l.task_rate is null then 0 else ${kopSql(dialect, sql`l.quantity * l.task_rate`)} end)`;

/** A reopened month stores none: its figures are live again. */
export const NO_FIGURES = { revenue_kop: null, losses: null, tasks: null } as const;
