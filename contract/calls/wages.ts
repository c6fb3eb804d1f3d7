/**
 * Wages (server/routes/WAGES.md): a driver's earnings, a company's figures, a manager's salary — each for an
 * optional period, as JSON or, with `?format=xlsx`, the breakdown as a workbook (an attachment, fetched with
 * `downloadOnce`; the declared answer is the JSON one). Also the managers' salaries and a manager's rate.
 */
import { answer, area, GET, PUT } from '../call.ts';
import { ADMINS, ALL_ROLES, STAFF } from '../roles.ts';
import type { CompanyWageLoads, CompanyWages, DriverWages } from '../money.ts';
import { companyLoadsQuerySchema, managerRateSchema, managerWagesQuerySchema, wageQuerySchema, type ManagerWageRow, type ManagerWages } from '../wages.ts';

export const wageCalls = area(
  /** A driver: their own; staff: their company's drivers. */
  GET('/wages/driver/:id', { roles: ALL_ROLES, query: wageQuerySchema, answer: answer<DriverWages>() }),
  /** The company's figures for the period: totals, drivers, losses, transfers (aggregates, not every load). */
  GET('/wages/company/:id', { roles: STAFF, query: wageQuerySchema, answer: answer<CompanyWages>() }),
  /** The period's approved loads priced, one page at a time (the figures' detail). */
  GET('/wages/company/:id/loads', { roles: STAFF, query: companyLoadsQuerySchema, answer: answer<CompanyWageLoads>() }),
  /** A manager: their own; an admin: their company's managers and admins; the super-admin: anyone's. */
  GET('/wages/manager/:id', { roles: STAFF, query: wageQuerySchema, answer: answer<ManagerWages>() }),
  /** Each manager and admin the caller may see, with the period's totals; `company_id`: the super-admin's filter. */
  GET('/wages/managers/', { roles: STAFF, query: managerWagesQuerySchema, answer: answer<ManagerWageRow[]>() }),
  /** Another's rate (one's own is the super-admin's to set); answers their salary of all time. */
  PUT('/wages/manager/:id/rate', { roles: ADMINS, body: managerRateSchema, answer: answer<ManagerWages>(), audience: ['user:param.id'] }),
);
