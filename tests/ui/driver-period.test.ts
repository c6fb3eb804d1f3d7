import { describe, expect, it } from 'vitest';
import { periodRange, rangeError } from '../../src/ui/period.ts';

// Thursday, 2026-11-19 (local time, so the test holds in any time zone).
const today = new Date(2026, 10, 19, 15, 30);
const none = { start: '', end: '' };

describe('statistics period', () => {
  it('today is one day', () => {
    expect(periodRange('today', today, none)).toEqual({ start: '2026-11-19', end: '2026-11-19' });
  });

  it('a week runs Monday to Sunday, also when today is Sunday', () => {
    expect(periodRange('week', today, none)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(periodRange('week', new Date(2026, 10, 22), none)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
  });

  it('this month is the whole month (tasks planned later in it count); last month is whole, across a year end', () => {
    expect(periodRange('month', today, none)).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(periodRange('month', new Date(2026, 11, 31), none)).toEqual({ start: '2026-12-01', end: '2026-12-31' });
    expect(periodRange('week', new Date(2026, 11, 30), none)).toEqual({ start: '2026-12-28', end: '2027-01-03' });
    expect(periodRange('last-month', today, none)).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(periodRange('last-month', new Date(2027, 0, 10), none)).toEqual({ start: '2026-12-01', end: '2026-12-31' });
  });

  it('all time is open at both ends; a custom period passes its dates, empty meaning open', () => {
    expect(periodRange('all', today, none)).toEqual({ start: null, end: null });
    expect(periodRange('custom', today, { start: '2026-01-05', end: '' })).toEqual({ start: '2026-01-05', end: null });
  });

  it('flags a period whose start is after its end', () => {
    expect(rangeError({ start: '2026-02-01', end: '2026-01-01' })).toBe('Начало периода позже его конца');
    expect(rangeError({ start: '2026-01-01', end: '2026-01-01' })).toBeNull();
    expect(rangeError({ start: null, end: '2026-01-01' })).toBeNull();
  });
});
