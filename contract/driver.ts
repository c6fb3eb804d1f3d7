/**
 * The driver workflow's request payloads (zod) and answers: tasks, reports, daily hours, wages.
 * Kept apart from payloads.ts so the auth/users area and this one grow without stepping on each other.
 */
import { z } from 'zod';
import { DRIVER_STATUSES, TASK_STATUSES } from './entities.ts';
import { REPORT_MAX_TRIPS } from './report-limits.ts';
import { MAX_ID, formFlag, formQuantity, isoDate, jsonFlag, quantityNumber, text, wireId, wireInt } from './fields.ts';
import { taskLinkFields } from './registers.ts';
import { taskCargoFields } from './cargo-facts.ts';

export { isoDate };


/** A quantity: a finite number ≥ 0 (contract/fields.ts); null clears it. */
const quantity = quantityNumber();

const limit = (fallback: number) => wireInt(1, 200).default(fallback);
const offset = wireInt(0, MAX_ID).default(0);
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
  company_id: wireId('ожидается номер компании').optional(),
  /** The tasks naming this counterparty as customer, shipper or consignee (a card's «Задачи (N)»). */
  counterparty_id: wireId('ожидается номер контрагента').optional(),
  /** The tasks loading or unloading at this place (a place card's «Задачи (N)»). */
  place_id: wireId('ожидается номер места').optional(),
  limit: limit(50),
  offset,
});
export type CompletedQuery = z.infer<typeof completedQuerySchema>;

/** Most ids one GET /tasks/bulk may ask for. */
export const BULK_MAX_IDS = 200;

/** Parses `ids=1,2,3`, each id by the path and query rule (contract/fields.ts); null when malformed. */
export function parseIdList(raw: unknown): number[] | null {
  if (typeof raw !== 'string' || !/^[1-9][0-9]*(,[1-9][0-9]*)*$/.test(raw)) return null;
  const ids = raw.split(',').map(Number);
  if (ids.some((n) => n > MAX_ID)) return null;
  return [...new Set(ids)];
}

/** GET /tasks/bulk?ids=1,2,3: at most BULK_MAX_IDS ids, repeats dropped. */
export const bulkQuerySchema = z.object({
  ids: z
    .unknown()
    .transform((raw, ctx) => {
      const ids = parseIdList(raw);
      if (!ids || ids.length === 0) {
        ctx.addIssue({ code: 'custom', message: 'ожидается список положительных чисел через запятую' });
        return z.NEVER;
      }
      return ids;
    })
    .refine((ids) => ids.length <= BULK_MAX_IDS, `не больше ${BULK_MAX_IDS} за один запрос`),
});

/** GET /tasks/active/ (staff): the day (today by default) and, for a super-admin, the company. */
export const activeQuerySchema = z.object({
  date: isoDate.optional(),
  company_id: wireId('ожидается номер компании').optional(),
});

/** GET /tasks/drivers/{id}/tasks (staff): the day, else every day. */
export const driverTasksQuerySchema = z.object({ date: isoDate.optional() });

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

/**
 * POST /tasks/ (staff). A place is its text or its register id (then the text is the place's name); one of the two
 * is needed (the server says which is missing). The register links: docs/registers.md.
 */
export const taskCreateSchema = z.object({
  company_id: z.number().int().positive().optional(),
  date: isoDate,
  cargo: text().min(1, 'укажите груз').max(300),
  loading_place: text().min(1, 'укажите место погрузки').max(300).optional(),
  unloading_place: text().min(1, 'укажите место выгрузки').max(300).optional(),
  planned_quantity: quantity,
  unit: text().min(1).max(20).default('т'),
  rate: quantity.nullable().optional(),
  comment: text().max(2000).nullable().optional(),
  max_drivers: z.number().int().min(1).max(1000).nullable().optional(),
  driver_ids: z.array(z.number().int().positive()).max(200).optional(),
  /** Each assigned driver's own fields (docs/product.md §3: id, quantity, status, loading_quantity, transport_rate, unloading_quantity). */
  drivers: z.array(quantityUpdateSchema.extend({ id: z.number().int().positive() })).max(200).optional(),
  ...taskLinkFields,
  ...taskCargoFields,
});
export type TaskCreate = z.infer<typeof taskCreateSchema>;

/** A query-string number: a strict decimal as in a form (contract/fields.ts); '' or 'null' clears the field. */
const queryNumber = z.preprocess((v) => (v === 'null' ? '' : v), formQuantity());

