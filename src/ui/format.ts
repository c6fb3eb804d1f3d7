/** Formatting for the user's eyes (Russian locale). */

const time = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit' });

/** 'HH:MM' for today, 'DD.MM HH:MM' otherwise: how old cached data is, at a glance. */
export function formatStoredAt(storedAt: number, now: number = Date.now()): string {
  const stored = new Date(storedAt);
  const sameDay = stored.toDateString() === new Date(now).toDateString();
  return sameDay ? time.format(stored) : `${dayMonth.format(stored)} ${time.format(stored)}`;
}

export function formatCapacity(capacity: number | null | undefined): string {
  return capacity === null || capacity === undefined ? '—' : `${capacity} т`;
}
