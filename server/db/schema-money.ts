/**
 * The money tables (docs: server/routes/WAGES.md): a manager's rate, the company's progressive scale by version,
 * and the payroll — closed months, their frozen lines, the close/reopen events, adjustments after close.
 * Part of `Database` (schema.ts); money in kopecks where it is stored as an amount.
 */
import type { Generated } from 'kysely';

type Id = Generated<number>;

export interface ManagerRatesTable {
  id: Id;
  manager_id: number;
  /** Money per unit of completed quantity of the tasks the manager created. */
  rate: number;
  updated_by: number | null;
  updated_at: string;
}

export interface ProgressiveRatesTable {
  id: Id;
  company_id: number;
  min_quantity: number;
  max_quantity: number | null;
  rate: number;
  created_at: string;
  /** The scale's version this band belongs to: the date it is in force from (YYYY-MM-DD). */
  valid_from: Generated<string>;
}

export interface PayrollMonthsTable {
  id: Id;
  company_id: number;
  month: string; // YYYY-MM
  status: 'closed' | 'reopened';
  closed_at: string;
  closed_by: number | null;
  loads: number;
  quantity: number;
  amount_kop: number | string;
  adjustments_kop: number | string;
  reopened_at: string | null;
  reopened_by: number | null;
  reopen_reason: string | null;
  /**
   * Stored by the close with its lines, null once reopened (payroll/summary.ts): the loads' revenue (per load
   * rounded to the kopeck), the loads that cost more than they brought, the tasks they belong to.
   */
  revenue_kop: number | string | null;
  losses: number | null;
  tasks: number | null;
}

/** One driver's totals of a closed month, stored at close with its lines. */
export interface PayrollDriversTable {
  id: Id;
  company_id: number;
  month: string;
  driver_id: number;
  loads: number;
  trips: number;
  quantity: number;
  amount_kop: number | string;
}

/** A month's close as a job (migration 053, payroll/close-jobs.ts): running, then done or failed with its answer. */
export interface PayrollClosesTable {
  id: Id;
  company_id: number;
  month: string;
  status: 'running' | 'done' | 'failed';
  /** The figures the admin confirmed (contract/money.ts PayrollConfirmed), as JSON. */
  confirmed: string;
  user_id: number;
  started_at: string;
  finished_at: string | null;
  /** A failed close: what the request would have answered (a Russian detail) and its HTTP status. */
  error: string | null;
  error_status: number | null;
}

/** One approved load of a closed month, priced and frozen at close. */
export interface PayrollLinesTable {
  id: Id;
  company_id: number;
  month: string;
  report_id: number;
  driver_id: number;
  association_id: number;
  task_id: number;
  date: string;
  quantity: number;
  rate: number | null;
  rate_source: string | null;
  month_volume: number;
  amount_kop: number | string;
  task_rate: number | null;
}

export interface PayrollEventsTable {
  id: Id;
  company_id: number;
  month: string;
  action: 'close' | 'reopen';
  reason: string | null;
  user_id: number | null;
  created_at: string;
}

/** A correction after close: ± amount for a driver, dated in an open month, maybe about one load. */
export interface PayrollAdjustmentsTable {
  id: Id;
  company_id: number;
  driver_id: number;
  date: string;
  amount_kop: number | string;
  reason: string;
  report_id: number | null;
  concerns_month: string | null;
  created_by: number | null;
  created_at: string;
  /** 1: the system's payment of a late load (payroll/late.ts; `report_id` the load, no author); 0: staff's. */
  late: Generated<number>;
}
