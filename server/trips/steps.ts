/**
 * A trip's steps (docs/trips.md): PUT /trips/{trip_uid}/steps/{step} stamps one step, exactly once per (trip, step).
 * The first step to arrive — whichever it is: the outbox may deliver them out of order — makes the trip's report on
 * the driver's association (waiting for review, as a report filed by POST /reports/); each step then writes its
 * facts onto that report (the loaded quantity and ticket at `loading_departed`, the unloaded quantity, the
 * acceptance and `final` at `unloading_departed`), the association mirrors its reports, the task is settled and
 * the report scored again. A step stored already is answered as stored (200, `replay`), unless it is the driver's
 * correction of its time (`source: 'corrected'`).
 */
import { settleTask } from '../tasks/progress.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AppContext } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import { associationScope } from '../reports/load.ts';
import { FINISHED, insertPhotos, syncAssociation } from '../reports/write.ts';
import { removeFiles, storePhotos, type Photo, type StoredPhoto } from '../reports/photos.ts';
import { ticketKey } from '../reports/ticket.ts';
import { scoreReport } from '../reports/score.ts';
import { assertLoadChangeable, settleLateLoad } from '../payroll/late.ts';
import { isConfirmStep, TRIP_STEP_LABELS, type AcceptancePayload, type Position, type TripStep, type TripStepAnswer, type TripStepBody } from '../../contract/trips.ts';
import { placesOfReport, stampsOf, timelineOf } from './facts.ts';
import { rescoreCycleNeighbours } from './cycle.ts';
import { assertSheetForNewTrip } from '../trip-sheets/required.ts';

type Q = Kysely<Database>;

export interface StepFiles {
  photos: readonly Photo[];
  signature: Photo | null;
}

const ON = (step: TripStep) => `только на шаге «${TRIP_STEP_LABELS[step]}»`;

/** Step data only on its step (contract/trips.ts tripStepBodySchema): 400 naming the field and its step. */
export function assertStepData(step: TripStep, body: TripStepBody, files: StepFiles): void {
  const loadingData = ['ticket_number', 'loading_quantity'] as const;
  const unloadingData = ['unloading_quantity', 'acceptance', 'final'] as const;
  if (step !== 'loading_departed') {
    for (const field of loadingData) if (body[field] !== undefined && body[field] !== null) throw badRequest(`${field}: ${ON('loading_departed')}`);
  }
  if (step !== 'unloading_departed') {
    for (const field of unloadingData) if (body[field] !== undefined && body[field] !== null) throw badRequest(`${field}: ${ON('unloading_departed')}`);
  }
  if (files.photos.length > 0 && step !== 'loading_departed' && step !== 'unloading_departed') {
    throw badRequest(`photo: фото талона или выгрузки — ${ON('loading_departed')} или «${TRIP_STEP_LABELS.unloading_departed}»`);
  }
  if (body.driver_confirmation && !isConfirmStep(step)) {
    throw badRequest(`driver_confirmation: ${ON('loading_departed')} или «${TRIP_STEP_LABELS.unloading_departed}»`);
  }
  if (files.signature && body.acceptance?.kind !== 'signed') throw badRequest('signature: подпись прилагается к приёмке получателем (acceptance.kind = signed)');
}

interface TripRow {
  id: number;
  association_id: number;
  driver_id: number;
}

const tripByUid = (db: Q, tripUid: string): Promise<TripRow | undefined> =>
  db.selectFrom('reports').select(['id', 'association_id', 'driver_id']).where('trip_uid', '=', tripUid).executeTakeFirst();

/** The association a new trip is made on: the driver's own, going on. */
async function assertMayStartTrip(db: Q, user: AuthUser, associationId: number): Promise<void> {
  const scope = await associationScope(db, associationId);
  if (scope.driver_id !== user.id) throw forbidden('Это задание другого водителя: шаг рейса не принят');
  if (scope.status === 'cancelled' || scope.task_status === 'cancelled') throw conflict('Задание отменено: шаг рейса не принят');
  if (scope.status === 'completed') throw conflict(FINISHED);
}

