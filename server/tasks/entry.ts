/**
 * Faster task entry (docs/task-entry.md): templates, «Повторять» (one task per date), and the Excel import —
 * previewed row by row, then the valid rows created in one transaction, the file remembered by its SHA-256 so the
 * same file is not imported twice. Every task is created through `insertTask`, as the form's.
 */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { TaskCreate } from '../../contract/driver.ts';
import type { CreatedTasks, ImportPreview, ImportResult, TaskTemplate, TemplateFields } from '../../contract/calls/tasks.ts';
import { templateFieldsSchema } from '../../contract/calls/tasks.ts';
import { insertTask } from './assignments.ts';
import { companyDriverIds } from './associations.ts';
import { assertStaffSeesCompany, staffCompany } from './scope.ts';
import { ImportFileError, summarizeImport, type ImportDriver } from './import-xlsx.ts';
import type { ImportSlot, ImportSlots, ImportThreads } from './import-runner.ts';
import type { OpenedBody } from './import-thread.ts';
import { cardsToCreate, createMissingCards, linkImportRows, type LinkedRow } from './import-registers.ts';

/** Where import files are read: the slots that bound them, the threads that read them (import-runner.ts). */
export interface ImportReader {
  slots: ImportSlots;
  threads: ImportThreads;
}

// ── Templates ──

function toTemplate(row: { id: number; company_id: number; name: string; fields: string; created_at: string; updated_at: string }): TaskTemplate {
  const parsed = templateFieldsSchema.safeParse(JSON.parse(row.fields));
  return { id: row.id, company_id: row.company_id, name: row.name, fields: parsed.success ? parsed.data : ({} as TemplateFields), created_at: row.created_at, updated_at: row.updated_at };
}

export async function listTemplates(db: Db, companyId: number): Promise<TaskTemplate[]> {
  const rows = await db.kysely.selectFrom('task_templates').selectAll().where('company_id', '=', companyId).orderBy('name').execute();
  return rows.map(toTemplate);
}

/** Saves a template; one of the same name in the company is replaced (the form says so before). */
export async function saveTemplate(db: Db, user: AuthUser, companyId: number, name: string, fields: TemplateFields): Promise<TaskTemplate> {
  const now = nowIso();
  const json = JSON.stringify(fields);
  await db.kysely
    .insertInto('task_templates')
    .values({ company_id: companyId, name, fields: json, created_by: user.id, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['company_id', 'name']).doUpdateSet({ fields: json, updated_at: now }))
    .execute();
  const row = await db.kysely.selectFrom('task_templates').selectAll().where('company_id', '=', companyId).where('name', '=', name).executeTakeFirstOrThrow();
  return toTemplate(row);
}

export async function deleteTemplate(db: Db, user: AuthUser, id: number): Promise<void> {
  const row = await db.kysely.selectFrom('task_templates').select('company_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Шаблон не найден');
  assertStaffSeesCompany(user, row.company_id, 'Шаблон не найден');
  await db.kysely.deleteFrom('task_templates').where('id', '=', id).execute();
}

// ── Many tasks at once ──

/**
 * Creates the tasks in one transaction: all of them, or none (a refused one names its place in the list). `before`
 * may change them inside the transaction (the import's new register cards linked).
 */
async function insertAll(
  db: Db,
  user: AuthUser,
  companyId: number,
  given: readonly TaskCreate[],
  hooks: { before?: (trx: Db['kysely']) => Promise<readonly TaskCreate[]>; after?: (trx: Db['kysely'], ids: number[]) => Promise<void> } = {},
): Promise<number[]> {
  const wanted = [...new Set(given.flatMap((t) => t.driver_ids ?? []))];
  const known = new Set(await companyDriverIds(db.kysely, companyId, wanted));
  return db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    const ids: number[] = [];
    const tasks = hooks.before ? await hooks.before(trx) : given;
    for (const task of tasks) ids.push(await insertTask(trx, companyId, user.id, task, (task.driver_ids ?? []).filter((id) => known.has(id)), now));
    await hooks.after?.(trx, ids);
    return ids;
  });
}

/** «Повторять»: the task on each date, each a task of its own. */
export async function repeatTask(db: Db, user: AuthUser, companyId: number, task: TaskCreate, dates: readonly string[]): Promise<CreatedTasks> {
  const sorted = [...dates].sort();
  const ids = await insertAll(db, user, companyId, sorted.map((date) => ({ ...task, date, company_id: undefined })));
  return { company_id: companyId, task_ids: ids };
}

// ── Excel import ──

async function companyDrivers(db: Db, companyId: number): Promise<ImportDriver[]> {
  return db.kysely.selectFrom('users').select(['id', 'name', 'phone']).where('company_id', '=', companyId).where('role', '=', 'driver').where('is_active', '=', 1).execute();
}

