/**
 * Formatting for the user's eyes (Russian locale), shared by the driver's screens and the staff console:
 * dates 23.11.2026, times 14:05, numbers with a thin space for thousands, money in ₽.
 */

const time = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });
const dayMonth = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit' });
const pad = (n: number) => String(n).padStart(2, '0');

/** The house style wants a thin space between thousands; Intl gives a (narrow) no-break space. */
const THIN_SPACE = '\u2009';
const numberFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });
const moneyFormat = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** 'HH:MM' for today, 'DD.MM HH:MM' otherwise: how old cached data is, at a glance. */
export function formatStoredAt(storedAt: number, now: number = Date.now()): string {
  const stored = new Date(storedAt);
  const sameDay = stored.toDateString() === new Date(now).toDateString();
  return sameDay ? time.format(stored) : `${dayMonth.format(stored)} ${time.format(stored)}`;
}

export function formatCapacity(capacity: number | null | undefined): string {
  return capacity === null || capacity === undefined ? '—' : `${capacity} т`;
}

/** 1200 → '1 200' (thin space), 1200.5 → '1 200,5'. */
export function formatNumber(value: number): string {
  return numberFormat.format(value).replace(/[\u00a0\u202f ]/g, THIN_SPACE);
}

/** A quantity with its unit ('1 200 т'); '—' when there is none. */
export function formatQuantity(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return '—';
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

/** '460 ₽', or per unit '460 ₽/т'; '—' when there is none. */
export function formatMoney(value: number | null | undefined, perUnit = ''): string {
  if (value === null || value === undefined) return '—';
  const amount = moneyFormat.format(value).replace(/[\u00a0\u202f ]/g, THIN_SPACE);
  return perUnit ? `${amount} ₽/${perUnit}` : `${amount} ₽`;
}

/** 'YYYY-MM-DD' (or an ISO timestamp's date part) → 'DD.MM.YYYY'; anything else is shown as it came. */
export function formatDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : value;
}

/** An instant (ISO string or epoch ms) → '23.11.2026 14:05' in the device's local time; '—' when missing or unreadable. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
