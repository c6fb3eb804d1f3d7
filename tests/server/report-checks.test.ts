/**
 * The report checks (contract/report-checks.ts): for every flag a planted report that raises it and its clean
 * twin (usually exactly at the tolerance) that does not; thresholds move the results; the admin schema; and a
 * seeded sweep of clean reports inside the bounds that must raise nothing.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../fixtures/random.ts';
import {
  checkReport,
  checkThresholdsSchema,
  DEFAULT_CHECK_THRESHOLDS,
  deliveredOf,
  FLAG_CODES,
  FLAG_LABELS,
  formatNumberRu,
  INFO_FLAGS,
  type CheckThresholds,
  type FlagCode,
  type ReportFacts,
} from '../../contract/report-checks.ts';

/** A clean report: 20 t on a 20 t truck, totals agree, 40 min after the previous trip, sent 10 min later. */
function facts(over: Partial<ReportFacts> = {}): ReportFacts {
  return {
    quantity: 20,
    trips: 1,
    unit: 'т',
    vehicle_capacity: 20,
    total_loading_quantity: 20,
    total_unloading_quantity: 20,
    completed_at: '2025-03-05T10:00:00.000Z',
    received_at: '2025-03-05T10:10:00.000Z',
    task_date: '2025-03-05',
    previous_completed_at: '2025-03-05T09:20:00.000Z',
    share: 500,
    delivered_before: 100,
    duplicate_photo_of: null,
    duplicate_ticket_of: null,
    ticket_number: '4711',
    ...over,
  };
}

const codes = (f: ReportFacts, t?: CheckThresholds): FlagCode[] => checkReport(f, t).map((x) => x.code);
function only(f: ReportFacts, code: FlagCode, t?: CheckThresholds) {
  const flags = checkReport(f, t);
  expect(flags.map((x) => x.code)).toEqual([code]);
  return flags[0]?.detail ?? '';
}

describe('constants', () => {
  it('labels every code in Russian, late_filing and long_wait are the information flags', () => {
    expect(Object.keys(FLAG_LABELS).sort()).toEqual([...FLAG_CODES].sort());
    expect(FLAG_LABELS.over_capacity).toBe('Перегруз');
    expect(FLAG_LABELS.time_out_of_range).toBe('Время вне диапазона');
    expect(INFO_FLAGS).toEqual(['late_filing', 'long_wait']);
    expect(DEFAULT_CHECK_THRESHOLDS).toEqual({
      capacity_tolerance_pct: 5,
      mismatch_tolerance_pct: 2,
      over_share_tolerance_pct: 10,
      min_cycle_minutes: 15,
      late_filing_hours: 24,
    });
  });

  it('formats numbers the Russian way', () => {
    expect(formatNumberRu(24.8)).toBe('24,8');
    expect(formatNumberRu(20)).toBe('20');
    expect(formatNumberRu(62.5)).toBe('62,5');
    expect(formatNumberRu(1234.5)).toBe('1234,5');
    expect(formatNumberRu(0.1 + 0.2)).toBe('0,3');
    expect(formatNumberRu(5.3, 1, 'up')).toBe('5,3');
    expect(formatNumberRu(5.31, 1, 'up')).toBe('5,4');
    expect(formatNumberRu(14.99, 1, 'down')).toBe('14,9');
    expect(formatNumberRu(-0.0001)).toBe('0');
  });
});

