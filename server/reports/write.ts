/**
 * Creating, editing and deleting reports. A report is one trip's load ticket (or several trips'); the driver's
 * last one (`final`) finishes their part of the task, so the association leaves /tasks/assigned/ — which is how
 * the client's outbox learns its reports arrived. Deleting the last trip's report reopens the part. See
 * server/routes/REPORTS.md and docs/loads.md.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppContext } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { conflict, HttpError, notFound } from '../errors.ts';
import type { Report } from '../../contract/entities.ts';
import type { TripStep } from '../../contract/trips.ts';
import { TYPED_TIME_FIELDS, type ReportCreate, type ReportUpdate } from '../../contract/driver.ts';
import { assertSeesAssociation, loadReport } from './load.ts';
import { settleTask } from '../tasks/progress.ts';
import { scoreReport } from './score.ts';
import { rescoreCycleNeighbours } from '../trips/cycle.ts';
import { ticketKey } from './ticket.ts';
import { removeFiles, storePhotos, type Photo, type StoredPhoto } from './photos.ts';
import { assertLoadChangeable, dropLatePayment, settleLateLoad } from '../payroll/late.ts';

type Q = Kysely<Database>;

/** A report on a part the driver (or staff) already finished. */
export const FINISHED = 'Задача уже завершена';

/**
 * The association mirrors its reports: quantities are the sums of its reports' (a field no report filled keeps
 * what the driver typed); `finish` completes the driver's part. Then the task is settled (progress.ts).
 */
export async function syncAssociation(trx: Q, associationId: number, finish: 'finish' | 'reopen' | null = null): Promise<void> {
  // The part's task and its reports' sums in one read (no row: no such part).
  const agg = await trx
    .selectFrom('task_drivers as td')
    .leftJoin('reports as r', 'r.association_id', 'td.id')
    .select((eb) => [
      'td.task_id',
      eb.fn.count<number>('r.id').as('n'),
      eb.fn.sum<number | null>('r.quantity').as('quantity'),
      eb.fn.sum<number | null>('r.total_loading_quantity').as('loading'),
      eb.fn.sum<number | null>('r.total_unloading_quantity').as('unloading'),
    ])
    .where('td.id', '=', associationId)
    .groupBy('td.task_id')
    .executeTakeFirst();
  if (!agg) return;
  const sums: Partial<Record<'quantity' | 'loading_quantity' | 'unloading_quantity', number>> = {};
  if (Number(agg.n) > 0) {
    if (agg.quantity !== null) sums.quantity = Number(agg.quantity);
    if (agg.loading !== null) sums.loading_quantity = Number(agg.loading);
    if (agg.unloading !== null) sums.unloading_quantity = Number(agg.unloading);
  }
  const status = finish === 'finish' ? { status: 'completed' as const } : finish === 'reopen' ? { status: 'in_progress' as const } : {};
  if (Object.keys(sums).length > 0 || finish) {
    await trx
      .updateTable('task_drivers')
      .set({ ...sums, ...status })
      .where('id', '=', associationId)
      .where('status', '<>', 'cancelled')
      .execute();
  }
  await settleTask(trx, agg.task_id);
}

