/**
 * Trip steps in the outbox (issue 32, contract/trips.ts): the trip as it happens is queued step by step on the
 * phone. Each step is one outbox record (worker/db.ts `OutboxRecord.trip`) whose idempotency key is the pair
 * `trip_uid:step`; the server's call, `PUT /trips/{trip_uid}/steps/{step}`, is idempotent by that pair too.
 *
 * - A new step is held back for `UNDO_WINDOW_MS` (no engine sends it meanwhile), so an undo within that window
 *   always takes it out before it was sent. After the window it is a fact: sent or queued, it stays.
 * - A later step of a trip waits while an earlier one of the same trip is still unsent (and not given up):
 *   steps of one trip reach the server in their order.
 * - The trip's state on the device (which steps are stamped, when, where) is read from these records: they stay
 *   in the store, sent, until their association leaves the driver's tasks, like reports do.
 */
import { v4 as uuidv4 } from 'uuid';
import type { TripStep, TripStepBody } from '../contract/trips.ts';
import type { OutboxRecord, TripStepFacts } from './db.ts';

/**
 * contract/trips.ts TRIP_STEPS, repeated as a type-checked literal: that module builds zod schemas when loaded,
 * and this file goes into the service worker's bundle (tests/worker/trip-steps.test.ts holds the two equal).
 */
export const STEP_ORDER = ['loading_arrived', 'loading_departed', 'unloading_arrived', 'unloading_departed'] as const satisfies readonly TripStep[];

/** How long a tapped step waits before it may be sent: the undo's window. */
export const UNDO_WINDOW_MS = 10_000;

/**
 * A step as the tab hands it over: `trip_uid` null starts a new trip (its first step). The engine checks `body`
 * against contract/trips.ts tripStepBodySchema (worker/outbox-api.ts) before the outbox takes it.
 */
export interface NewTripStep {
  trip_uid: string | null;
  step: TripStep;
  body: TripStepBody;
  /** The ticket's or the unloading's photos (compressed in the engine like a report's). */
  photos: Blob[];
  /** The receiver's signature, a PNG drawn on the screen (stored as it is). */
  signature: Blob | null;
}

/**
 * A User Timing mark in the engine's own timeline when a step's strict transaction has completed (its `detail` the
 * step's key): bench/trip-bench.ts reads these through the DevTools protocol, in the engine, after its taps. One
 * mark a step (about a hundred bytes), nothing read or sent by the app.
 */
export const TRIP_STEP_STORED_MARK = 'reis:trip-step-stored';

export function markTripStepStored(key: string): void {
  performance.mark(TRIP_STEP_STORED_MARK, { detail: key });
}

export const tripStepKey = (uid: string, step: TripStep): string => `${uid}:${step}`;

export const stepIndex = (step: TripStep): number => STEP_ORDER.indexOf(step);

/** The steps of one trip stored in the outbox, in their order. */
export function stepsOfTrip(records: readonly OutboxRecord[], uid: string): (OutboxRecord & { trip: TripStepFacts })[] {
  return records
    .filter((r): r is OutboxRecord & { trip: TripStepFacts } => r.trip?.uid === uid)
    .sort((a, b) => stepIndex(a.trip.step) - stepIndex(b.trip.step));
}

/** The association's latest trip (the one a first step began last), or null. */
export function latestTripUid(records: readonly OutboxRecord[], associationId: number, userId: number): string | null {
  let latest: OutboxRecord | null = null;
  for (const r of records) {
    if (r.trip?.step !== 'loading_arrived' || r.association_id !== associationId || r.userId !== userId) continue;
    if (!latest || r.createdAt > latest.createdAt || (r.createdAt === latest.createdAt && (r.id ?? 0) > (latest.id ?? 0))) latest = r;
  }
  return latest?.trip?.uid ?? null;
}

/**
 * True while an earlier step of the record's trip is unsent and not given up (and not among `goingFirst`, the
 * items sent before it in the same batch): the record must wait for it.
 */
export function waitsForEarlierStep(records: readonly OutboxRecord[], record: OutboxRecord, goingFirst: readonly OutboxRecord[] = []): boolean {
  const trip = record.trip;
  if (!trip) return false;
  return records.some(
    (r) =>
      r.trip?.uid === trip.uid &&
      stepIndex(r.trip.step) < stepIndex(trip.step) &&
      !r.sent &&
      !r.givenUp &&
      !goingFirst.some((g) => g.id === r.id),
  );
}

/** True while the record is in its undo window: no engine sends it. */
export const heldForUndo = (record: OutboxRecord, now: number): boolean => record.holdUntil !== undefined && record.holdUntil > now;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a new step against the trip's stamps so far (its body was checked against the contract already);
 * answers the trip's uid (a new one for a first step) or the Russian reason it cannot be queued.
 */
export function checkTripStep(input: NewTripStep, records: readonly OutboxRecord[], userId: number): { ok: true; uid: string } | { ok: false; message: string } {
  if (input.trip_uid === null) {
    if (input.step !== 'loading_arrived') return { ok: false, message: 'Рейс начинается с отметки «Прибыл на погрузку»' };
    // uuid rather than crypto.randomUUID: the latter exists only in secure contexts (not on a plain-http LAN).
    return { ok: true, uid: uuidv4() };
  }
  if (!UUID.test(input.trip_uid)) return { ok: false, message: 'Неверный идентификатор рейса' };
  const uid = input.trip_uid.toLowerCase();
  const steps = stepsOfTrip(records, uid);
  const first = steps[0];
  if (!first || first.userId !== userId) return { ok: false, message: 'Рейс не найден на устройстве: начните новый рейс' };
  if (first.association_id !== input.body.association_id) return { ok: false, message: 'Рейс относится к другому заданию' };
  if (steps.some((r) => r.trip.step === input.step)) return { ok: false, message: 'Эта отметка уже сделана' };
  const last = steps.at(-1)?.trip.step;
  const expected = last === undefined ? STEP_ORDER[0] : STEP_ORDER[stepIndex(last) + 1];
  if (expected !== input.step) return { ok: false, message: 'Сначала сделайте предыдущую отметку рейса' };
  return { ok: true, uid };
}

/** A new step record: unsent, held for the undo window, its key the (trip, step) pair. */
export function newTripStepRecord(uid: string, step: TripStep, body: TripStepBody, signature: boolean, userId: number, now: number): OutboxRecord {
  const holdUntil = now + UNDO_WINDOW_MS;
  return {
    association_id: body.association_id,
    quantity: body.loading_quantity ?? body.unloading_quantity ?? null,
    total_unloading_quantity: null,
    total_loading_quantity: null,
    flags: { unloadingIsBuyer: 0, loadingIsBuyer: 0 },
    trips: 1,
    ticketNumber: body.ticket_number ?? null,
    final: body.final === 1,
    photos: [],
    attempts: 0,
    nextAttemptAt: holdUntil,
    holdUntil,
    sent: false,
    sentAt: null,
    resolved: false,
    idempotencyKey: tripStepKey(uid, step),
    completedAt: body.at,
    createdAt: now,
    lastError: null,
    userId,
    trip: { uid, step, body, signature },
  };
}
