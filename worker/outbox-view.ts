/**
 * What the tabs see of the outbox (OutboxSnapshot in api.ts): plain JSON, the signed-in user's items only,
 * oldest first, rebuilt purely from the records on every push; and how often those pushes go out.
 */
import type { OutboxRecord } from './db.ts';
import type { OutboxItemState, OutboxItemView, OutboxSnapshot, OutboxTripStepView } from './api.ts';
import type { Clock } from './ports.ts';
import { heldForUndo } from './trip-steps.ts';

export interface OutboxViewState {
  userId: number | null;
  now: number;
  flushing: boolean;
  /** The items being uploaded (a flush has a few in flight, each of another association): id → progress (0..1). */
  sending: ReadonlyMap<number, number>;
}

/** Longer than a report sent at once takes on a poor connection: beyond it, the driver may have stopped watching. */
export const WAITED_MS = 30_000;

/**
 * True for a report that did not go at once: queued while sending was impossible, a try failed, it was put off,
 * or it sat in the queue. Its delivery is told in every tab («Отчёт отправлен»); the report form's own toast says
 * «отправлен» only for one that went at once.
 */
export function waited(record: OutboxRecord, now: number): boolean {
  // A trip step is due first at the end of its undo window: only a later time says it was put off.
  const dueAt = record.holdUntil ?? record.createdAt;
  return record.heldBack === true || record.attempts > 0 || record.nextAttemptAt !== dueAt || now - dueAt > WAITED_MS;
}

export const byAge = (a: OutboxRecord, b: OutboxRecord): number =>
  a.createdAt - b.createdAt || (a.id ?? 0) - (b.id ?? 0);

/**
 * 'failed' means the server refused the last try (its reason is in lastError; it is tried again at
 * nextAttemptAt); 'retry' means the network failed and the next try waits for nextAttemptAt.
 */
export function itemState(record: OutboxRecord, { now, sending }: OutboxViewState): OutboxItemState {
  if (record.id !== undefined && sending.has(record.id)) return 'sending';
  if (record.sent) return 'sent';
  if (record.givenUp) return 'undelivered';
  if (record.lastError !== null) return 'failed';
  // A trip step in its undo window waits to be sent; it was not tried yet.
  if (heldForUndo(record, now)) return 'waiting';
  return record.nextAttemptAt > now ? 'retry' : 'waiting';
}

/** What a tab shows of a trip step: the timeline reads it (which steps are stamped, when, where). */
function tripView(record: OutboxRecord): OutboxTripStepView {
  const trip = record.trip as NonNullable<OutboxRecord['trip']>;
  return {
    uid: trip.uid,
    step: trip.step,
    at: trip.body.at,
    source: trip.body.source,
    position: trip.body.position ?? null,
    holdUntil: record.holdUntil ?? null,
    acceptance: trip.body.acceptance?.kind ?? null,
  };
}

export function outboxSnapshot(records: readonly OutboxRecord[], state: OutboxViewState): OutboxSnapshot {
  const { userId, sending } = state;
  const mine = records.filter((r) => userId !== null && r.userId === userId && !r.resolved).sort(byAge);
  const items = mine.map(
    (r): OutboxItemView => ({
      id: r.id as number,
      association_id: r.association_id,
      state: itemState(r, state),
      attempts: r.attempts,
      nextAttemptAt: r.sent ? null : r.nextAttemptAt,
      sentAt: r.sentAt,
      lastError: r.lastError,
      photoCount: r.photos.length,
      quantity: r.quantity,
      createdAt: r.createdAt,
      progress: sending.get(r.id as number) ?? null,
      waited: waited(r, state.now),
      ...(r.trip ? { trip: tripView(r) } : {}),
      ...(r.acceptance
        ? { shiftAcceptance: { key: r.acceptance.body.key, trip_uids: r.acceptance.body.trip_uids, kind: r.acceptance.body.acceptance.kind, at: r.acceptance.body.at } }
        : {}),
      ...(r.odometer ? { odometer: { sheet_id: r.odometer.sheetId, which: r.odometer.which, value: r.odometer.value, at: r.odometer.at } } : {}),
    }),
  );
  const undelivered = mine.filter((r) => r.givenUp).length;
  return { pending: mine.filter((r) => !r.sent && !r.givenUp).length, ...(undelivered > 0 ? { undelivered } : {}), flushing: state.flushing, items };
}

/**
 * How often the outbox's changes reach the tabs at most. A flush changes something per item and per upload
 * progress event; a snapshot push carries every item to every tab, and one per change made a flush of
 * small reports spend more time pushing than uploading (bench/outbox-flush.ts: 0.3–0.4× a plain fetch loop).
 */
export const OUTBOX_PUSH_INTERVAL_MS = 250;

/**
 * Coalesces the outbox's change calls: the first after a quiet spell goes at once (a queued report shows
 * immediately), later ones within the interval go as one call at its end. `stored` flags are OR-ed, so the
 * other engines are still told when any of the coalesced changes was written to IndexedDB.
 */
export function throttlePushes(clock: Clock, push: (stored: boolean) => void, intervalMs = OUTBOX_PUSH_INTERVAL_MS) {
  let lastAt = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  let storedPending = false;

  function fire(): void {
    timer = null;
    lastAt = clock.now();
    const stored = storedPending;
    storedPending = false;
    push(stored);
  }

  return {
    change(stored: boolean): void {
      storedPending ||= stored;
      if (timer !== null) return;
      const wait = lastAt + intervalMs - clock.now();
      if (wait <= 0) fire();
      else timer = clock.setTimeout(fire, wait);
    },
    /** Drops a change still waiting (the engine is closing). */
    cancel(): void {
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
      storedPending = false;
    },
  };
}
