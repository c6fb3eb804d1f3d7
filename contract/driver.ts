/**
 * The driver workflow's request payloads (zod) and answers: tasks, reports, daily hours, wages.
 * Kept apart from payloads.ts so the auth/users area and this one grow without stepping on each other.
 */
import { z } from 'zod';
import { DRIVER_STATUSES, TASK_STATUSES } from './entities.ts';
import { REPORT_MAX_TRIPS } from './report-limits.ts';

/** YYYY-MM-DD that is a real calendar date. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'ожидается дата ГГГГ-ММ-ДД')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
    message: 'несуществующая дата',
  });

/** A quantity: a finite number ≥ 0; null clears it. */
const quantity = z.number({ message: 'ожидается число' }).finite().min(0, 'не может быть отрицательным').max(1e9);

const limit = (fallback: number) => z.coerce.number().int().min(1).max(200).default(fallback);
const offset = z.coerce.number().int().min(0).default(0);
const search = z.string().trim().max(200).optional();

export const availableQuerySchema = z.object({
  search,
  date: isoDate.optional(),
  limit: limit(50),
  offset,
});
export type AvailableQuery = z.infer<typeof availableQuerySchema>;

export const driverCompletedQuerySchema = z.object({
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  limit: limit(50),
  offset,
});
export type DriverCompletedQuery = z.infer<typeof driverCompletedQuerySchema>;

/** GET /tasks/completed/ (staff): the spec's defaults — limit 50, ordering -date, status 'completed'. */
export const COMPLETED_ORDERINGS = ['date', '-date', 'id', '-id', 'cargo', '-cargo'] as const;
export const completedQuerySchema = z.object({
  search,
  status: z.enum([...TASK_STATUSES, 'all']).default('completed'),
  ordering: z.enum(COMPLETED_ORDERINGS).default('-date'),
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
  /** A super-admin's company filter; for other staff it can only narrow their own company's list. */
  company_id: z.coerce.number({ message: 'ожидается номер компании' }).int().positive().optional(),
  limit: limit(50),
  offset,
});
export type CompletedQuery = z.infer<typeof completedQuerySchema>;

/** Most ids one GET /tasks/bulk may ask for. */
export const BULK_MAX_IDS = 200;

/** PUT /tasks/{id}/drivers/{driverId}/quantity/: an absent field stays, null clears it. */
export const quantityUpdateSchema = z.object({
  quantity: quantity.nullable().optional(),
  loading_quantity: quantity.nullable().optional(),
  unloading_quantity: quantity.nullable().optional(),
  transport_rate: quantity.nullable().optional(),
  status: z.enum(DRIVER_STATUSES).optional(),
  /** The driver's planned share of the task (staff); null: the plan split evenly. */
  planned_quantity: quantity.nullable().optional(),
});
export type QuantityUpdate = z.infer<typeof quantityUpdateSchema>;

/** POST /tasks/ (staff). */
export const taskCreateSchema = z.object({
  company_id: z.number().int().positive().optional(),
  date: isoDate,
  cargo: z.string().trim().min(1, 'укажите груз').max(300),
  loading_place: z.string().trim().min(1, 'укажите место погрузки').max(300),
  unloading_place: z.string().trim().min(1, 'укажите место выгрузки').max(300),
  planned_quantity: quantity,
  unit: z.string().trim().min(1).max(20).default('т'),
  rate: quantity.nullable().optional(),
  comment: z.string().trim().max(2000).nullable().optional(),
  max_drivers: z.number().int().min(1).max(1000).nullable().optional(),
  driver_ids: z.array(z.number().int().positive()).max(200).optional(),
  /** Each assigned driver's own fields (SPEC §7: id, quantity, status, loading_quantity, transport_rate, unloading_quantity). */
  drivers: z.array(quantityUpdateSchema.extend({ id: z.number().int().positive() })).max(200).optional(),
});
export type TaskCreate = z.infer<typeof taskCreateSchema>;

