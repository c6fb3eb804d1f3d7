/**
 * Money (server/routes/WAGES.md): one priced load, a driver's and a company's figures, the pay rate a driver
 * sees on a task, the payroll month and its adjustments, and the month helpers both sides use. Amounts are
 * rubles with kopecks (2 decimals); the server sums them in kopecks.
 */
import { z } from 'zod';
import { isoDate, text, wireId } from './fields.ts';

export type RateSource = 'transport_rate' | 'progressive';

/** 'YYYY-MM' of an ISO date. */
export const monthOf = (date: string): string => date.slice(0, 7);
/** The first and the last day of a 'YYYY-MM' month. */
export function monthRange(month: string): { start: string; end: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(last).padStart(2, '0')}` };
}
/** The month after a 'YYYY-MM' month. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
const MONTHS = ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'];
/** «ноябрь 2026». */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${MONTHS[m - 1] ?? month} ${y}`;
}
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'месяц в формате ГГГГ-ММ');

/** Money to the kopeck: rubles × 100, rounded half away from zero. */
export const toKop = (rubles: number): number => Math.round(rubles * 100 + (rubles >= 0 ? 1e-9 : -1e-9));
export const fromKop = (kop: number): number => kop / 100;

/** One approved load (a report) priced by the one rate rule. */
export interface WageItem {
  report_id: number;
  association_id: number;
  task_id: number;
  date: string;
  cargo: string;
  unit: string;
  trips: number;
  ticket_number: string | null;
  /** Delivered: the unloading total where given, else the report's quantity (docs/loads.md). */
  quantity: number;
  rate: number | null;
  rate_source: RateSource | null;
  /** The driver's approved volume in the company that month: the scale's band is read at it. */
  month_volume: number;
  amount: number;
  /** Its month is closed: the figures are the stored ones. */
  frozen: boolean;
}

/** Loads filed but not yet approved: not paid until staff approve them. */
export interface PendingLoads {
  loads: number;
  quantity: number;
}

export interface Adjustment {
  id: number;
  company_id: number;
  driver_id: number;
  driver_name: string;
  /** The day it counts on; its month is the month it is paid in. */
  date: string;
  amount: number;
  reason: string;
  /** The load it concerns, if any, and that load's month. */
  report_id: number | null;
  concerns_month: string | null;
  /** The system's payment of a late load: filed or approved after its month closed (WAGES.md «Рейс после закрытия месяца»). */
  late: boolean;
  created_by_name: string | null;
  created_at: string;
}

export interface DriverWages {
  driver_id: number;
  start_date: string | null;
  end_date: string | null;
  total_quantity: number;
  /** Σ items' amount. */
  loads_amount: number;
  /** Σ adjustments' amount dated in the period. */
  adjustments_amount: number;
  /** loads_amount + adjustments_amount: what the period pays. */
  total_amount: number;
  pending: PendingLoads;
  items: WageItem[];
  adjustments: Adjustment[];
}

export interface CompanyWageItem extends WageItem {
  driver_id: number;
  driver_name: string;
  /** The customer's price per unit (the task's rate); revenue = quantity × task_rate. */
  task_rate: number | null;
  revenue: number;
  /** revenue − amount. */
  margin: number;
  /** Set when the task is a carrier task done for another company. */
  transfer_id: number | null;
}

export interface CompanyDriverTotals {
  driver_id: number;
  driver_name: string;
  total_quantity: number;
  loads_amount: number;
  adjustments_amount: number;
  total_amount: number;
}

/** How many loss loads the company's figures name one by one. */
export const LOSS_ITEMS = 20;

