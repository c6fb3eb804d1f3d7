/**
 * The driver's odometer on his trip sheet (issue 33 §2; docs/trip-sheets.md «The driver's odometer»), pure: the day
 * as the phone's calendar says it, and what is typed → the reading, or the Russian reason it is refused.
 */

/** The device's calendar day, YYYY-MM-DD. */
export function localDate(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A typed reading (spaces allowed: «123 456») → whole kilometres, or the reason in Russian. */
export function odometerValue(typed: string, start: number | null): { ok: true; value: number } | { ok: false; message: string } {
  const digits = typed.replace(/[\s\u00a0]/g, '');
  if (digits === '') return { ok: false, message: 'Введите показание одометра, км' };
  if (!/^\d+$/.test(digits)) return { ok: false, message: 'Показание одометра — целое число километров' };
  const value = Number(digits);
  if (value > 9_999_999) return { ok: false, message: 'Показание одометра не больше 9 999 999 км' };
  if (start !== null && value < start) return { ok: false, message: `Меньше, чем при выезде (${start} км)` };
  return { ok: true, value };
}
