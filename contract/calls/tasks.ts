/**
 * The task calls (docs/product.md §7; docs/route-table.md).
 * - A driver's: open tasks to take, accept, their assigned and completed lists, their quantities and status.
 * - Staff's: the task list, the day's active tasks, create, change, delete, a task's drivers, a driver's task order.
 *   Every list answers Page<Task>.
 * - Suggestions: what the company typed before in a task's text fields, most used first, for the task form.
 * - Faster entry (docs/task-entry.md): templates of a task's fields; «Повторять» — one task per chosen date; an Excel
 *   import previewed row by row, then created in one transaction.
 */
import { z } from 'zod';
import { text, wireId } from '../fields.ts';
import { answer, area, DELETE, GET, POST, PUT, PAY } from '../call.ts';
import { ALL_ROLES, DRIVER_ONLY, STAFF } from '../roles.ts';
import { REPEAT_MAX_DATES } from '../task-limits.ts';
import { DAYS, plural } from '../words.ts';
import type { DriverAssociation, Page, Task } from '../entities.ts';
import {
  activeQuerySchema,
  assignQuerySchema,
  availableQuerySchema,
  bulkQuerySchema,
  completedQuerySchema,
  driverCompletedQuerySchema,
  driverTasksQuerySchema,
  isoDate,
  moveDriverSchema,
  quantityUpdateSchema,
  taskCreateSchema,
  taskOrderSchema,
  taskUpdateSchema,
  type TaskCreate,
} from '../driver.ts';

export const SUGGESTION_FIELDS = ['cargo', 'loading_place', 'unloading_place'] as const;
export const suggestionsQuerySchema = z.object({
  field: z.enum(SUGGESTION_FIELDS, { message: 'ожидается cargo, loading_place или unloading_place' }),
  q: z.string().max(100, 'не больше 100 символов').default(''),
  company_id: wireId('ожидается номер компании').optional(),
});

const companyId = z.number({ message: 'ожидается номер компании' }).int().positive().optional();
const companyQuery = z.object({ company_id: wireId('ожидается номер компании').optional() });

/**
 * A template: a task's fields without its date and company, with its drivers and each one's share and own rate
 * (what repeats from day to day; the day's quantities and statuses do not).
 */
export const templateFieldsSchema = taskCreateSchema.omit({ date: true, company_id: true, drivers: true }).extend({
  drivers: z.array(quantityUpdateSchema.pick({ planned_quantity: true, transport_rate: true }).extend({ id: z.number().int().positive() }).strict()).max(200).optional(),
});
export type TemplateFields = z.infer<typeof templateFieldsSchema>;
export const templateCreateSchema = z
  .object({
    name: text('укажите название').min(1, 'укажите название шаблона').max(100, 'не длиннее 100 символов'),
    fields: templateFieldsSchema,
    company_id: companyId,
  })
  .strict();
export interface TaskTemplate {
  id: number;
  company_id: number;
  name: string;
  fields: TemplateFields;
  created_at: string;
  updated_at: string;
}

/** Most tasks one «Повторять» creates: two months of every day. */
export { REPEAT_MAX_DATES };
export const repeatSchema = z
  .object({
    task: taskCreateSchema,
    dates: z
      .array(isoDate)
      .min(1, 'выберите хотя бы один день')
      .max(REPEAT_MAX_DATES, `не больше ${plural(REPEAT_MAX_DATES, DAYS)} за раз`)
      .refine((dates) => new Set(dates).size === dates.length, 'дни повторяются'),
  })
  .strict();
export interface CreatedTasks {
  company_id: number;
  task_ids: number[];
}

/** An .xlsx as base64 (JSON carries it; the file is at most 5 MB, so its text at most ~6.7 MB). */
export const IMPORT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const importFileSchema = z
  .object({
    file_name: text('укажите имя файла').min(1, 'укажите имя файла').max(200, 'имя файла не длиннее 200 символов'),
    file: z
      .string({ message: 'ожидается файл' })
      .min(1, 'файл пуст')
      .max(Math.ceil((IMPORT_MAX_FILE_BYTES * 4) / 3) + 4, 'файл больше 5 МБ — разделите его')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'файл передан повреждённым (ожидается base64)'),
    company_id: companyId,
    /** «Создать недостающие»: a place or a customer the registers do not have is created by the import. */
    create_missing: z.boolean({ message: 'create_missing: ожидается true или false' }).optional(),
  })
  .strict();

/** A register card the import creates (with `create_missing`) for a row that names one the company has not. */
export interface ImportNewCard {
  kind: 'place' | 'counterparty';
  name: string;
  /** A counterparty's ИНН (10 digits: a ЮЛ, 12: an ИП). */
  inn: string | null;
}

export interface ImportPreviewRow {
  /** The row's number in Excel. */
  row: number;
  /** What will be created, with the drivers and the customer by name; null for a row with errors. */
  task: (TaskCreate & { driver_names: string[]; customer_name: string | null }) | null;
  errors: { field: string; detail: string }[];
  /** The cards this row needs that the registers have not: created with the task (`create_missing`). */
  creates: ImportNewCard[];
  /** The template's own example row: shown, never created, not an error. */
  example?: true;
}
export interface ImportPreview {
  file_name: string;
  rows: ImportPreviewRow[];
  ok: number;
  /** Rows with errors (the template's example row is not one). */
  bad: number;
  /** The same file was imported into this company before: when, by whom, how many tasks. */
  imported_before: { at: string; by: string | null; tasks: number } | null;
  /** Every card the valid rows need that the registers have not, each once: created only with `create_missing`. */
  creates: ImportNewCard[];
}
export interface ImportResult extends CreatedTasks {
  created: number;
  /** Rows with errors, left out. */
  skipped: number;
  /** The register cards the import created (`create_missing`). */
  created_cards: ImportNewCard[];
}