/** The company's figures: aggregates computed in SQL (a closed month from its stored lines), never every load. */
export interface CompanyWages {
  company_id: number;
  start_date: string | null;
  end_date: string | null;
  total_quantity: number;
  loads_amount: number;
  adjustments_amount: number;
  /** Drivers' pay: loads_amount + adjustments_amount. */
  total_amount: number;
  /** Σ loads' revenue (each load's quantity × its task's price, rounded to the kopeck per load). */
  revenue: number;
  /** revenue − total_amount. */
  margin: number;
  pending: PendingLoads;
  /** Approved loads paid in the period (a closed month's: those it stored) and the tasks they belong to. */
  loads: number;
  tasks: number;
  drivers: CompanyDriverTotals[];
  /**
   * Loads that cost more than they brought (margin < 0): how many, and the first LOSS_ITEMS of them (oldest
   * first). Every load, page by page: GET /wages/company/{id}/loads; all of them: the xlsx.
   */
  losses: { count: number; items: CompanyWageItem[] };
  /** Work done for other companies through accepted transfers (our carrier tasks dated in the period). */
  for_other_companies: {
    transfer_id: number;
    company_id: number;
    company_name: string;
    carrier_task_id: number;
    date: string;
    cargo: string;
    quantity: number | null;
    completed_quantity: number;
    drivers_amount: number;
    revenue: number;
  }[];
  /** Work handed to other companies through accepted transfers, with their progress. */
  transferred_out: {
    transfer_id: number;
    company_id: number;
    company_name: string;
    task_id: number;
    carrier_task_id: number;
    date: string;
    cargo: string;
    quantity: number | null;
    completed_quantity: number;
  }[];
}

/** GET /wages/company/{id}/loads: one page of the period's approved loads, priced, oldest first. */
export interface CompanyWageLoads {
  count: number;
  results: CompanyWageItem[];
}

/**
 * What a driver is paid per unit on a task (a driver's view of a task carries this, never the customer's
 * price): the assignment's own rate, else the scale's band at the driver's approved volume this month.
 */
export interface DriverPay {
  rate: number | null;
  source: RateSource | null;
  /** The driver's approved volume in the company in the task's month (the scale's V). */
  month_volume: number;
  /**
   * Set when the task's month is closed: a load filed now is not in its sheet and is paid in this open month
   * ('YYYY-MM'; WAGES.md «Рейс после закрытия месяца»).
   */
  paid_in?: string;
}

export interface PayrollDriver {
  driver_id: number;
  driver_name: string;
  /** Approved reports (loads); a report may cover several trips (docs/loads.md). */
  loads: number;
  /** Σ the approved reports' trips: what the screens and the sheet call «рейсы». */
  trips: number;
  quantity: number;
  loads_amount: number;
  adjustments_amount: number;
  total_amount: number;
}

export interface PayrollMonth {
  company_id: number;
  company_name: string;
  month: string;
  status: 'open' | 'closed';
  closed_at: string | null;
  closed_by_name: string | null;
  /** Per driver (a closed month: as stored at close); a driver's loads on demand (GET /payroll/items). */
  drivers: PayrollDriver[];
  /** Approved reports (loads) paid in the month, and their trips. */
  loads: number;
  trips: number;
  /** Dated in this month (they count here) … */
  adjustments: Adjustment[];
  /** … and made in later months about this month's loads (shown, not counted here). */
  later_adjustments: Adjustment[];
  /** In the current open month also the late loads of closed months (`late`): approved, they are paid in it. */
  pending: PendingLoads & { items: { report_id: number; driver_name: string; task_id: number; date: string; quantity: number; late: boolean }[] };
  total_quantity: number;
  loads_amount: number;
  adjustments_amount: number;
  total_amount: number;
  /** Closing and reopening, newest first. */
  history: { action: 'close' | 'reopen'; reason: string | null; user_name: string | null; created_at: string }[];
  /**
   * The month still running (today is in it): the days after today (`from`…`to`) and the tasks dated on them (the
   * first 50; `count` all), whose loads a close now leaves to the next open month. Null once the month is over.
   */
  ahead: { from: string; to: string; count: number; tasks: { id: number; date: string; cargo: string }[] } | null;
  /** A close of the month under way (any admin's, any tab's), else null: the month is being stored. */
  closing: PayrollClose | null;
}