/** A later step of a known trip: the same driver, the same association. */
function assertSameTrip(user: AuthUser, trip: TripRow, associationId: number): void {
  // Another driver's trip id is not confirmed to exist.
  if (trip.driver_id !== user.id) throw notFound('Рейс не найден');
  if (trip.association_id !== associationId) {
    throw conflict(`Рейс уже идёт по другому заданию водителя (№${trip.association_id}), а шаг называет №${associationId}`);
  }
}

async function answerOf(db: Q, trip: TripRow, tripUid: string, step: TripStep, replay: boolean): Promise<TripStepAnswer> {
  const [stamps, places] = await Promise.all([stampsOf(db, [trip.id]), placesOfReport(db, trip.id)]);
  return { report_id: trip.id, trip_uid: tripUid, step, replay, timeline: timelineOf(stamps.get(trip.id) ?? [], places) };
}

const positionColumns = (p: Position | null | undefined) => ({ lat: p?.lat ?? null, lon: p?.lon ?? null, accuracy: p?.accuracy ?? null });

/** The step's facts onto its report. */
function reportChanges(step: TripStep, body: TripStepBody) {
  if (step === 'loading_departed') {
    return {
      ...(body.ticket_number !== undefined ? { ticket_number: body.ticket_number, ticket_key: ticketKey(body.ticket_number) } : {}),
      ...(body.loading_quantity != null ? { total_loading_quantity: body.loading_quantity, quantity: body.loading_quantity } : {}),
    };
  }
  if (step === 'unloading_departed') {
    return {
      completed_at: body.at,
      ...(body.unloading_quantity != null ? { total_unloading_quantity: body.unloading_quantity } : {}),
      ...(body.final !== undefined ? { final: body.final } : {}),
    };
  }
  return {};
}