describe('checkReport', () => {
  it('a clean report gives []', () => {
    expect(checkReport(facts())).toEqual([]);
    expect(checkReport(facts(), DEFAULT_CHECK_THRESHOLDS)).toEqual([]);
  });

  describe('over_capacity', () => {
    it('fires above capacity + 5 % and names the numbers', () => {
      const detail = only(facts({ quantity: 24.8, total_loading_quantity: null, total_unloading_quantity: null }), 'over_capacity');
      expect(detail).toBe('24,8 т за рейс при грузоподъёмности 20 т (допуск 5 %)');
    });
    it('exactly at the tolerance does not fire; just above does', () => {
      expect(codes(facts({ quantity: 21, total_unloading_quantity: null, total_loading_quantity: null }))).toEqual([]);
      expect(codes(facts({ quantity: 21.001, total_unloading_quantity: null, total_loading_quantity: null }))).toEqual(['over_capacity']);
    });
    it('divides by trips', () => {
      const base = { total_loading_quantity: null, total_unloading_quantity: null, unit: 'м³', vehicle_capacity: 30 };
      expect(codes(facts({ ...base, quantity: 90, trips: 3 }))).toEqual([]);
      const detail = only(facts({ ...base, quantity: 100, trips: 3 }), 'over_capacity');
      expect(detail).toContain('33,334 м³ за рейс');
      expect(detail).toContain('100 м³ за 3 рейса');
      expect(detail).toContain('30 м³');
    });
    it('unknown capacity or quantity, or bad trips, does not fire', () => {
      const big = { quantity: 100, total_loading_quantity: null, total_unloading_quantity: null };
      expect(codes(facts({ ...big, vehicle_capacity: null }))).toEqual([]);
      expect(codes(facts({ ...big, vehicle_capacity: 0 }))).toEqual([]);
      expect(codes(facts({ ...big, trips: 0 }))).toEqual([]);
      expect(codes(facts({ ...big, trips: Number.NaN }))).toEqual([]);
      expect(codes(facts({ quantity: null, vehicle_capacity: 1 }))).toEqual([]);
    });
  });

  describe('loading_unloading_mismatch', () => {
    it('fires above 2 % and names both totals and the difference', () => {
      const detail = only(facts({ total_loading_quantity: 20, total_unloading_quantity: 18.9 }), 'loading_unloading_mismatch');
      expect(detail).toContain('20 т');
      expect(detail).toContain('18,9 т');
      expect(detail).toContain('5,5 %');
      expect(detail).toContain('допуск 2 %');
    });
    it('exactly at 2 % does not fire; just above does', () => {
      expect(codes(facts({ total_loading_quantity: 50, total_unloading_quantity: 49 }))).toEqual([]);
      expect(codes(facts({ total_loading_quantity: 49, total_unloading_quantity: 50 }))).toEqual([]);
      expect(codes(facts({ total_loading_quantity: 50, total_unloading_quantity: 48.99 }))).toEqual(['loading_unloading_mismatch']);
    });
    it('a missing or zero total does not fire', () => {
      expect(codes(facts({ total_loading_quantity: null, total_unloading_quantity: 5 }))).toEqual([]);
      expect(codes(facts({ total_loading_quantity: 0, total_unloading_quantity: 5, quantity: 5 }))).toEqual([]);
    });
  });

  describe('duplicate_photo', () => {
    it('fires when a photo matches another report', () => {
      expect(only(facts({ duplicate_photo_of: { report_id: 123, distance: 3 } }), 'duplicate_photo')).toBe('Фото совпадает с фото отчёта №123');
    });
    it('does not fire without a match', () => {
      expect(codes(facts({ duplicate_photo_of: null }))).toEqual([]);
    });
  });

  describe('duplicate_ticket', () => {
    it('fires and names the ticket and the report', () => {
      expect(only(facts({ duplicate_ticket_of: { report_id: 98 } }), 'duplicate_ticket')).toBe('Талон № 4711 уже есть в отчёте №98');
      expect(only(facts({ duplicate_ticket_of: { report_id: 98 }, ticket_number: null }), 'duplicate_ticket')).toBe('Талон уже есть в отчёте №98');
    });
    it('does not fire without a match', () => {
      expect(codes(facts({ duplicate_ticket_of: null, ticket_number: '4711' }))).toEqual([]);
    });
  });

  describe('over_share', () => {
    it('fires above the share + 10 % and names the delivered total and the share', () => {
      const detail = only(facts({ share: 100, delivered_before: 95, total_unloading_quantity: 20, total_loading_quantity: 20 }), 'over_share');
      expect(detail).toContain('Сдано 115 т');
      expect(detail).toContain('95 т ранее');
      expect(detail).toContain('20 т в этом отчёте');
      expect(detail).toContain('при доле 100 т');
      expect(detail).toContain('допуск 10 %');
    });
    it('exactly at the tolerance does not fire; just above does', () => {
      expect(codes(facts({ share: 100, delivered_before: 90 }))).toEqual([]);
      expect(codes(facts({ share: 100, delivered_before: 90.001 }))).toEqual(['over_share']);
    });
    it('counts the unloading total, not the quantity, when given', () => {
      // quantity 20 would exceed (90 + 20 > 110), the unloading total 19.8 does not.
      expect(codes(facts({ share: 100, delivered_before: 90.1, total_loading_quantity: 20, total_unloading_quantity: 19.8 }))).toEqual([]);
      expect(codes(facts({ share: 100, delivered_before: 90.1, total_loading_quantity: null, total_unloading_quantity: null }))).toEqual(['over_share']);
    });
    it('no share, a zero share, or nothing delivered does not fire', () => {
      expect(codes(facts({ share: null, delivered_before: 1e6 }))).toEqual([]);
      expect(codes(facts({ share: 0, delivered_before: 1e6 }))).toEqual([]);
      expect(codes(facts({ share: 10, delivered_before: 1e6, quantity: null, total_loading_quantity: null, total_unloading_quantity: null }))).toEqual([]);
    });
  });

  describe('fast_cycle', () => {
    it('fires under 15 minutes after the previous trip', () => {
      const detail = only(facts({ previous_completed_at: '2025-03-05T09:48:00.000Z' }), 'fast_cycle');
      expect(detail).toBe('12 мин после предыдущего рейса (минимум 15 мин)');
    });
    it('exactly 15 minutes does not fire; a second less does', () => {
      expect(codes(facts({ previous_completed_at: '2025-03-05T09:45:00.000Z' }))).toEqual([]);
      const detail = only(facts({ previous_completed_at: '2025-03-05T09:45:01.000Z' }), 'fast_cycle');
      expect(detail).toContain('14,9 мин');
    });
    it('the same instant fires, a previous trip after this one does not', () => {
      expect(codes(facts({ previous_completed_at: '2025-03-05T10:00:00.000Z' }))).toEqual(['fast_cycle']);
      expect(codes(facts({ previous_completed_at: '2025-03-05T10:05:00.000Z' }))).toEqual([]);
    });
    it('min_cycle_minutes 5 stops a 12-minute flag', () => {
      const f = facts({ previous_completed_at: '2025-03-05T09:48:00.000Z' });
      expect(codes(f, { ...DEFAULT_CHECK_THRESHOLDS, min_cycle_minutes: 5 })).toEqual([]);
    });
    it('a missing or unparsable time does not fire', () => {
      expect(codes(facts({ previous_completed_at: null }))).toEqual([]);
      expect(codes(facts({ previous_completed_at: 'вчера' }))).toEqual([]);
      expect(codes(facts({ completed_at: null, previous_completed_at: '2025-03-05T09:59:00.000Z' }))).toEqual([]);
    });
  });

  describe('late_filing', () => {
    it('fires beyond 24 hours and is information', () => {
      const detail = only(facts({ received_at: '2025-03-06T16:00:00.000Z' }), 'late_filing');
      expect(detail).toContain('Отправлен через 30 ч после рейса');
      expect(INFO_FLAGS).toContain('late_filing');
    });
    it('exactly 24 hours does not fire; a minute more does', () => {
      expect(codes(facts({ received_at: '2025-03-06T10:00:00.000Z' }))).toEqual([]);
      const detail = only(facts({ received_at: '2025-03-06T10:01:00.000Z' }), 'late_filing');
      expect(detail).toContain('24,1 ч');
    });
    it('late_filing_hours 48 stops a 30-hour flag', () => {
      expect(codes(facts({ received_at: '2025-03-06T16:00:00.000Z' }), { ...DEFAULT_CHECK_THRESHOLDS, late_filing_hours: 48 })).toEqual([]);
    });
  });

  describe('time_out_of_range', () => {
    it('fires for a completion more than 5 minutes after the server received it', () => {
      const detail = only(facts({ completed_at: '2025-03-05T10:15:01.000Z', previous_completed_at: null }), 'time_out_of_range');
      expect(detail).toContain('05.03.2025 10:15 UTC');
      expect(detail).toContain('05.03.2025 10:10 UTC');
    });
    it('exactly 5 minutes ahead does not fire', () => {
      expect(codes(facts({ completed_at: '2025-03-05T10:15:00.000Z', previous_completed_at: null }))).toEqual([]);
    });
    it('fires for a completion before the task day minus one day', () => {
      const detail = only(
        facts({ completed_at: '2025-03-03T23:59:00.000Z', previous_completed_at: null, received_at: '2025-03-04T00:00:00.000Z' }),
        'time_out_of_range',
      );
      expect(detail).toContain('03.03.2025 23:59 UTC');
      expect(detail).toContain('05.03.2025');
    });
    it('a day of slack before the task day does not fire (time zones)', () => {
      expect(
        codes(facts({ completed_at: '2025-03-04T00:00:00.000Z', previous_completed_at: null, received_at: '2025-03-04T00:01:00.000Z' })),
      ).toEqual([]);
    });
    it('a bad task date or a missing completion does not fire', () => {
      const early = { completed_at: '2020-01-01T00:00:00.000Z', previous_completed_at: null, received_at: '2020-01-01T00:01:00.000Z' };
      expect(codes(facts({ ...early, task_date: '2025-02-30' }))).toEqual([]);
      expect(codes(facts({ ...early, task_date: '' }))).toEqual([]);
      expect(codes(facts({ completed_at: null }))).toEqual([]);
    });
  });

  it('raises several flags in FLAG_CODES order', () => {
    const f = facts({
      quantity: 30,
      total_loading_quantity: 30,
      total_unloading_quantity: 25,
      duplicate_photo_of: { report_id: 1, distance: 0 },
      duplicate_ticket_of: { report_id: 2 },
      share: 50,
      delivered_before: 40,
      previous_completed_at: '2025-03-05T09:55:00.000Z',
      completed_at: '2025-03-05T10:00:00.000Z',
      received_at: '2025-03-07T10:00:00.000Z',
    });
    expect(codes(f)).toEqual([
      'over_capacity',
      'loading_unloading_mismatch',
      'duplicate_photo',
      'duplicate_ticket',
      'over_share',
      'fast_cycle',
      'late_filing',
    ]);
  });

  it('thresholds change results', () => {
    const f = facts({ quantity: 22, total_loading_quantity: 22, total_unloading_quantity: 21.5 });
    expect(codes(f)).toEqual(['over_capacity', 'loading_unloading_mismatch']);
    expect(codes(f, { ...DEFAULT_CHECK_THRESHOLDS, capacity_tolerance_pct: 10, mismatch_tolerance_pct: 3 })).toEqual([]);
    expect(codes(facts({ share: 100, delivered_before: 100 }), { ...DEFAULT_CHECK_THRESHOLDS, over_share_tolerance_pct: 20 })).toEqual([]);
    expect(codes(facts({ share: 100, delivered_before: 81 }), { ...DEFAULT_CHECK_THRESHOLDS, over_share_tolerance_pct: 0 })).toEqual(['over_share']);
  });

  it('never throws on junk', () => {
    const junk = {
      quantity: Number.NaN,
      trips: Number.POSITIVE_INFINITY,
      unit: '',
      vehicle_capacity: -1,
      total_loading_quantity: Number.NaN,
      total_unloading_quantity: -3,
      completed_at: 'not a date',
      received_at: '',
      task_date: 'today',
      previous_completed_at: '',
      share: Number.NaN,
      delivered_before: Number.NaN,
      duplicate_photo_of: null,
      duplicate_ticket_of: null,
      ticket_number: null,
    } satisfies ReportFacts;
    expect(checkReport(junk)).toEqual([]);
  });
});

