/**
 * The payroll (server/routes/WAGES.md «Расчёт с водителями»): a company's month — each driver's approved loads,
 * pay and adjustments, the loads still waiting for review — closed by an admin (a super-admin: any company), which
 * stores its figures and freezes them; reopened only by the super-admin with a reason; its sheet as xlsx; the
 * adjustments after close; a driver's own closed months.
 */
import { z } from 'zod';
import { wireId } from '../fields.ts';
import { answer, area, GET, POST, PAY } from '../call.ts';
import { ADMINS, ALL_ROLES, STAFF } from '../roles.ts';
import {
  adjustmentSchema,
  adjustmentsQuerySchema,
  monthSchema,
  driverMonthParams,
  payrollCloseSchema,
  payrollItemsQuerySchema,
  payrollQuerySchema,
  payrollReopenSchema,
  type Adjustment,
  type DriverPayrollMonth,
  type PayrollClose,
  type PayrollItems,
  type PayrollMonth,
  type WageItem,
} from '../money.ts';

const sheetParams = z.object({
  company_id: wireId('ожидается номер компании'),
  month: monthSchema,
});

/** What a month's close or reopen makes stale: every money figure, and the review queue (a closed month's loads stop there). */
const MONEY = [...PAY, 'progressive_rates', 'reports', 'tasks'] as const;

export const payrollCalls = area(
  /** A month's totals and each driver's; a driver's loads with GET /payroll/items. */
  GET('/payroll/', { roles: STAFF, query: payrollQuerySchema, answer: answer<PayrollMonth>() }),
  /** One driver's loads of the month (a closed month: the lines stored at close). */
  GET('/payroll/items', { roles: STAFF, query: payrollItemsQuerySchema, answer: answer<PayrollItems>() }),
  /**
   * Starts the month's close (202): the job stores it and tells every tab when done (the change feed); a second
   * close of a month while one runs is 409. Failures (the figures moved since confirmed) are the job's.
   */
  POST('/payroll/close', { roles: ADMINS, body: payrollCloseSchema, status: 202, answer: answer<PayrollClose>(), invalidates: MONEY, audience: ['company:answer.company_id'] }),
  /** A close started by POST /payroll/close: running, done, or failed with why. */
  GET('/payroll/closes/:id', { roles: ADMINS, params: z.object({ id: wireId('ожидается номер закрытия') }), answer: answer<PayrollClose>() }),
  POST('/payroll/reopen', { roles: ['super-admin'], body: payrollReopenSchema, answer: answer<PayrollMonth>(), invalidates: MONEY, audience: ['company:answer.company_id'] }),
  /** The month's sheet («Ведомость»): one row per driver, then a sheet of every load; an attachment. */
  GET('/payroll/:company_id/:month/sheet', { roles: STAFF, params: sheetParams, answer: answer<unknown>() }),
  GET('/payroll/adjustments', { roles: STAFF, query: adjustmentsQuerySchema, answer: answer<Adjustment[]>() }),
  POST('/payroll/adjustments', {
    roles: ADMINS,
    body: adjustmentSchema,
    status: 201,
    answer: answer<Adjustment>(),
    invalidates: PAY,
    audience: ['company-staff:answer.company_id', 'user:answer.driver_id'],
  }),
  /** A driver's closed months, the totals stored at close (a driver: their own; staff: their company's drivers). */
  GET('/payroll/driver/:id', { roles: ALL_ROLES, answer: answer<DriverPayrollMonth[]>() }),
  /** The lines of one of them, as stored at close (the same rule of who sees which). */
  GET('/payroll/driver/:id/:company_id/:month', { roles: ALL_ROLES, params: driverMonthParams, answer: answer<WageItem[]>() }),
);
