/**
 * Task calls on the route table (the others are still hand-registered in server/routes/tasks*.ts; docs/route-table.md).
 * - Suggestions: what the company typed before in a task's text fields, most used first, for the task form.
 * - Faster entry (docs/task-entry.md): templates of a task's fields; «Повторять» — one task per chosen date; an Excel
 *   import previewed row by row, then created in one transaction.
 */
import { z } from 'zod';
import { text } from '../fields.ts';
import { answer, area, DELETE, GET, POST } from '../call.ts';
import { STAFF } from '../roles.ts';
import { isoDate, taskCreateSchema, type TaskCreate } from '../driver.ts';

export const SUGGESTION_FIELDS = ['cargo', 'loading_place', 'unloading_place'] as const;
export const suggestionsQuerySchema = z.object({
  field: z.enum(SUGGESTION_FIELDS, { message: 'ожидается cargo, loading_place или unloading_place' }),
  q: z.string().max(100, 'не больше 100 символов').default(''),
  company_id: z.coerce.number().int().positive().optional(),
});

const companyId = z.number({ message: 'ожидается номер компании' }).int().positive().optional();
const companyQuery = z.object({ company_id: z.coerce.number({ message: 'ожидается номер компании' }).int().positive().optional() });

/** A template: a task's fields without its date and company. */
export const templateFieldsSchema = taskCreateSchema.omit({ date: true, company_id: true, drivers: true });
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
export const REPEAT_MAX_DATES = 62;
export const repeatSchema = z
  .object({
    task: taskCreateSchema,
    dates: z
      .array(isoDate)
      .min(1, 'выберите хотя бы один день')
      .max(REPEAT_MAX_DATES, `не больше ${REPEAT_MAX_DATES} дней за раз`)
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
  })
  .strict();

export interface ImportPreviewRow {
  /** The row's number in Excel. */
  row: number;
  /** What will be created, with the drivers by name; null for a row with errors. */
  task: (TaskCreate & { driver_names: string[] }) | null;
  errors: { field: string; detail: string }[];
}
export interface ImportPreview {
  file_name: string;
  rows: ImportPreviewRow[];
  ok: number;
  bad: number;
  /** The same file was imported into this company before: when, by whom, how many tasks. */
  imported_before: { at: string; by: string | null; tasks: number } | null;
}
export interface ImportResult extends CreatedTasks {
  created: number;
  /** Rows with errors, left out. */
  skipped: number;
}

export const taskCalls = area(
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
