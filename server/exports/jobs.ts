/**
 * Export jobs: created by a request, claimed by exactly one runner, written as a stream, downloadable until
 * they expire. The claim is one UPDATE … WHERE status = 'queued' (on PostgreSQL the candidate is picked
 * with FOR UPDATE SKIP LOCKED), so two runners — or two server instances — never write the same job.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { FileStorage } from '../files/storage.ts';
import type { AuthUser } from '../auth/guard.ts';
import { notFound } from '../errors.ts';
import type { ExportJob, ExportRequest, ExportStatus } from '../../contract/exports.ts';
import { loadTasks } from '../tasks/load.ts';
import { orderingOf, staffTaskQuery } from '../tasks/queries.ts';
import { isSuperAdmin } from '../tasks/scope.ts';
import { createExportWriter, filePeriod, type ReviewSummary } from './workbook.ts';
import { associationMoney } from './money.ts';
import { driverVehicles } from '../registers/driver-vehicles.ts';

export const INTERRUPTED = 'Выгрузка прервана перезапуском сервера, запустите её снова';
const FAILED = 'Не удалось сформировать файл, попробуйте ещё раз';
const CHUNK = 200;

interface StoredParams extends ExportRequest {
  /** Who asked, as the scope the rows are read with. */
  user: AuthUser;
}

type JobRow = {
  id: number;
  status: ExportStatus;
  rows_written: number;
  rows_total: number | null;
  filename: string | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
};

export function toJob(row: JobRow): ExportJob {
  return {
    id: row.id,
    status: row.status,
    rows_written: Number(row.rows_written),
    rows_total: row.rows_total === null ? null : Number(row.rows_total),
    filename: row.filename,
    error: row.error,
    created_at: row.created_at,
    finished_at: row.finished_at,
  };
}

const JOB_COLUMNS = ['id', 'status', 'rows_written', 'rows_total', 'filename', 'error', 'created_at', 'finished_at', 'company_id', 'user_id', 'storage_key'] as const;

export async function createJob(db: Db, user: AuthUser, request: ExportRequest): Promise<ExportJob> {
  const params: StoredParams = { ...request, user };
  const row = await db.kysely
    .insertInto('export_jobs')
    .values({
      user_id: user.id,
      company_id: isSuperAdmin(user) ? (request.company_id ?? null) : user.company_id,
      status: 'queued',
      params: JSON.stringify(params),
      created_at: nowIso(),
    })
    .returning(['id', 'status', 'rows_written', 'rows_total', 'filename', 'error', 'created_at', 'finished_at'])
    .executeTakeFirstOrThrow();
  return toJob(row);
}

/** A job the caller may see: their company's (a super-admin: any); others answer 404. */
export async function jobFor(db: Db, user: AuthUser, id: number) {
  const row = await db.kysely.selectFrom('export_jobs').select(JOB_COLUMNS).where('id', '=', id).executeTakeFirst();
  const visible = row && (isSuperAdmin(user) || (row.company_id !== null && row.company_id === user.company_id) || row.user_id === user.id);
  if (!row || !visible) throw notFound('Выгрузка не найдена');
  return row;
}

