/**
 * The trip sheet's record dialog as a form (pure): times typed as ЧЧ:ММ on the sheet's date and sent as ISO with the
 * browser's offset, the readings as whole kilometres, a check's time and name together; the body carries only what
 * changed, so a reading the driver recorded meanwhile is never cleared by a dialog opened before it.
 */
import type { CheckMark, TripSheet, TripSheetUpdate } from '../../../contract/trip-sheets.ts';

export const CHECKS = ['pre_medical', 'pre_technical', 'post_medical'] as const;
export type CheckKey = (typeof CHECKS)[number];

export interface SheetValues {
  pre_medical_time: string;
  pre_medical_name: string;
  pre_technical_time: string;
  pre_technical_name: string;
  departure_time: string;
  odometer_start: string;
  return_time: string;
  odometer_end: string;
  post_medical_time: string;
  post_medical_name: string;
}
export type SheetErrors = Partial<Record<keyof SheetValues, string>>;

const pad = (n: number) => String(n).padStart(2, '0');

/** «07:05» of an ISO time, in this browser's zone; '' for none. */
export function clockOf(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : `${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** «7:05», «07.05», «0705» → «07:05»; null when it is no time of a day. */
export function parseClock(text: string): string | null {
  const m = /^(\d{1,2})[:.\s]?(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? `${pad(h)}:${pad(min)}` : null;
}

/** The sheet's date at ЧЧ:ММ, as ISO with the offset this browser has on that day: «2026-11-27T07:05:00+03:00». */
export function isoAt(date: string, clock: string): string {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = clock.split(':').map(Number) as [number, number];
  const offset = -new Date(y, mo - 1, d, h, mi).getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${date}T${clock}:00${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

export function sheetValues(s: TripSheet): SheetValues {
  return {
    pre_medical_time: clockOf(s.pre_medical?.at),
    pre_medical_name: s.pre_medical?.name ?? '',
    pre_technical_time: clockOf(s.pre_technical?.at),
    pre_technical_name: s.pre_technical?.name ?? '',
    departure_time: clockOf(s.departure_at),
    odometer_start: s.odometer_start === null ? '' : String(s.odometer_start),
    return_time: clockOf(s.return_at),
    odometer_end: s.odometer_end === null ? '' : String(s.odometer_end),
    post_medical_time: clockOf(s.post_medical?.at),
    post_medical_name: s.post_medical?.name ?? '',
  };
}

type Checked<T> = { value: T } | { error: string };

function time(date: string, text: string): Checked<string | null> {
  if (text.trim() === '') return { value: null };
  const clock = parseClock(text);
  return clock ? { value: isoAt(date, clock) } : { error: 'Время — ЧЧ:ММ, например 07:05' };
}

function reading(text: string): Checked<number | null> {
  const digits = text.replace(/\s/g, '');
  if (digits === '') return { value: null };
  if (!/^\d{1,7}$/.test(digits)) return { error: 'Показание — целое число километров' };
  return { value: Number(digits) };
}

/** What the dialog sends (only what changed), or the errors under their fields. */
export function sheetBody(sheet: TripSheet, values: SheetValues): { ok: true; body: TripSheetUpdate } | { ok: false; errors: SheetErrors } {
  const errors: SheetErrors = {};
  const before = sheetValues(sheet);
  const body: TripSheetUpdate = {};
  const changed = (...keys: (keyof SheetValues)[]) => keys.some((k) => values[k].trim() !== before[k].trim());

  for (const check of CHECKS) {
    const timeKey = `${check}_time` as const;
    const nameKey = `${check}_name` as const;
    if (!changed(timeKey, nameKey)) continue;
    const at = time(sheet.date, values[timeKey]);
    const name = values[nameKey].trim();
    if ('error' in at) errors[timeKey] = at.error;
    else if (at.value === null && name === '') body[check] = null;
    else if (at.value === null) errors[timeKey] = 'Укажите время';
    else if (name.length < 2) errors[nameKey] = 'Укажите фамилию и инициалы';
    else body[check] = { at: at.value, name } satisfies CheckMark;
  }
  for (const [timeKey, field] of [
    ['departure_time', 'departure_at'],
    ['return_time', 'return_at'],
  ] as const) {
    if (!changed(timeKey)) continue;
    const at = time(sheet.date, values[timeKey]);
    if ('error' in at) errors[timeKey] = at.error;
    else body[field] = at.value;
  }
  for (const field of ['odometer_start', 'odometer_end'] as const) {
    if (!changed(field)) continue;
    const km = reading(values[field]);
    if ('error' in km) errors[field] = km.error;
    else body[field] = km.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body };
}
