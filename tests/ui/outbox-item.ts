import type { OutboxItemView } from '../../worker/api.ts';

/** An outbox item as the snapshot carries it: new, two photos (the label and submit-outcome tests start from it). */
export const base: OutboxItemView = {
  id: 1,
  association_id: 5,
  state: 'waiting',
  attempts: 0,
  nextAttemptAt: null,
  sentAt: null,
  lastError: null,
  photoCount: 2,
  quantity: null,
  createdAt: 0,
  progress: null,
  waited: false,
};