/** PUT /tasks/drivers/{id}/tasks/order: the driver's task ids in the wanted order. */
export const taskOrderSchema = z.object({
  task_ids: z.array(z.number().int().positive()).min(1).max(500),
});

/** The report's text fields as they arrive in a multipart form (all strings) or JSON. */
const formNumber = z.preprocess(
  (v) => (v === '' || v === 'null' || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
  quantity.nullable(),
);
const formFlag = z.preprocess(
  (v) => (v === true || v === 'true' || v === '1' || v === 1 ? 1 : v === undefined || v === '' || v === false || v === 'false' || v === '0' || v === 0 ? 0 : v),
  z.union([z.literal(0), z.literal(1)], { message: 'ожидается 0 или 1' }),
);
/** A positive whole number from a form: digits only (no sign, exponent, hex or spaces). */
const formCount = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^[1-9][0-9]{0,8}$/.test(v) ? Number(v) : typeof v === 'number' ? v : v === undefined || v === '' ? undefined : NaN),
    z.number({ message }).int(message).min(1, message).max(max, `не больше ${max}`),
  );
/** A weighbridge ticket's number as printed: letters, digits and separators; empty means none. */
const ticketNumber = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
  z
    .string({ message: 'ожидается текст' })
    .max(40, 'не длиннее 40 символов')
    .regex(/^[\p{L}\p{N}№][\p{L}\p{N} ./№#-]*$/u, 'буквы, цифры, пробел, точка, дефис, «/» и «№»')
    .nullable(),
);

const formDateTime = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z.iso.datetime({ offset: true, message: 'ожидается время ISO 8601' }).optional(),
);

export const reportCreateSchema = z.object({
  association_id: formCount(Number.MAX_SAFE_INTEGER, 'ожидается номер задания водителя'),
  trips: formCount(REPORT_MAX_TRIPS, 'ожидается число рейсов от 1').optional().default(1),
  ticket_number: ticketNumber.optional().default(null),
  /** 1: the driver's last trip — the report finishes their part of the task. */
  final: formFlag.optional().default(0),
  quantity: formNumber.optional().default(null),
  total_loading_quantity: formNumber.optional().default(null),
  total_unloading_quantity: formNumber.optional().default(null),
  loading_is_buyer: formFlag,
  unloading_is_buyer: formFlag,
  completed_at: formDateTime,
});
export type ReportCreate = z.infer<typeof reportCreateSchema>;

/** PUT /reports/{id}: every field optional; an absent field stays. */
export const reportUpdateSchema = z.object({
  trips: formCount(REPORT_MAX_TRIPS, 'ожидается число рейсов от 1').optional(),
  ticket_number: ticketNumber.optional(),
  quantity: formNumber.optional(),
  total_loading_quantity: formNumber.optional(),
  total_unloading_quantity: formNumber.optional(),
  loading_is_buyer: formFlag.optional(),
  unloading_is_buyer: formFlag.optional(),
  completed_at: formDateTime,
});
export type ReportUpdate = z.infer<typeof reportUpdateSchema>;

export const dailyHoursSchema = z.object({
  date: isoDate,
  // A JSON body: a number, not "8" or true.
  hours: z
    .number({ message: 'ожидается число' })
    .finite()
    .gt(0, 'часов должно быть больше 0')
    .max(24, 'не больше 24 часов'),
});
export type DailyHoursPayload = z.infer<typeof dailyHoursSchema>;

export interface DailyHours {
  id: number;
  driver_id: number;
  date: string;
  hours: number;
}

/** GET /wages/...: an optional period; also GET /reports/daily_hours/. */
export const wagesQuerySchema = z.object({
  start_date: isoDate.optional(),
  end_date: isoDate.optional(),
});

/** The wage answers live in money.ts (one priced load, the driver's and the company's figures). */
export type { CompanyWageItem, CompanyWages, DriverWages, WageItem } from './money.ts';