/** PUT /tasks/{id}/drivers/{driverId}/ (staff): assigns the driver; the query sets their fields. */
export const assignQuerySchema = z.object({
  quantity: queryNumber.optional(),
  status_param: z.enum(DRIVER_STATUSES, { message: 'неизвестный статус' }).optional(),
  loading_quantity: queryNumber.optional(),
  transport_rate: queryNumber.optional(),
  unloading_quantity: queryNumber.optional(),
  planned_quantity: queryNumber.optional(),
});

/** PUT /tasks/{id}/drivers/{driverId}/move/ (staff): the driver's part goes to another driver. */
export const moveDriverSchema = z.object({ to_driver_id: z.number({ message: 'ожидается номер водителя' }).int().positive() });

/** PUT /tasks/{id}/ by a driver: their own association's status. */
export const driverStatusSchema = z.object({
  status: z.enum(DRIVER_STATUSES, { message: 'неизвестный статус' }),
});

/** The task's own fields a staff PUT /tasks/{id}/ may change: only those sent (a stale tab never overwrites the rest). */
export const taskFieldsSchema = taskCreateSchema
  .pick({
    date: true,
    cargo: true,
    loading_place: true,
    unloading_place: true,
    planned_quantity: true,
    unit: true,
    rate: true,
    comment: true,
    max_drivers: true,
    customer_id: true,
    shipper_id: true,
    consignee_id: true,
    loading_place_id: true,
    unloading_place_id: true,
    cargo_state: true,
    cargo_packaging: true,
    cargo_package_code: true,
  })
  .partial()
  // The create schema defaults the unit to 'т'; an edit that does not send it must leave it alone.
  .extend({ unit: text().min(1, 'укажите единицу').max(20).optional() });

/**
 * The staff's PUT /tasks/{id}/ (docs/product.md §4): a status, and/or driver_ids with a drivers list of their fields, and/or
 * the task's own fields. With `updated_at` (what the editor loaded) a task changed meanwhile answers 409.
 */
export const staffTaskUpdateSchema = taskFieldsSchema.extend({
  updated_at: z.string().max(40).optional(),
  status: z.enum(TASK_STATUSES, { message: 'неизвестный статус задания' }).optional(),
  driver_ids: z.array(z.number().int().positive()).max(200).optional(),
  drivers: z.array(quantityUpdateSchema.extend({ id: z.number().int().positive() })).max(200).optional(),
});
export type StaffTaskUpdate = z.infer<typeof staffTaskUpdateSchema>;

/**
 * PUT /tasks/{id}/: a driver's status change or staff's change. Which of the two is the caller's role, so the
 * handler validates it (driverStatusSchema or staffTaskUpdateSchema); this only types what a client sends.
 */
export const taskUpdateSchema = z.custom<z.input<typeof driverStatusSchema> | z.input<typeof staffTaskUpdateSchema>>();

/** PUT /tasks/drivers/{id}/tasks/order: the driver's task ids in the wanted order. */
export const taskOrderSchema = z.object({
  task_ids: z.array(z.number().int().positive()).min(1).max(500),
});

/** A positive whole number from a form: digits only (no sign, exponent, hex or spaces); empty text is absent. */
const formCount = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^[1-9][0-9]{0,8}$/.test(v) ? Number(v) : v === undefined || v === '' ? undefined : NaN),
    z.number({ message }).int(message).min(1, message).max(max, `не больше ${max}`),
  );
