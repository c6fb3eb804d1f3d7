import { describe, expect, it } from 'vitest';
import { displayDate, groupDigits, parseDisplayDate } from '../../src/ui/DateInput.tsx';

describe('dates typed as ДД.ММ.ГГГГ whatever the browser’s language', () => {
  it('shows an ISO date Russian style and reads it back', () => {
    expect(displayDate('2026-11-24')).toBe('24.11.2026');
    expect(displayDate('')).toBe('');
    expect(parseDisplayDate('24.11.2026')).toBe('2026-11-24');
    expect(parseDisplayDate('1.2.2027')).toBe('2027-02-01');
    expect(parseDisplayDate(' ')).toBe('');
  });

  it('refuses what is not a whole, real date (and never reads mm/dd/yyyy)', () => {
    expect(parseDisplayDate('24.11')).toBeNull();
    expect(parseDisplayDate('31.02.2026')).toBeNull();
    expect(parseDisplayDate('11/24/2026')).toBeNull();
    expect(parseDisplayDate('2026-11-24')).toBeNull();
  });

  it('puts the dots in as digits are typed', () => {
    expect(groupDigits('24')).toBe('24');
    expect(groupDigits('2411')).toBe('24.11');
    expect(groupDigits('24112026')).toBe('24.11.2026');
    expect(groupDigits('241120261')).toBe('24.11.2026');
    expect(groupDigits('24.11.2')).toBe('24.11.2');
    expect(groupDigits('24.112')).toBe('24.11.2');
    expect(groupDigits('1.2.2027')).toBe('1.2.2027');
    expect(groupDigits('24/11/2026')).toBe('24/11/2026');
  });
});
