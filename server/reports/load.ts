/** Reads reports with their photos, shaped as the contract's Report, and answers who may see them. */
import type { Kysely } from 'kysely';
import type { ReportFlag } from '../../contract/report-checks.ts';
import type { Database, ReportRow } from '../db/schema.ts';
import type { AuthUser } from '../auth/guard.ts';
import { conflict, notFound } from '../errors.ts';
import type { Report, ReportPhoto } from '../../contract/entities.ts';
import type { DisputedReport } from '../../contract/calls/reports.ts';
import { seesAssociation } from '../tasks/scope.ts';
import { closedLoads } from '../payroll/late.ts';

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

/**
 * Reports by a filter, oldest first, each with its photos. `created`: reports stored by this very call, which no
 * closed month's line or late payment can name yet (not looked up).
 */
export async function loadReports(db: Q, filter: { ids?: number[]; associationId?: number }, options: { created?: boolean } = {}): Promise<Report[]> {
  let query = db.selectFrom('reports').selectAll();
  if (filter.ids) query = query.where('id', 'in', filter.ids.length ? filter.ids : [-1]);
  if (filter.associationId !== undefined) query = query.where('association_id', '=', filter.associationId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  const ids = rows.map((r) => r.id);
  const [photos, closed] = await Promise.all([photosOf(db, ids), options.created ? new Set<number>() : closedLoads(db, ids)]);
  return rows.map((r) => ({ ...reportFields(r), closed: closed.has(r.id), idempotency_key: r.idempotency_key, photos: photos.get(r.id) ?? [] }));
}

type ReportRowFields = Omit<ReportRow, 'idempotency_key' | 'reviewed_by' | 'ticket_key' | 'trip_uid' | 'after_the_fact'>;

/** A report row's own fields as the wire carries them (booleans 0/1, flags parsed). */
export function reportFields(r: ReportRowFields): Omit<Report, 'photos' | 'idempotency_key' | 'closed'> {
  return {
    id: r.id,
    association_id: r.association_id,
    driver_id: r.driver_id,
    quantity: r.quantity,
    total_loading_quantity: r.total_loading_quantity,
    total_unloading_quantity: r.total_unloading_quantity,
    loading_is_buyer: r.loading_is_buyer ? 1 : 0,
    unloading_is_buyer: r.unloading_is_buyer ? 1 : 0,
    completed_at: r.completed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
    trips: r.trips,
    ticket_number: r.ticket_number,
    final: r.final ? 1 : 0,
    review_status: r.review_status,
    review_comment: r.review_comment,
    reviewed_at: r.reviewed_at,
    flags: parseFlags(r.flags),
  };
}

/** The stored flags (JSON); a row written before the checks, or damaged, has none. */
export function parseFlags(text: string): ReportFlag[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as ReportFlag[]) : [];
  } catch {
    return [];
  }
}

export async function loadReport(db: Q, id: number, options: { created?: boolean } = {}): Promise<Report> {
  const [report] = await loadReports(db, { ids: [id] }, options);
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
    .select(['r.id', 'r.association_id', 'r.driver_id', 't.company_id', 'r.review_status'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!row) throw notFound('Отчёт не найден');
  assertSeesAssociation(user, row, 'Отчёт не найден');
  return row;
}

/** A driver may not change a report the company approved: staff reopen it first (docs/reports-review.md). */
export function assertDriverMayChange(user: AuthUser, report: { review_status: string }): void {
  if (user.role === 'driver' && report.review_status === 'approved') {
    throw conflict('Отчёт подтверждён диспетчером: изменить его нельзя. Попросите диспетчера вернуть его на проверку');
  }
}

/**
 * A driver's disputed reports, on current and finished tasks alike, the latest dispute first (at most 100: a
 * driver with more has a conversation with his dispatcher to have, not a list to scroll).
 */
export async function disputedReportsOf(db: Q, driverId: number): Promise<DisputedReport[]> {
  const rows = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['r.id', 'td.status', 't.id as task_id', 't.date', 't.cargo', 't.loading_place', 't.unloading_place', 't.unit'])
    .where('r.driver_id', '=', driverId)
    .where('td.driver_id', '=', driverId)
    .where('r.review_status', '=', 'disputed')
    .orderBy('r.reviewed_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(100)
    .execute();
  const reports = new Map((await loadReports(db, { ids: rows.map((row) => row.id) })).map((report) => [report.id, report]));
  return rows.flatMap((row) => {
    const report = reports.get(row.id);
    if (!report) return [];
    const task = { id: row.task_id, date: row.date, cargo: row.cargo, loading_place: row.loading_place, unloading_place: row.unloading_place, unit: row.unit };
    return [{ report, task, association_status: row.status }];
  });
}