/**
 * A month's close as a job: POST /payroll/close records it and answers at once (202), the server stores the month
 * (a 200-truck carrier's ~36 000 lines take a few hundred milliseconds, a larger fleet's seconds) and the job ends
 * 'done' or 'failed'; GET /payroll/closes/{id} follows it (server/routes/WAGES.md «Расчёт с водителями»).
 */
export interface PayrollClose {
  id: number;
  company_id: number;
  month: string;
  status: 'running' | 'done' | 'failed';
  started_at: string;
  finished_at: string | null;
  user_name: string | null;
  /** A failed close: why (the `detail` the request would have answered) and that answer's HTTP status. */
  error: string | null;
  error_status: number | null;
}

/** The figures the close dialog shows and the close request carries back (`confirmed`). */
export const confirmedOf = (m: Pick<PayrollMonth, 'total_amount' | 'drivers' | 'loads' | 'pending'>): PayrollConfirmed => ({
  total_amount: m.total_amount,
  drivers: m.drivers.length,
  loads: m.loads,
  pending_loads: m.pending.loads,
});

/** One driver's loads of a company's month (GET /payroll/items): a closed month's as stored at close. */
export interface PayrollItems {
  company_id: number;
  month: string;
  driver_id: number;
  status: 'open' | 'closed';
  items: WageItem[];
}

/** A driver's closed months (their own statistics): the totals stored at close; a month's lines on demand. */
export interface DriverPayrollMonth {
  company_id: number;
  month: string;
  closed_at: string;
  loads: number;
  trips: number;
  quantity: number;
  loads_amount: number;
  adjustments_amount: number;
  total_amount: number;
  adjustments: Adjustment[];
}

export const payrollQuerySchema = z.object({ company_id: wireId('ожидается номер компании').optional(), month: monthSchema });
export const payrollItemsQuerySchema = payrollQuerySchema.extend({ driver_id: wireId('ожидается номер водителя') });
/** A driver's stored lines of one closed month of one company. */
export const driverMonthParams = z.object({ id: wireId('ожидается номер водителя'), company_id: wireId('ожидается номер компании'), month: monthSchema });
/**
 * What the admin confirmed in the close dialog: the server closes only when the month still has these figures
 * (else 409 «Данные месяца изменились: …» naming what moved), so a stale screen cannot close other figures.
 */
export const payrollConfirmedSchema = z
  .object({
    total_amount: z.number({ message: 'ожидается число' }).finite(),
    drivers: z.number({ message: 'ожидается число' }).int().nonnegative(),
    loads: z.number({ message: 'ожидается число' }).int().nonnegative(),
    pending_loads: z.number({ message: 'ожидается число' }).int().nonnegative(),
  })
  .strict();
export type PayrollConfirmed = z.infer<typeof payrollConfirmedSchema>;
export const payrollCloseSchema = z.object({ company_id: z.number().int().positive().optional(), month: monthSchema, confirmed: payrollConfirmedSchema }).strict();
export const payrollReopenSchema = z
  .object({ company_id: z.number().int().positive(), month: monthSchema, reason: text().min(3, 'укажите причину').max(500) })
  .strict();
export const adjustmentSchema = z
  .object({
    company_id: z.number().int().positive().optional(),
    driver_id: z.number().int().positive(),
    date: isoDate.optional(),
    amount: z
      .number({ message: 'ожидается число' })
      .finite()
      .refine((n) => toKop(n) !== 0, 'Сумма не может быть нулевой')
      .refine((n) => Math.abs(n) <= 1e7, 'слишком большая сумма')
      .refine((n) => Math.abs(toKop(n) - n * 100) < 1e-6, 'не больше двух знаков после запятой'),
    reason: text().min(3, 'укажите причину').max(500),
    report_id: z.number().int().positive().nullable().optional(),
  })
  .strict();
export type AdjustmentPayload = z.infer<typeof adjustmentSchema>;
export const adjustmentsQuerySchema = z.object({
  company_id: wireId('ожидается номер компании').optional(),
  month: monthSchema.optional(),
  driver_id: wireId('ожидается номер водителя').optional(),
});