const TRIPS_MESSAGE = 'ожидается число рейсов от 1';
/** A weighbridge ticket's number as printed: letters, digits and separators; empty means none. */
const ticketNumber = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
  z
    .string({ message: 'ожидается текст' })
    .max(40, 'не длиннее 40 символов')
    .regex(/^[\p{L}\p{N}№][\p{L}\p{N} ./№#-]*$/u, 'буквы, цифры, пробел, точка, дефис, «/» и «№»')
    .nullable(),
);

const dateTime = z.iso.datetime({ offset: true, message: 'ожидается время ISO 8601' });
const formDateTime = z.preprocess((v) => (v === '' ? undefined : v), dateTime.optional());

/**
 * POST /reports/ — a multipart form, so every field is text (contract/fields.ts): quantities strict decimals,
 * empty text null; flags '0' or '1', absent 0.
 */
export const reportCreateSchema = z.object({
  association_id: formCount(Number.MAX_SAFE_INTEGER, 'ожидается номер задания водителя'),
  trips: formCount(REPORT_MAX_TRIPS, TRIPS_MESSAGE).optional().default(1),
  ticket_number: ticketNumber.optional().default(null),
  /** 1: the driver's last trip — the report finishes their part of the task. */
  final: formFlag().optional().default(0),
  quantity: formQuantity().optional().default(null),
  total_loading_quantity: formQuantity().optional().default(null),
  total_unloading_quantity: formQuantity().optional().default(null),
  loading_is_buyer: formFlag().optional().default(0),
  unloading_is_buyer: formFlag().optional().default(0),
  completed_at: formDateTime,
  /**
   * A trip entered after the fact with its times typed (docs/trips.md): arrival and departure at loading and
   * unloading, each optional, in that order, none in the future; stored as the trip's stamps (`source: 'form'`).
   */
  loading_arrived_at: formDateTime,
  loading_departed_at: formDateTime,
  unloading_arrived_at: formDateTime,
  unloading_departed_at: formDateTime,
}).superRefine((report, ctx) => typedTimesIssues(report).forEach((issue) => ctx.addIssue({ code: 'custom', ...issue })));
export type ReportCreate = z.infer<typeof reportCreateSchema>;

/** The typed times of a trip entered after the fact, in their order (then its completion, which follows them). */
export const TYPED_TIME_FIELDS = ['loading_arrived_at', 'loading_departed_at', 'unloading_arrived_at', 'unloading_departed_at'] as const;
export type TypedTimeField = (typeof TYPED_TIME_FIELDS)[number];

/** Each typed time in Russian, for the refusals that name it. */
export const TYPED_TIME_LABELS: Record<TypedTimeField | 'completed_at', string> = {
  loading_arrived_at: 'Прибытие на погрузку',
  loading_departed_at: 'Выезд с погрузки',
  unloading_arrived_at: 'Прибытие на выгрузку',
  unloading_departed_at: 'Выезд с выгрузки',
  completed_at: 'Время завершения',
};

/** A typed time may run ahead of the server's clock by this much (a phone's clock drifts): contract/report-checks.ts CLOCK_SKEW_MINUTES. */
const TYPED_SKEW_MS = 5 * 60_000;

/**
 * What is wrong with a form's typed times (none: []): one in the future, or one before an earlier step's (the
 * completion, when given, is last). Each issue names its field (the server's detail «field: …»); `now` is the server's (or the phone's) clock.
 */
export function typedTimesIssues(
  report: Partial<Record<TypedTimeField | 'completed_at', string | undefined>>,
  now = Date.now(),
): { path: [TypedTimeField | 'completed_at']; message: string }[] {
  const issues: { path: [TypedTimeField | 'completed_at']; message: string }[] = [];
  let previous: { field: TypedTimeField | 'completed_at'; at: number } | null = null;
  const fields = [...TYPED_TIME_FIELDS, ...(TYPED_TIME_FIELDS.some((f) => report[f]) ? (['completed_at'] as const) : [])];
  for (const field of fields) {
    const value = report[field];
    if (!value) continue;
    const at = Date.parse(value);
    if (field !== 'completed_at' && at > now + TYPED_SKEW_MS) issues.push({ path: [field], message: 'время ещё не наступило' });
    else if (previous && at < previous.at) {
      issues.push({ path: [field], message: `раньше, чем «${TYPED_TIME_LABELS[previous.field]}»` });
    }
    previous = { field, at };
  }
  return issues;
}

/** PUT /reports/{id} as JSON: every field optional, an absent one stays; numbers are numbers, null clears, flags 0 or 1. */
export const reportUpdateSchema = z.object({
  trips: z.number({ message: TRIPS_MESSAGE }).int(TRIPS_MESSAGE).min(1, TRIPS_MESSAGE).max(REPORT_MAX_TRIPS, `не больше ${REPORT_MAX_TRIPS}`).optional(),
  ticket_number: ticketNumber.optional(),
  quantity: quantity.nullable().optional(),
  total_loading_quantity: quantity.nullable().optional(),
  total_unloading_quantity: quantity.nullable().optional(),
  loading_is_buyer: jsonFlag().optional(),
  unloading_is_buyer: jsonFlag().optional(),
  completed_at: dateTime.optional(),
});
export type ReportUpdate = z.infer<typeof reportUpdateSchema>;

/** PUT /reports/{id} as a multipart form (the app's edit, with photos): the same fields as text; empty text clears. */
export const reportUpdateFormSchema = z.object({
  trips: formCount(REPORT_MAX_TRIPS, TRIPS_MESSAGE).optional(),
  ticket_number: ticketNumber.optional(),
  quantity: formQuantity().optional(),
  total_loading_quantity: formQuantity().optional(),
  total_unloading_quantity: formQuantity().optional(),
  loading_is_buyer: formFlag().optional(),
  unloading_is_buyer: formFlag().optional(),
  completed_at: formDateTime,
}) satisfies z.ZodType<ReportUpdate, unknown>;

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
