import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../contract/calendar.ts';
import { isoDate } from '../../contract/fields.ts';

describe('calendarDate: the one check behind every typed or read date', () => {
  it('gives YYYY-MM-DD for a real day and null for a day that does not exist', () => {
    expect(calendarDate(2026, 11, 28)).toBe('2026-11-28');
    expect(calendarDate(2028, 2, 29)).toBe('2028-02-29');
    expect(calendarDate(2026, 2, 29)).toBeNull();
    expect(calendarDate(2026, 4, 31)).toBeNull();
    expect(calendarDate(2026, 13, 1)).toBeNull();
    expect(calendarDate(2026, 0, 10)).toBeNull();
    expect(calendarDate(2026, 1, 0)).toBeNull();
    expect(calendarDate(2026.5, 1, 1)).toBeNull();
    expect(calendarDate(0, 1, 1)).toBeNull();
  });

  it('keeps a year below 100 as typed, not as 19xx', () => {
    expect(calendarDate(50, 1, 1)).toBe('0050-01-01');
  });

  it('is what the API schema decides by', () => {
    for (const [y, m, d] of [
      [2026, 2, 29],
      [2024, 2, 29],
      [2026, 6, 31],
      [2026, 12, 31],
    ] as const) {
      const expected = calendarDate(y, m, d);
      const iso = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
      expect(isoDate.safeParse(iso).success).toBe(expected !== null);
    }
  });
});
