/** A period filter (statistics, wages): a preset (or custom dates) → the inclusive date range the API takes. */
import { isoDate } from './format.ts';

export const PERIOD_PRESETS = ['today', 'week', 'month', 'last-month', 'all', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PERIOD_LABELS: Record<PeriodPreset, string> = {
  today: 'Сегодня',
  week: 'Эта неделя',
  month: 'Этот месяц',
  'last-month': 'Прошлый месяц',
  all: 'Всё время',
  custom: 'Свой период',
};

export interface DateRange {
  /** YYYY-MM-DD, inclusive; null = open. */
  start: string | null;
  end: string | null;
}

/**
 * Weeks start on Monday, as in Russia; a week or a month is the whole of it, so tasks dated later in it (planned
 * ahead) count too. `custom` passes the typed dates through ('' = open).
 */
export function periodRange(preset: PeriodPreset, today: Date, custom: { start: string; end: string }): DateRange {
  const y = today.getFullYear();
  const m = today.getMonth();
  switch (preset) {
    case 'today':
      return { start: isoDate(today), end: isoDate(today) };
    case 'week': {
      const sinceMonday = (today.getDay() + 6) % 7;
      return {
        start: isoDate(new Date(y, m, today.getDate() - sinceMonday)),
        end: isoDate(new Date(y, m, today.getDate() - sinceMonday + 6)),
      };
    }
    case 'month':
      return { start: isoDate(new Date(y, m, 1)), end: isoDate(new Date(y, m + 1, 0)) };
    case 'last-month':
      return { start: isoDate(new Date(y, m - 1, 1)), end: isoDate(new Date(y, m, 0)) };
    case 'all':
      return { start: null, end: null };
    case 'custom':
      return { start: custom.start || null, end: custom.end || null };
  }
}

/** A custom range whose start is after its end is a typo, not an empty period. */
export function rangeError(range: DateRange): string | null {
  return range.start && range.end && range.start > range.end ? 'Начало периода позже его конца' : null;
}