/** A task's change shows on its reports, the drivers' wages and the dispatch board. */
const shows = ['reports', ...PAY, 'dispatch'] as const;

/** A driver's calls, and the two a driver and staff share (server/routes/tasks.ts). */
export const driverTaskCalls = area(
  /** The driver's company's open tasks they may take (not full, not past), by day and text. */
  GET('/tasks/available/', { roles: DRIVER_ONLY, query: availableQuerySchema, answer: answer<Page<Task>>() }),
  /** The driver takes an open task (409 when full, gone or taken already). */
  PUT('/tasks/:id/accept/', { roles: DRIVER_ONLY, answer: answer<Task>(), invalidates: shows, audience: ['task:param.id', 'caller'] }),
  /** The driver's current tasks, in their order; the engine reads it too (the outbox resolves sent reports by it). */
  GET('/tasks/assigned/', { roles: DRIVER_ONLY, answer: answer<Page<Task>>() }),
  GET('/tasks/driver/completed', { roles: DRIVER_ONLY, query: driverCompletedQuerySchema, answer: answer<Page<Task>>() }),
  /** Tasks by id, as the caller may see them (`ids=1,2,3`); all in one page. */
  GET('/tasks/bulk', { roles: ALL_ROLES, query: bulkQuerySchema, answer: answer<Page<Task>>() }),
  /** A driver's own quantities and status on a task, or staff's for any driver of theirs. */
  PUT('/tasks/:id/drivers/:driverId/quantity/', {
    roles: ALL_ROLES,
    body: quantityUpdateSchema,
    answer: answer<DriverAssociation>(),
    invalidates: shows,
    audience: ['task:param.id'],
  }),
  /** A driver moves their own part's status; staff change the task (taskUpdateSchema: validated by role). */
  PUT('/tasks/:id/', { roles: ALL_ROLES, body: taskUpdateSchema, answer: answer<Task>(), invalidates: shows, audience: ['task:param.id'] }),
);

/** Staff's calls on tasks and their drivers (server/routes/tasks-staff.ts). */
export const staffTaskCalls = area(
  /** Staff's task list: filters, sort and paging (status 'completed' by default). */
  GET('/tasks/completed/', { roles: STAFF, query: completedQuerySchema, answer: answer<Page<Task>>() }),
  /** The day's tasks (today by default) and those still running from earlier days, at most 500. */
  GET('/tasks/active/', { roles: STAFF, query: activeQuerySchema, answer: answer<Page<Task>>() }),
  POST('/tasks/', { roles: STAFF, body: taskCreateSchema, status: 201, answer: answer<Task>(), invalidates: shows, audience: ['task:answer.id'] }),
  DELETE('/tasks/:id/', { roles: STAFF, status: 204, answer: answer<null>(), invalidates: shows, audience: ['task:param.id'] }),
  /** Assigns a driver; the query sets their fields. The task's drivers before and after hear of it. */
  PUT('/tasks/:id/drivers/:driverId/', { roles: STAFF, query: assignQuerySchema, answer: answer<DriverAssociation>(), invalidates: shows, audience: ['task:param.id'] }),
  PUT('/tasks/:id/drivers/:driverId/move/', { roles: STAFF, body: moveDriverSchema, answer: answer<DriverAssociation>(), invalidates: shows, audience: ['task:param.id'] }),
  DELETE('/tasks/:id/drivers/:driverId/', { roles: STAFF, status: 204, answer: answer<null>(), invalidates: shows, audience: ['task:param.id'] }),
  /** A driver's tasks (`:id` is the driver's), of one day or all, in their order. */
  GET('/tasks/drivers/:id/tasks', { roles: STAFF, query: driverTasksQuerySchema, answer: answer<Page<Task>>() }),
  /** Answers the driver's tasks in the new order. */
  PUT('/tasks/drivers/:id/tasks/order', { roles: STAFF, body: taskOrderSchema, answer: answer<Page<Task>>(), invalidates: shows, audience: ['user:param.id'] }),
);

/** Faster entry: suggestions, templates, «Повторять», Excel import (server/routes/task-entry.ts). */
export const taskEntryCalls = area(
  GET('/tasks/suggestions', { roles: STAFF, query: suggestionsQuerySchema, answer: answer<string[]>() }),
  GET('/tasks/templates', { roles: STAFF, query: companyQuery, answer: answer<TaskTemplate[]>() }),
  POST('/tasks/templates', { roles: STAFF, body: templateCreateSchema, status: 201, answer: answer<TaskTemplate>(), audience: ['company-staff:answer.company_id'] }),
  DELETE('/tasks/templates/:id', { roles: STAFF, status: 204, answer: answer<null>(), audience: ['caller'] }),
  POST('/tasks/repeat', { roles: STAFF, body: repeatSchema, status: 201, answer: answer<CreatedTasks>(), invalidates: ['dispatch'], audience: ['company:answer.company_id'] }),
  /** The .xlsx template with Russian headers and an example row (a file, not JSON). */
  GET('/tasks/import/template', { roles: STAFF, answer: answer<Blob>() }),
  POST('/tasks/import/preview', { roles: STAFF, body: importFileSchema, bodyLimit: 8 * 1024 * 1024, answer: answer<ImportPreview>() }),
  POST('/tasks/import', {
    roles: STAFF,
    body: importFileSchema,
    bodyLimit: 8 * 1024 * 1024,
    status: 201,
    answer: answer<ImportResult>(),
    invalidates: ['dispatch'],
    audience: ['company:answer.company_id'],
  }),
);

export const taskCalls = { ...driverTaskCalls, ...staffTaskCalls, ...taskEntryCalls };