async function findByKey(db: Q, driverId: number, key: string) {
  return db
    .selectFrom('reports')
    .select(['id', 'association_id'])
    .where('driver_id', '=', driverId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

async function replay(db: Q, found: { id: number; association_id: number }, associationId: number): Promise<Report> {
  if (found.association_id !== associationId) {
    throw new HttpError(422, 'Idempotency-Key уже использован для отчёта по другому заданию');
  }
  return loadReport(db, found.id);
}

/**
 * Stores a report once per (driver, Idempotency-Key). A repeat — even one racing the first — answers
 * the stored report; the loser's photo files are removed, so one report leaves one set of files.
 */
export async function createReport(
  ctx: AppContext,
  user: AuthUser,
  key: string,
  input: ReportCreate,
  photos: readonly Photo[],
): Promise<{ report: Report; created: boolean; /** The report's task, for its history (null: not known here). */ taskId: number | null }> {
  const db = ctx.db.kysely;
  // The part with its task, and this driver's report under the key if one was stored already: one read.
  const found = await db
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .leftJoin('reports as k', (join) => join.on('k.driver_id', '=', user.id).on('k.idempotency_key', '=', key))
    .select(['td.id', 'td.driver_id', 'td.status', 'td.task_id', 't.company_id', 't.status as task_status', 'k.id as earlier_id', 'k.association_id as earlier_association_id'])
    .where('td.id', '=', input.association_id)
    .executeTakeFirst();
  const earlier = found
    ? found.earlier_id !== null && found.earlier_association_id !== null ? { id: found.earlier_id, association_id: found.earlier_association_id } : undefined
    : await findByKey(db, user.id, key);
  if (earlier) return { report: await replay(db, earlier, input.association_id), created: false, taskId: found?.task_id ?? null };

  if (!found) throw notFound('Задание водителя не найдено');
  const scope = found;
  assertSeesAssociation(user, scope);
  if (scope.status === 'cancelled' || scope.task_status === 'cancelled') throw conflict('Задание отменено: отчёт не принят');
  if (scope.status === 'completed') throw conflict(FINISHED);

  const stored = await storePhotos(ctx.storage, photos);
  try {
    const id = await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const { id } = await trx
        .insertInto('reports')
        .values({
          association_id: input.association_id,
          driver_id: user.id,
          quantity: input.quantity,
          total_loading_quantity: input.total_loading_quantity,
          total_unloading_quantity: input.total_unloading_quantity,
          loading_is_buyer: input.loading_is_buyer,
          unloading_is_buyer: input.unloading_is_buyer,
          idempotency_key: key,
          completed_at: input.completed_at ?? input.unloading_departed_at ?? now,
          created_at: now,
          updated_at: now,
          trips: input.trips,
          ticket_number: input.ticket_number,
          ticket_key: ticketKey(input.ticket_number),
          final: input.final,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertPhotos(trx, id, stored, now);
      await insertTypedStamps(trx, id, input, now);
      await syncAssociation(trx, input.association_id, input.final === 1 ? 'finish' : null);
      return id;
    });
    // What scoring would read back is known here: the photos' hashes just stored, and no dispute on a new report.
    await scoreReport(db, id, { photoHashes: stored.map((p) => p.phash), created: true });
    // A typed loading arrival is a point of the driver's cycles: his next trip's cycle changed.
    if (input.loading_arrived_at) await rescoreCycleNeighbours(db, id);
    // A new report is no closed month's load yet: no payroll line or late payment names it.
    return { report: await loadReport(db, id, { created: true }), created: true, taskId: scope.task_id };
  } catch (error) {
    await removeFiles(ctx.storage, stored.map((s) => s.key));
    if (isUniqueViolation(error)) {
      const winner = await findByKey(db, user.id, key);
      if (winner) return { report: await replay(db, winner, input.association_id), created: false, taskId: scope.task_id };
    }
    throw error;
  }
}

/**
 * A trip entered after the fact with its times typed (contract/driver.ts, already checked in order and not in the
 * future): each typed time is its step's stamp, `source: 'form'`, without a position (docs/trips.md).
 */
async function insertTypedStamps(trx: Q, reportId: number, input: ReportCreate, now: string): Promise<void> {
  const rows = TYPED_TIME_FIELDS.flatMap((field) => {
    const at = input[field];
    return at ? [{ report_id: reportId, step: field.slice(0, -3) as TripStep, at, received_at: now, lat: null, lon: null, accuracy: null, source: 'form' as const }] : [];
  });
  if (rows.length > 0) await trx.insertInto('trip_stamps').values(rows).execute();
}

export async function insertPhotos(trx: Q, reportId: number, stored: readonly StoredPhoto[], now: string): Promise<void> {
  if (stored.length === 0) return;
  await trx
    .insertInto('report_photos')
    .values(
      stored.map((p) => ({
        report_id: reportId,
        storage_key: p.key,
        mime: p.mime,
        size: p.size,
        width: p.width,
        height: p.height,
        phash: p.phash,
        created_at: now,
      })),
    )
    .execute();
}

/** Changes the fields present in `input` and adds photos. */
export async function updateReport(
  ctx: AppContext,
  report: { id: number; association_id: number },
  input: ReportUpdate,
  photos: readonly Photo[],
  /** A driver's correction of a disputed report: it goes back to review. */
  backToReview = false,
): Promise<Report> {
  await assertLoadChangeable(ctx.db.kysely, report.id, 'Отчёт нельзя изменить');
  const stored = await storePhotos(ctx.storage, photos);
  try {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const now = nowIso();
      const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      if (input.ticket_number !== undefined) changes.ticket_key = ticketKey(input.ticket_number);
      const review = backToReview ? { review_status: 'pending' as const, reviewed_at: null, reviewed_by: null } : {};
      await trx.updateTable('reports').set({ ...changes, ...review, updated_at: now }).where('id', '=', report.id).execute();
      await insertPhotos(trx, report.id, stored, now);
      await syncAssociation(trx, report.association_id);
    });
  } catch (error) {
    await removeFiles(ctx.storage, stored.map((s) => s.key));
    throw error;
  }
  await scoreReport(ctx.db.kysely, report.id);
  await settleLateLoad(ctx.db.kysely, report.id);
  return loadReport(ctx.db.kysely, report.id);
}

