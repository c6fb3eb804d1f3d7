/**
 * Progressive rates (a company's ladder of volume bands) and the manager's salary: payloads and answers.
 * The rules are written in server/routes/WAGES.md.
 */
import { z } from 'zod';
import { isoDate, wagesQuerySchema } from './driver.ts';
import { MAX_ID, quantityNumber, wireId, wireInt } from './fields.ts';

/**
 * The date a scale change is in force from (a version of the scale). Default: the first day of the current open
 * month; never inside a closed month (server/routes/WAGES.md).
 */
const validFrom = isoDate.optional();

const amount = quantityNumber();

/** POST /progressive_rates/company/{id}: one band [min_quantity, max_quantity) with its rate per unit. */
export const rateBandSchema = z
  .object({
    min_quantity: amount,
    /** null: the open top band ("and more"). */
    max_quantity: amount.nullable().default(null),
    rate: amount,
    valid_from: validFrom,
  })
  .strict()
  .refine((b) => b.max_quantity === null || b.max_quantity > b.min_quantity, {
    message: 'верхняя граница должна быть больше нижней',
    path: ['max_quantity'],
  });
export type RateBandPayload = z.infer<typeof rateBandSchema>;

/** PUT /progressive_rates/{id}: any of the three; a moved boundary moves the neighbour's too. */
export const rateBandUpdateSchema = z
  .object({
    min_quantity: amount.optional(),
    max_quantity: amount.nullable().optional(),
    rate: amount.optional(),
    valid_from: validFrom,
  })
  .strict()
  .refine((b) => b.min_quantity !== undefined || b.max_quantity !== undefined || b.rate !== undefined, {
    message: 'укажите min_quantity, max_quantity или rate',
  });
export type RateBandUpdate = z.infer<typeof rateBandUpdateSchema>;

export interface RateBand {
  id: number;
  company_id: number;
  min_quantity: number;
  max_quantity: number | null;
  rate: number;
  created_at: string;
  /** The scale's version this band belongs to: in force from this date until the next version's. */
  valid_from: string;
}

/** DELETE /progressive_rates/{id}?valid_from=: the version to remove the band from (a copy is made if needed). */
export const rateBandDeleteQuery = z.object({ valid_from: validFrom });

/** GET /progressive_rates/company/{id}/impact?valid_from=: what a change from that date would reprice. */
export const scaleImpactQuery = z.object({ valid_from: validFrom });

export interface ScaleImpact {
  /** The date the change would take effect from (the default when none was given). */
  valid_from: string;
  /** Until the next version starts (exclusive), or null: open-ended. */
  until: string | null;
  /** Approved loads on the scale (no own rate) from that date: they would be repriced. */
  loads: number;
  quantity: number;
  drivers: number;
  /** The first day a change may start from (the day after the latest closed month), or null. */
  first_open_day: string | null;
}

/**
 * GET /wages/driver|company|manager/{id}: an optional period (its end not before its start), and `format=xlsx`
 * for the breakdown as a workbook instead of the figures (json, the default).
 */
export const wageQuerySchema = z
  .object({ format: z.enum(['json', 'xlsx'], { message: 'ожидается json или xlsx' }).optional(), ...wagesQuerySchema.shape })
  .refine((p) => !(p.start_date && p.end_date && p.start_date > p.end_date), { message: 'раньше, чем start_date', path: ['end_date'] });

/** GET /wages/company/{id}/loads: the period as above and a page (at most 200 loads). */
export const companyLoadsQuerySchema = wagesQuerySchema
  .extend({ limit: wireInt(1, 200).default(50), offset: wireInt(0, MAX_ID).default(0) })
  .refine((p) => !(p.start_date && p.end_date && p.start_date > p.end_date), { message: 'раньше, чем start_date', path: ['end_date'] });

/** GET /wages/managers/: the period as above (checked first), and the super-admin's company filter. */
export const managerWagesQuerySchema = wageQuerySchema.and(z.object({ company_id: wireId().optional() }));

/** PUT /wages/manager/{id}/rate: money per unit of completed volume of the manager's tasks; null removes it. */
export const managerRateSchema = z.object({ rate: amount.nullable() }).strict();

/** One task of a manager's salary: its completed volume in the period and what it brings. */
export interface ManagerWageItem {
  task_id: number;
  date: string;
  cargo: string;
  unit: string;
  company_id: number;
  /** Sum of the completed associations' quantities. */
  completed_quantity: number;
  amount: number;
}

export interface ManagerWages {
  manager_id: number;
  manager_name: string;
  role: string;
  company_id: number | null;
  company_name: string | null;
  /** Money per unit; null when no rate is set (the salary is then 0). */
  rate: number | null;
  start_date: string | null;
  end_date: string | null;
  total_quantity: number;
  total_amount: number;
  items: ManagerWageItem[];
}

/** GET /wages/managers/: each manager (and admin) the caller may see, with the period's totals. */
export type ManagerWageRow = Omit<ManagerWages, 'start_date' | 'end_date' | 'items'>;