/** Marks this job running if it is still queued; false when another runner took it first. */
export async function claim(db: Db, id: number): Promise<boolean> {
  const result = await db.kysely
    .updateTable('export_jobs')
    .set({ status: 'running', heartbeat_at: nowIso() })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The next queued job, claimed; null when there is none. */
export async function claimNext(db: Db): Promise<number | null> {
  for (;;) {
    let candidate: { id: number } | undefined;
    if (db.dialect === 'postgres') {
      candidate = await db.kysely.transaction().execute(async (trx) => {
        const row = await sql<{ id: number }>`select id from export_jobs where status = 'queued' order by id limit 1 for update skip locked`.execute(trx);
        const found = row.rows[0];
        if (found) await trx.updateTable('export_jobs').set({ status: 'running', heartbeat_at: nowIso() }).where('id', '=', found.id).execute();
        return found;
      });
      return candidate ? Number(candidate.id) : null;
    }
    candidate = await db.kysely.selectFrom('export_jobs').select('id').where('status', '=', 'queued').orderBy('id').limit(1).executeTakeFirst();
    if (!candidate) return null;
    if (await claim(db, candidate.id)) return candidate.id;
  }
}

/** How often a running job says it is alive, and how long a silence means its process died. */
export const HEARTBEAT_MS = 10_000;
export const STALE_MS = 60_000;

/**
 * Jobs left 'running' by a process that died cannot finish: they fail with a message that says so. A job whose
 * process still beats (another instance on the same database) is left alone.
 */
export async function failInterrupted(db: Db, now = Date.now()): Promise<number> {
  const before = new Date(now - STALE_MS).toISOString();
  const result = await db.kysely
    .updateTable('export_jobs')
    .set({ status: 'failed', error: INTERRUPTED, finished_at: nowIso() })
    .where('status', '=', 'running')
    .where((eb) => eb.or([eb('heartbeat_at', 'is', null), eb('heartbeat_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** «Задачи, 20.11.2026–24.11.2026.xlsx»: the filter's period, as the wage sheets name theirs (workbook.ts `filePeriod`). */
export function exportFilename(period: { date_from?: string | undefined; date_to?: string | undefined }): string {
  return `Задачи, ${filePeriod(period.date_from, period.date_to)}.xlsx`;
}

/** Writes a claimed job's file; the job ends 'done' or 'failed', never stays 'running' after this returns. */
export async function runJob(db: Db, storage: FileStorage, id: number, signal: AbortSignal): Promise<void> {
  const row = await db.kysely.selectFrom('export_jobs').select(['params']).where('id', '=', id).executeTakeFirstOrThrow();
  const params = JSON.parse(row.params) as StoredParams;
  const filter = { ...params, status: params.status ?? 'completed' };
  const query = staffTaskQuery(db, params.user, filter);
  const { column, direction } = orderingOf(params.ordering ?? '-date');
  // The ids are read once (a few bytes each): the file is a consistent snapshot of the filter.
  const ids = (await query.select('t.id').orderBy(`t.${column}`, direction).orderBy('t.id', direction).execute()).map((r) => r.id);
  const file = await storage.createStream('exports', '.xlsx');
  const beat = setInterval(() => {
    void db.kysely.updateTable('export_jobs').set({ heartbeat_at: nowIso() }).where('id', '=', id).where('status', '=', 'running').execute().catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    const writer = createExportWriter(file.stream, 'Задачи');
    let written = 0;
    if (signal.aborted) throw new Error('stopped');
    // One row per association, one for a task without drivers: exactly what a left join counts.
    const { n } = await staffTaskQuery(db, params.user, filter)
      .leftJoin('task_drivers as td', 'td.task_id', 't.id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await db.kysely.updateTable('export_jobs').set({ rows_total: Number(n) }).where('id', '=', id).execute();
    for (let i = 0; i < ids.length; i += CHUNK) {
      if (signal.aborted) throw new Error('stopped');
      const tasks = await loadTasks(db.kysely, ids.slice(i, i + CHUNK));
      const associationIds = tasks.flatMap((t) => t.driver_associations.map((a) => a.id));
      const extras = {
        reviews: await reviewSummaries(db, associationIds),
        money: await associationMoney(db, associationIds),
        vehicles: await currentVehicles(db, tasks.flatMap((t) => t.driver_associations.map((a) => a.driver_id))),
      };
      for (const task of tasks) written += await writer.add(task, extras);
      await db.kysely.updateTable('export_jobs').set({ rows_written: written }).where('id', '=', id).execute();
      // Let requests in between chunks: an export never starves the API.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.finish();
    await file.commit();
    await db.kysely
      .updateTable('export_jobs')
      .set({ status: 'done', storage_key: file.key, filename: exportFilename(params), rows_written: written, rows_total: written, finished_at: nowIso() })
      .where('id', '=', id)
      .execute();
  } catch (error) {
    await file.abort();
    const message = signal.aborted ? INTERRUPTED : FAILED;
    if (!signal.aborted) console.error(`export ${id} failed`, error);
    await db.kysely.updateTable('export_jobs').set({ status: 'failed', error: message, finished_at: nowIso() }).where('id', '=', id).execute();
  } finally {
    clearInterval(beat);
  }
}

/** Deletes the files and rows of jobs that finished more than `days` ago. */
export async function sweepExpired(db: Db, storage: FileStorage, days: number, now = Date.now()): Promise<number> {
  const before = new Date(now - days * 24 * 3600 * 1000).toISOString();
  const old = await db.kysely.selectFrom('export_jobs').select(['id', 'storage_key']).where('finished_at', '<', before).execute();
  for (const job of old) {
    if (job.storage_key) await storage.remove(job.storage_key);
    await db.kysely.deleteFrom('export_jobs').where('id', '=', job.id).execute();
  }
  return old.length;
}

/** Per association: its reports' ticket numbers and review states, for the export's «Номер талона» and «Проверка». */
async function reviewSummaries(db: Db, associationIds: readonly number[]): Promise<Map<number, ReviewSummary>> {
  const result = new Map<number, ReviewSummary>();
  if (associationIds.length === 0) return result;
  const rows = await db.kysely
    .selectFrom('reports')
    .select(['association_id', 'ticket_number', 'review_status'])
    .where('association_id', 'in', [...associationIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const summary = result.get(row.association_id) ?? { tickets: [], approved: 0, pending: 0, disputed: 0 };
    if (row.ticket_number) summary.tickets.push(row.ticket_number);
    summary[row.review_status] += 1;
    result.set(row.association_id, summary);
  }
  return result;
}

/** The drivers' vehicle plates: the fleet vehicle on the card, else the current one of their own list. */
async function currentVehicles(db: Db, driverIds: readonly number[]): Promise<Map<number, string>> {
  const vehicles = await driverVehicles(db.kysely, driverIds);
  return new Map([...vehicles].map(([id, v]) => [id, v.plate]));
}