/** The photo count and bytes a report already has, for the per-report caps. */
export async function photoTotals(db: Q, reportId: number): Promise<{ count: number; bytes: number }> {
  const row = await db
    .selectFrom('report_photos')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number | null>('size').as('bytes')])
    .where('report_id', '=', reportId)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), bytes: Number(row.bytes ?? 0) };
}

export async function deleteReport(ctx: AppContext, report: { id: number; association_id: number }): Promise<void> {
  await assertLoadChangeable(ctx.db.kysely, report.id, 'Отчёт нельзя удалить');
  const keys = await ctx.db.kysely.transaction().execute(async (trx) => {
    const photos = await trx.selectFrom('report_photos').select('storage_key').where('report_id', '=', report.id).execute();
    const { final } = await trx.selectFrom('reports').select('final').where('id', '=', report.id).executeTakeFirstOrThrow();
    await trx.deleteFrom('report_photos').where('report_id', '=', report.id).execute();
    await trx.deleteFrom('reports').where('id', '=', report.id).execute();
    // The last trip taken back: the driver's part goes on.
    await syncAssociation(trx, report.association_id, final === 1 ? 'reopen' : null);
    await dropLatePayment(trx, report.id);
    return photos.map((p) => p.storage_key);
  });
  // Files go after the commit: a failed transaction must not leave rows pointing at deleted files.
  await removeFiles(ctx.storage, keys);
}

/** Removes one photo of the report; false when the report has no such photo. */
export async function deletePhoto(ctx: AppContext, reportId: number, photoId: number): Promise<boolean> {
  await assertLoadChangeable(ctx.db.kysely, reportId, 'Фото нельзя удалить');
  const photo = await ctx.db.kysely
    .selectFrom('report_photos')
    .select(['id', 'storage_key'])
    .where('id', '=', photoId)
    .where('report_id', '=', reportId)
    .executeTakeFirst();
  if (!photo) return false;
  await ctx.db.kysely.deleteFrom('report_photos').where('id', '=', photo.id).execute();
  await ctx.db.kysely.updateTable('reports').set({ updated_at: nowIso() }).where('id', '=', reportId).execute();
  await removeFiles(ctx.storage, [photo.storage_key]);
  return true;
}
