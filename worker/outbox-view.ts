/**
 * What the tabs see of the outbox (OutboxSnapshot in api.ts): plain JSON, the signed-in user's items only,
 * oldest first. Pure, so the engine can rebuild it on every change.
 */
import type { OutboxRecord } from './db.ts';
import type { OutboxItemState, OutboxItemView, OutboxSnapshot } from './api.ts';

export interface OutboxViewState {
  userId: number | null;
  now: number;
  flushing: boolean;
  /** The item being uploaded, with its progress (0..1). */
  sending: { id: number; progress: number } | null;
}

export const byAge = (a: OutboxRecord, b: OutboxRecord): number =>
  a.createdAt - b.createdAt || (a.id ?? 0) - (b.id ?? 0);

/**
 * 'failed' means the server refused the last try (its reason is in lastError; it is tried again at
 * nextAttemptAt); 'retry' means the network failed and the next try waits for nextAttemptAt.
 */
export function itemState(record: OutboxRecord, { now, sending }: OutboxViewState): OutboxItemState {
  if (sending && sending.id === record.id) return 'sending';
  if (record.sent) return 'sent';
  if (record.lastError !== null) return 'failed';
  return record.nextAttemptAt > now ? 'retry' : 'waiting';
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
      createdAt: r.createdAt,
      progress: sending && sending.id === r.id ? sending.progress : null,
    }),
  );
  return { pending: mine.filter((r) => !r.sent).length, flushing: state.flushing, items };
}
