/**
 * The per-shift acceptance in the outbox (issue 32, docs/trips.md): when the company asks for one signature a
 * shift, at the end of the day the receiver signs once (or the driver records the refusal) for the day's finished
 * trips the phone knows. It is one outbox record, `POST /trips/acceptance` with the record's key as the body's
 * `key` (and the Idempotency-Key): the server stores it once per key, so a resend after a crash, a reload or a
 * dead battery is answered as a replay. The signature PNG is the record's one photo.
 *
 * The trips a shift acceptance may list are read from the outbox too: a trip's last step (`unloading_departed`)
 * without a per-trip acceptance stays in the store for `SHIFT_KEEP_MS` after it was stamped, even once its task
 * left the driver's list (its last trip finished it), and so does the acceptance record: the phone still knows at
 * the end of the day which trips were signed for.
 */
import { v4 as uuidv4 } from 'uuid';
import type { ShiftAcceptanceBody } from '../contract/trips.ts';
import type { OutboxRecord } from './db.ts';
import { newOutboxRecord } from './outbox-store.ts';

/** How long the day's finished trips and their acceptance stay on the phone after they were stamped. */
export const SHIFT_KEEP_MS = 24 * 60 * 60 * 1000;

/** The per-shift acceptance as the tab hands it over (the engine makes its key and checks it against the contract). */
/** What the outbox queues: the body checked against the contract, with its key (the engine made it), and the signature. */
export interface QueuedShiftAcceptance {
  body: ShiftAcceptanceBody;
  signature: Blob | null;
}

/** A new key for a shift acceptance (uuid: crypto.randomUUID exists only in secure contexts). */
export const newAcceptanceKey = (): string => uuidv4();

/** A finished trip's last step, as the shift acceptance reads it. */
const finishedStep = (r: OutboxRecord): boolean => r.trip?.step === 'unloading_departed' && r.trip.correction !== true;

/** The trips (uids) the user's queued shift acceptances list. */
export function acceptedTripUids(records: readonly OutboxRecord[], userId: number): Set<string> {
  return new Set(records.filter((r) => r.userId === userId && r.acceptance && !r.givenUp).flatMap((r) => r.acceptance?.body.trip_uids ?? []));
}

/** Kept past its task's end for the shift's acceptance: a finished trip signed by nobody yet, or an acceptance, younger than a day. */
export function keptForShift(record: OutboxRecord, now: number): boolean {
  if (now - record.createdAt >= SHIFT_KEEP_MS) return false;
  return record.acceptance !== undefined || (finishedStep(record) && !record.trip?.body.acceptance);
}

/**
 * Checks a shift acceptance against what the phone knows: every listed trip is the user's, finished on this
 * phone, without its own acceptance and not listed by another queued shift acceptance. Answers the Russian reason
 * it cannot be queued, or null.
 */
export function checkShiftAcceptance({ body, signature }: QueuedShiftAcceptance, records: readonly OutboxRecord[], userId: number): string | null {
  if (body.trip_uids.length === 0) return 'Нет рейсов для подписи';
  if (body.acceptance.kind === 'signed' && !signature) return 'Получатель должен расписаться';
  if (body.acceptance.kind !== 'signed' && signature) return 'Подпись прилагается только к подписанной приёмке';
  const signed = acceptedTripUids(records, userId);
  for (const uid of body.trip_uids) {
    const last = records.find((r) => r.userId === userId && r.trip?.uid === uid && r.trip.step === 'unloading_departed');
    if (!last) return 'Рейс не найден на устройстве или ещё не завершён';
    if (last.trip?.body.acceptance || signed.has(uid)) return 'Рейс уже подписан';
  }
  return null;
}

/** A new shift acceptance record: unsent, due now, its idempotency key the body's key. */
export function newShiftAcceptanceRecord(body: ShiftAcceptanceBody, signature: boolean, userId: number, now: number): OutboxRecord {
  // Not one association's: 0 keeps it apart from every task in the flush's per-association order.
  const shape = { association_id: 0, quantity: null, total_loading_quantity: null, total_unloading_quantity: null, unloadingIsBuyer: 0, loadingIsBuyer: 0, photos: [] } as const;
  const record = newOutboxRecord({ ...shape, photos: [], trips: body.trip_uids.length, final: false }, userId, now);
  return { ...record, idempotencyKey: body.key, completedAt: body.at, acceptance: { body, signature } };
}