/** A trip's acceptance (scope 'trip', keyed by the trip's id), or a shift's. */
export async function insertAcceptance(
  trx: Q,
  input: { driverId: number; key: string; scope: 'trip' | 'shift'; acceptance: AcceptancePayload; at: string; position: Position | null | undefined; signatureKey: string | null; tripUids: readonly string[] },
): Promise<number> {
  const a = input.acceptance;
  const { id } = await trx
    .insertInto('trip_acceptances')
    .values({
      driver_id: input.driverId,
      key: input.key,
      scope: input.scope,
      kind: a.kind,
      receiver_name: a.receiver_name ?? null,
      receiver_position: a.kind === 'signed' ? (a.receiver_position ?? null) : null,
      signature_key: input.signatureKey,
      strokes: a.kind === 'signed' && a.strokes ? JSON.stringify(a.strokes) : null,
      refused_reason: a.kind === 'refused' ? a.reason : null,
      at: input.at,
      ...positionColumns(input.position),
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('trip_acceptance_trips')
    .values([...new Set(input.tripUids)].map((trip_uid) => ({ acceptance_id: id, trip_uid })))
    .execute();
  return id;
}

/** Stores the step's photos and signature; on a failure nothing is left. */
async function storeFiles(ctx: AppContext, files: StepFiles): Promise<{ photos: StoredPhoto[]; signature: string | null }> {
  const photos = await storePhotos(ctx.storage, files.photos);
  try {
    const signature = files.signature ? await ctx.storage.putFile('signatures', files.signature.file, '.png') : null;
    return { photos, signature };
  } catch (error) {
    await removeFiles(ctx.storage, photos.map((p) => p.key));
    throw error;
  }
}

/**
 * Stamps the step; answers 201 for a new stamp, 200 for a replay or a correction. A repeat racing the first (the same
 * trip made twice, or the same step) loses on the unique keys and is answered as the replay it is; its files go.
 */
export async function putTripStep(
  ctx: AppContext,
  user: AuthUser,
  tripUid: string,
  step: TripStep,
  body: TripStepBody,
  files: StepFiles,
  retried = false,
): Promise<{ answer: TripStepAnswer; created: boolean }> {
  assertStepData(step, body, files);
  const db = ctx.db.kysely;
  const trip = await tripByUid(db, tripUid);
  if (trip) assertSameTrip(user, trip, body.association_id);
  else {
    await assertMayStartTrip(db, user, body.association_id);
    await assertSheetForNewTrip(db, user, body.at);
  }

  const stored = trip ? await db.selectFrom('trip_stamps').select(['id', 'at']).where('report_id', '=', trip.id).where('step', '=', step).executeTakeFirst() : undefined;
  if (trip && stored) {
    if (body.source !== 'corrected' || stored.at === body.at) return { answer: await answerOf(db, trip, tripUid, step, true), created: false };
    await assertLoadChangeable(db, trip.id, 'Время шага нельзя изменить');
    await db.updateTable('trip_stamps').set({ at: body.at, source: 'corrected' }).where('id', '=', stored.id).execute();
    await afterChange(db, trip.id, step);
    return { answer: await answerOf(db, trip, tripUid, step, false), created: false };
  }
  if (trip) await assertLoadChangeable(db, trip.id, 'Шаг рейса не принят');

  const kept = await storeFiles(ctx, files);
  try {
    const reportId = await db.transaction().execute(async (trx) => {
      const now = nowIso();
      const id = trip?.id ?? (await newTripReport(trx, user.id, tripUid, body, now));
      if (!trip) await beginWork(trx, body.association_id);
      await trx
        .insertInto('trip_stamps')
        .values({ report_id: id, step, at: body.at, received_at: now, ...positionColumns(body.position), source: body.source })
        .execute();
      await trx.updateTable('reports').set({ ...reportChanges(step, body), updated_at: now }).where('id', '=', id).execute();
      await insertPhotos(trx, id, kept.photos, now);
      if (body.acceptance) {
        await insertAcceptance(trx, { driverId: user.id, key: tripUid, scope: 'trip', acceptance: body.acceptance, at: body.at, position: body.position, signatureKey: kept.signature, tripUids: [tripUid] });
      }
      if (body.driver_confirmation && isConfirmStep(step)) {
        const quantity = step === 'loading_departed' ? body.loading_quantity : body.unloading_quantity;
        await trx
          .insertInto('trip_confirmations')
          .values({ report_id: id, step, driver_id: user.id, at: body.at, ...positionColumns(body.position), quantity: quantity ?? null, remarks: body.driver_confirmation.remarks || null, created_at: now })
          .execute();
      }
      await syncAssociation(trx, body.association_id, body.final === 1 ? 'finish' : null);
      return id;
    });
    await afterChange(db, reportId, step);
    const made = { id: reportId, association_id: body.association_id, driver_id: user.id };
    return { answer: await answerOf(db, made, tripUid, step, false), created: true };
  } catch (error) {
    await removeFiles(ctx.storage, [...kept.photos.map((p) => p.key), ...(kept.signature ? [kept.signature] : [])]);
    // The trip or the step made meanwhile by the same step's other delivery: answered as a replay.
    if (isUniqueViolation(error) && !retried) return putTripStep(ctx, user, tripUid, step, body, { photos: [], signature: null }, true);
    throw error;
  }
}

/** A trip's first step is the start of the driver's work on the task: an accepted part goes in progress («Начать рейс»). */
async function beginWork(trx: Q, associationId: number): Promise<void> {
  const started = await trx.updateTable('task_drivers').set({ status: 'in_progress' }).where('id', '=', associationId).where('status', '=', 'accepted').returning('task_id').executeTakeFirst();
  if (started) await settleTask(trx, started.task_id);
}

async function newTripReport(trx: Q, driverId: number, tripUid: string, body: TripStepBody, now: string): Promise<number> {
  const { id } = await trx
    .insertInto('reports')
    .values({
      association_id: body.association_id,
      driver_id: driverId,
      quantity: null,
      total_loading_quantity: null,
      total_unloading_quantity: null,
      loading_is_buyer: 0,
      unloading_is_buyer: 0,
      idempotency_key: null,
      completed_at: body.at,
      created_at: now,
      updated_at: now,
      ticket_number: null,
      ticket_key: null,
      trip_uid: tripUid,
      after_the_fact: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** After a stamp or its correction: the report scored again, a late load settled, the driver's next trip's cycle too. */
async function afterChange(db: Q, reportId: number, step: TripStep): Promise<void> {
  await scoreReport(db, reportId);
  await settleLateLoad(db, reportId);
  if (step === 'loading_arrived') await rescoreCycleNeighbours(db, reportId);
}
