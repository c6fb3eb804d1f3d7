/**
 * Formatting for the user's eyes (Russian locale). The Intl formatters are made on first use, not when the
 * module loads: /login loads this file (the cache note) and making four of them cost it a long task on a slow phone.
 */

import { TRIPS, formatNumber, plural } from '../../contract/words.ts';

/** The one plural rule (contract/words.ts), for screens that take their formats from here. */
export { plural };

function lazy<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const time = lazy(() => new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' }));
const dayMonth = lazy(() => new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit' }));

/** 'HH:MM' for today, 'DD.MM HH:MM' otherwise: how old cached data is, at a glance. */
export function formatStoredAt(storedAt: number, now: number = Date.now()): string {
  const stored = new Date(storedAt);
  const sameDay = stored.toDateString() === new Date(now).toDateString();
  return sameDay ? time().format(stored) : `${dayMonth().format(stored)} ${time().format(stored)}`;
}

/** A vehicle's capacity in tonnes, Russian style: «22,5 т». */
export function formatCapacity(capacity: number | null | undefined): string {
  return formatQuantity(capacity, 'т');
}

/** 'YYYY-MM-DD' → 'DD.MM.YYYY'; anything else is shown as it came. */
export function formatDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : value;
}

const moneyFormat = lazy(() => new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 }));
/** Money with kopecks: both of their figures («640,50 ₽», never «640,5 ₽»). */
const kopecksFormat = lazy(() => new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** A quantity with its unit; '—' when there is none. */
export function formatQuantity(value: number | null | undefined, unit = ''): string {
  if (value === null || value === undefined) return '—';
  return unit ? `${formatNumber(value)} ${unit}` : formatNumber(value);
}

export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  // Whole rubles stay whole («16 250 ₽»); a sum with kopecks shows both figures.
  const whole = Math.round(value * 100) % 100 === 0;
  return `${(whole ? moneyFormat() : kopecksFormat()).format(value)} ₽`;
}

/** '460 ₽/т': a rate per unit. */
export function formatRate(value: number | null | undefined, unit = 'т'): string {
  return value === null || value === undefined ? '—' : `${formatMoney(value)}/${unit}`;
}

/** 'DD.MM.YYYY HH:MM' of an ISO time, in the device's local time. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The engine prefixes every path with /api/, while the server hands out photo urls that already
 * carry it ('/api/reports/photos/7'); strip it so the engine does not ask for /api/api/...
 */
export function apiPathOf(url: string): string {
  return url.replace(/^\/api(?=\/)/, '');
}

/** «1 рейс», «3 рейса», «5 рейсов». */
export function formatTrips(n: number): string {
  return plural(n, TRIPS);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 'HH:MM' in the device's local time. */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 'HH:MM:SS' in the device's local time. */
export function formatClockSeconds(epochMs: number): string {
  const d = new Date(epochMs);
  return `${formatClock(epochMs)}:${pad(d.getSeconds())}`;
}

/** 'YYYY-MM-DD' of a local date: the shape the API and `<input type=date>` use. */
export function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** '850 Б', '184 КБ', '3,2 МБ': photo sizes before and after compression. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} КБ`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} МБ`;
}