/**
 * The call's raw JSON body read in a worker thread (parsed, checked, decoded and hashed there: import-runner.ts),
 * within the slot the request took before its body was read; `prepare` checks the company (and anything else the
 * call needs of the file's name and hash) before the file is read.
 */
async function parse(db: Db, reader: ImportReader, slot: ImportSlot, user: AuthUser, body: Buffer, prepare?: (companyId: number, opened: OpenedBody) => Promise<void>) {
  let drivers: ImportDriver[] = [];
  let companyId = 0;
  try {
    const run = await reader.threads.readBody(body, async (opened) => {
      companyId = (await staffCompany(db, user, opened.companyId)).id;
      slot.company(companyId);
      await prepare?.(companyId, opened);
      drivers = await companyDrivers(db, companyId);
      return drivers;
    });
    // The places and the customer matched to the registers (a missing one: the row's error, or a card to create).
    const rows = await linkImportRows(db.kysely, companyId, run.rows, run.opened.createMissing);
    return { rows, opened: run.opened, drivers, companyId };
  } catch (error) {
    if (error instanceof ImportFileError) {
      if (error.cause) console.warn('task import: file refused', error.cause);
      throw badRequest(error.message);
    }
    throw error;
  } finally {
    slot.release();
  }
}

async function importedBefore(db: Db, companyId: number, hash: string): Promise<ImportPreview['imported_before']> {
  const row = await db.kysely
    .selectFrom('task_imports as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select(['i.created_at', 'i.tasks', 'u.name'])
    .where('i.company_id', '=', companyId)
    .where('i.file_hash', '=', hash)
    .executeTakeFirst();
  return row ? { at: row.created_at, by: row.name ?? null, tasks: row.tasks } : null;
}

export async function previewImport(db: Db, reader: ImportReader, slot: ImportSlot, user: AuthUser, body: Buffer): Promise<ImportPreview> {
  const { rows, drivers, opened, companyId } = await parse(db, reader, slot, user, body);
  const names = new Map(drivers.map((d) => [d.id, d.name]));
  return {
    file_name: opened.fileName,
    rows: rows.map((r) => ({
      row: r.row,
      errors: r.errors,
      task: r.task ? { ...r.task, driver_names: (r.task.driver_ids ?? []).map((id) => names.get(id) ?? `№${id}`), customer_name: r.customerName } : null,
      creates: r.creates,
      ...(r.example ? { example: true as const } : {}),
    })),
    ...summarizeImport(rows),
    imported_before: await importedBefore(db, companyId, opened.hash),
    creates: cardsToCreate(rows),
  };
}

function importedText(before: NonNullable<ImportPreview['imported_before']>): string {
  const at = new Date(before.at).toLocaleString('ru-RU', { timeZone: 'Europe/Moscow', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  return `Этот файл уже загружен ${at}${before.by ? ` (${before.by})` : ''}: задач — ${before.tasks}. Чтобы загрузить его ещё раз, измените файл.`;
}

export async function commitImport(db: Db, reader: ImportReader, slot: ImportSlot, user: AuthUser, body: Buffer): Promise<ImportResult> {
  const { rows, opened, companyId } = await parse(db, reader, slot, user, body, async (company, { hash }) => {
    const before = await importedBefore(db, company, hash);
    if (before) throw conflict(importedText(before));
  });
  const { fileName, hash } = opened;
  const tasks = rows.flatMap((r) => (r.task ? [r.task] : []));
  if (tasks.length === 0 && rows.every((r) => r.example)) throw badRequest('В файле только строка-пример из шаблона: впишите задачи ниже неё и загрузите файл снова.');
  if (tasks.length === 0) throw badRequest('В файле нет строк без ошибок: исправьте строки и загрузите файл снова.');
  let cards: LinkedRow['creates'] = [];
  try {
    const ids = await insertAll(db, user, companyId, tasks, {
      before: async (trx) => {
        const linked = await createMissingCards(trx, companyId, rows);
        cards = linked.created;
        return linked.tasks;
      },
      after: async (trx, created) => {
        await trx
          .insertInto('task_imports')
          .values({ company_id: companyId, file_hash: hash, file_name: fileName, tasks: created.length, created_by: user.id, created_at: nowIso() })
          .execute();
      },
    });
    return { company_id: companyId, task_ids: ids, created: ids.length, skipped: summarizeImport(rows).bad, created_cards: cards };
  } catch (error) {
    // The same file confirmed twice at once (two tabs): one transaction wins, the other creates nothing.
    if (isUniqueViolation(error)) throw conflict(importedText((await importedBefore(db, companyId, hash))!));
    throw error;
  }
}
