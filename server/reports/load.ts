/** Reads reports with their photos, shaped as the contract's Report, and answers who may see them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AuthUser } from '../auth/guard.ts';
import { notFound } from '../errors.ts';
import type { Report, ReportPhoto } from '../../contract/entities.ts';
import { seesAssociation } from '../tasks/scope.ts';

type Q = Kysely<Database>;

export const photoUrl = (photoId: number): string => `/api/reports/photos/${photoId}`;

interface PhotoRow {
  id: number;
  report_id: number;
  mime: string;
  size: number;
  width: number | null;
  height: number | null;
}

const toPhoto = (row: PhotoRow): ReportPhoto => ({
  id: row.id,
  url: photoUrl(row.id),
  mime: row.mime,
  size: row.size,
  width: row.width,
  height: row.height,
});

export async function photosOf(db: Q, reportIds: readonly number[]): Promise<Map<number, ReportPhoto[]>> {
  const byReport = new Map<number, ReportPhoto[]>();
  if (reportIds.length === 0) return byReport;
  const rows = await db
    .selectFrom('report_photos')
    .select(['id', 'report_id', 'mime', 'size', 'width', 'height'])
    .where('report_id', 'in', [...reportIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byReport.get(row.report_id) ?? [];
    list.push(toPhoto(row));
    byReport.set(row.report_id, list);
  }
  return byReport;
}

/** Reports by a filter, oldest first, each with its photos. */
export async function loadReports(db: Q, filter: { ids?: number[]; associationId?: number }): Promise<Report[]> {
  let query = db.selectFrom('reports').selectAll();
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [-1]);
  if (filter.associationId !== undefined) query = query.where('association_id', '=', filter.associationId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  const photos = await photosOf(db, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    association_id: r.association_id,
    driver_id: r.driver_id,
    quantity: r.quantity,
    total_loading_quantity: r.total_loading_quantity,
    total_unloading_quantity: r.total_unloading_quantity,
    loading_is_buyer: r.loading_is_buyer ? 1 : 0,
    unloading_is_buyer: r.unloading_is_buyer ? 1 : 0,
    idempotency_key: r.idempotency_key,
    completed_at: r.completed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    photos: photos.get(r.id) ?? [],
  }));
}

export async function loadReport(db: Q, id: number): Promise<Report> {
  const [report] = await loadReports(db, { ids: [id] });
  if (!report) throw notFound('Отчёт не найден');
  return report;
}

/** The association with its task's company: what every access decision about a report needs. */
export async function associationScope(db: Q, associationId: number) {
  const row = await db
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id', 'td.driver_id', 'td.status', 't.company_id', 't.status as task_status'])
    .where('td.id', '=', associationId)
    .executeTakeFirst();
  if (!row) throw notFound('Задание водителя не найдено');
  return row;
}

/** The owner driver or the company's staff; anyone else is told it does not exist (404, as for any other company's object). */
export function assertSeesAssociation(user: AuthUser, scope: { driver_id: number; company_id: number }, what = 'Задание водителя не найдено'): void {
  if (!seesAssociation(user, scope)) throw notFound(what);
}

/** The report's row and scope, after checking that the user may see it (owner driver or company staff). */
export async function reportFor(db: Q, user: AuthUser, reportId: number) {
  const row = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['r.id', 'r.association_id', 'r.driver_id', 't.company_id'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!row) throw notFound('Отчёт не найден');
  assertSeesAssociation(user, row, 'Отчёт не найден');
  return row;
}