describe('deliveredOf', () => {
  it('prefers the unloading total, falls back to the quantity', () => {
    expect(deliveredOf({ quantity: 20, total_unloading_quantity: 19.5 })).toBe(19.5);
    expect(deliveredOf({ quantity: 20, total_unloading_quantity: null })).toBe(20);
    expect(deliveredOf({ quantity: 20, total_unloading_quantity: 0 })).toBe(20);
    expect(deliveredOf({ quantity: null, total_unloading_quantity: null })).toBe(0);
  });
});

describe('checkThresholdsSchema', () => {
  it('accepts the defaults and a partial edit', () => {
    const parsed: CheckThresholds = checkThresholdsSchema.parse(DEFAULT_CHECK_THRESHOLDS);
    expect(parsed).toEqual(DEFAULT_CHECK_THRESHOLDS);
    expect(checkThresholdsSchema.partial().parse({ min_cycle_minutes: 5 })).toEqual({ min_cycle_minutes: 5 });
  });
  it('refuses a negative percent, with a Russian message', () => {
    const r = checkThresholdsSchema.partial().safeParse({ capacity_tolerance_pct: -1 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('не может быть отрицательным');
    expect(r.error?.issues[0]?.path).toEqual(['capacity_tolerance_pct']);
  });
  it('refuses a string, with a Russian message', () => {
    const r = checkThresholdsSchema.partial().safeParse({ mismatch_tolerance_pct: '5' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('ожидается число');
  });
  it('refuses values out of range', () => {
    const p = checkThresholdsSchema.partial();
    expect(p.safeParse({ over_share_tolerance_pct: 101 }).error?.issues[0]?.message).toBe('не больше 100 %');
    expect(p.safeParse({ min_cycle_minutes: 601 }).error?.issues[0]?.message).toBe('не больше 600 мин');
    expect(p.safeParse({ late_filing_hours: 0.5 }).error?.issues[0]?.message).toBe('не меньше 1 ч');
    expect(p.safeParse({ late_filing_hours: 721 }).success).toBe(false);
    expect(p.safeParse({ late_filing_hours: Number.NaN }).success).toBe(false);
    expect(p.safeParse({ other: 1 }).success).toBe(false);
  });
});

describe('property: seeded clean reports raise nothing', () => {
  const round3 = (n: number) => Math.round(n * 1000) / 1000;

  it('for 500 reports inside every bound', () => {
    const r = seededRandom(20250305);
    const between = (lo: number, hi: number) => lo + (hi - lo) * r();
    for (let i = 0; i < 500; i++) {
      const capacity = round3(between(5, 40));
      const trips = 1 + Math.floor(r() * 5);
      // Up to capacity + 4.9 % per trip.
      const quantity = round3(capacity * trips * between(0.3, 1.049));
      const loading = r() < 0.2 ? null : quantity;
      // Unloading within 1.9 % of loading.
      const unloading = loading === null ? null : round3(loading * between(0.981, 1));
      const delivered = unloading ?? quantity;
      const share = r() < 0.3 ? null : round3(between(delivered, delivered * 20));
      const deliveredBefore = share === null ? round3(between(0, 1e4)) : round3(Math.max(0, share * 1.09 - delivered) * r());
      const day = Date.UTC(2025, Math.floor(r() * 12), 1 + Math.floor(r() * 28));
      // Completed between the day before (slack) and the end of the day after.
      const completed = day - 24 * 3600_000 + Math.floor(r() * 3 * 24 * 3600_000);
      // Received from 5 minutes before (device clock ahead) to 23 h 59 min after.
      const received = completed - 5 * 60_000 + Math.floor(r() * (24 * 60 - 1 + 5) * 60_000);
      const previous = r() < 0.2 ? null : completed - Math.floor(between(15, 600) * 60_000);
      const f: ReportFacts = {
        quantity,
        trips,
        unit: r() < 0.5 ? 'т' : 'м³',
        vehicle_capacity: capacity,
        total_loading_quantity: loading,
        total_unloading_quantity: unloading,
        completed_at: new Date(completed).toISOString(),
        received_at: new Date(received).toISOString(),
        task_date: new Date(day).toISOString().slice(0, 10),
        previous_completed_at: previous === null ? null : new Date(previous).toISOString(),
        share,
        delivered_before: deliveredBefore,
        duplicate_photo_of: null,
        duplicate_ticket_of: null,
        ticket_number: r() < 0.5 ? null : String(1000 + i),
      };
      const flags = checkReport(f);
      if (flags.length > 0) expect({ i, f, flags }).toEqual({ i, f, flags: [] });
    }
  });
});
