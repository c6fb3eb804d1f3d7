/**
 * A report's automatic checks: the pure scoring the server runs when it stores a driver's report, giving the
 * flags a dispatcher reviews. No database, no clock: everything the checks need comes in as `ReportFacts`
 * (the server gathers them), so the same inputs always give the same flags.
 *
 * Conventions:
 * - Missing or invalid data (null, NaN, an unparsable time, a non-positive capacity or share) never throws: the
 *   check that needs it simply does not fire.
 * - A tolerance is a strict bound: a value exactly at it is clean, only a value above it fires. A tiny relative
 *   epsilon absorbs floating-point noise, so 21 t against 20 t + 5 % is clean.
 * - Flags come in the order of FLAG_CODES; each detail is Russian and names the numbers behind it. Numbers are
 *   written the Russian way (comma decimal, no trailing zeros, no digit grouping) with an ordinary space before a
 *   unit or «%». A number shown next to its threshold is rounded away from it (up when the value is above the
 *   threshold, down when below), so a detail never reads «24 ч при пороге 24 ч».
 */
import { z } from 'zod';
import { TRIPS, plural } from './words.ts';

export const FLAG_CODES = [
  'over_capacity',
  'loading_unloading_mismatch',
  'duplicate_photo',
  'duplicate_ticket',
  'over_share',
  'fast_cycle',
  'late_filing',
  'time_out_of_range',
  'far_from_place',
  'no_acceptance',
  'long_wait',
  /** Raised by the customer through his link (docs/customer-link.md), never by checkReport; gone once answered. */
  'customer_dispute',
] as const;

/**
 * What the review list filters by (GET /reports/ `flag`): a flag's code; `any`: some flag; `none`: no flag at all;
 * `clean`: no fault flag (information such as a late filing allowed) — what «approve all clean» approves.
 */
export const REPORT_FLAG_FILTERS = [...FLAG_CODES, 'any', 'none', 'clean'] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

export interface ReportFlag {
  code: FlagCode;
  /** Russian, names the numbers. */
  detail: string;
}

/**
 * Flags that are information, not a fault (late_filing; long_wait: the truck waited, the driver did nothing wrong):
 * they do not keep a report out of "approve all clean".
 */
export const INFO_FLAGS: readonly FlagCode[] = Object.freeze(['late_filing', 'long_wait'] as FlagCode[]);

/** Short Russian names, for filters and badges. */
export const FLAG_LABELS: Record<FlagCode, string> = {
  over_capacity: 'Перегруз',
  loading_unloading_mismatch: 'Погрузка ≠ выгрузка',
  duplicate_photo: 'Повтор фото',
  duplicate_ticket: 'Повтор талона',
  over_share: 'Сверх доли',
  fast_cycle: 'Слишком быстрый рейс',
  late_filing: 'Подан с опозданием',
  time_out_of_range: 'Время вне диапазона',
  far_from_place: 'Отметка далеко от места',
  no_acceptance: 'Нет подписи получателя',
  long_wait: 'Долгий простой',
  customer_dispute: 'Оспорено заказчиком',
};

export interface CheckThresholds {
  /** over_capacity: allowed excess of quantity per trip over the vehicle's capacity, %. */
  capacity_tolerance_pct: number;
  /** loading_unloading_mismatch: allowed difference relative to the larger of the two totals, %. */
  mismatch_tolerance_pct: number;
  /** over_share: allowed excess of the delivered total over the driver's planned share, %. */
  over_share_tolerance_pct: number;
  /**
   * fast_cycle: the shortest plausible gap between two trips, minutes: from one loading arrival to the next on trips
   * stamped as they happened, between completion times on trips entered after the fact.
   */
  min_cycle_minutes: number;
  /** late_filing: the longest gap from completion to the server receiving the report, hours. */
  late_filing_hours: number;
}

export const DEFAULT_CHECK_THRESHOLDS: CheckThresholds = Object.freeze({
  capacity_tolerance_pct: 5,
  mismatch_tolerance_pct: 2,
  over_share_tolerance_pct: 10,
  min_cycle_minutes: 15,
  late_filing_hours: 24,
});

const bounded = (min: number, max: number, unit: string) =>
  z
    .number({ message: 'ожидается число' })
    .finite('ожидается число')
    .min(min, min === 0 ? 'не может быть отрицательным' : `не меньше ${min} ${unit}`)
    .max(max, `не больше ${max} ${unit}`);

/**
 * An admin editing the thresholds (all of them, or `.partial()` for some). Plain object (no refinements) so
 * `.partial()` works; unknown keys are refused.
 */
export const checkThresholdsSchema = z
  .object({
    capacity_tolerance_pct: bounded(0, 100, '%'),
    mismatch_tolerance_pct: bounded(0, 100, '%'),
    over_share_tolerance_pct: bounded(0, 100, '%'),
    min_cycle_minutes: bounded(0, 600, 'мин'),
    late_filing_hours: bounded(1, 720, 'ч'),
  })
  .strict();
export type CheckThresholdsPayload = z.infer<typeof checkThresholdsSchema>;

export interface ReportFacts {
  /** This report's quantity (all its trips). */
  quantity: number | null;
  /** >= 1. */
  trips: number;
  /** The task's unit text as stored, e.g. 'т' or 'м³'. */
  unit: string;
  /** The driver's vehicle capacity in the task's unit; null = unknown (no flag). */
  vehicle_capacity: number | null;
  total_loading_quantity: number | null;
  total_unloading_quantity: number | null;
  /** Device completion time, ISO-8601 UTC. */
  completed_at: string | null;
  /** When the server stored it, ISO-8601 UTC. */
  received_at: string;
  /** 'YYYY-MM-DD', the task's date (server local day). */
  task_date: string;
  /** The same driver's previous trip completion time (any task), ISO. */
  previous_completed_at: string | null;
  /** The driver's planned share on this association; null = none set. */
  share: number | null;
  /** What the driver delivered on this association before this report. */
  delivered_before: number;
  duplicate_photo_of: { report_id: number; distance: number } | null;
  duplicate_ticket_of: { report_id: number } | null;
  ticket_number: string | null;
  /** The trip's timeline (docs/trips.md); absent or null for a report entered after the fact in one form. */
  trip?: TripCheckFacts | null;
  /** A trip entered after the fact with its loading arrival typed: its cycle is read from the loading arrivals. */
  typed_cycle?: TypedCycleFacts | null;
}

/** The loading arrival typed in the after-the-fact form, and the same driver's previous one (any trip), ISO. */
export interface TypedCycleFacts {
  loading_arrived_at: string;
  previous_loading_arrived_at: string | null;
}

/** Step names as a detail writes them («прибытие на погрузку»). */
const STAMP_WORDS: Record<TripCheckStamp['step'], string> = {
  loading_arrived: 'Прибытие на погрузку',
  loading_departed: 'Выезд с погрузки',
  unloading_arrived: 'Прибытие на выгрузку',
  unloading_departed: 'Выезд с выгрузки',
};

export interface TripCheckStamp {
  step: 'loading_arrived' | 'loading_departed' | 'unloading_arrived' | 'unloading_departed';
  /** Device time and the server's receipt, ISO. */
  at: string;
  received_at: string;
  /** Metres from the place's point; null when the stamp has no position or the place no point. */
  distance_m: number | null;
  /** The place's geofence, metres. */
  radius_m: number | null;
  /** The position's accuracy, metres. */
  accuracy: number | null;
}

/** What the checks read of a trip stamped as it happened. */
export interface TripCheckFacts {
  /** This trip's loading arrival and the same driver's previous one (any task), ISO. */
  loading_arrived_at: string | null;
  previous_loading_arrived_at: string | null;
  stamps: TripCheckStamp[];
  /** Waits at loading and unloading, minutes (arrival to departure); null while a stamp is missing. */
  loading_wait_min: number | null;
  unloading_wait_min: number | null;
  /** The company's long_wait threshold, minutes (its trip settings). */
  long_wait_minutes: number;
  /** The company asks for the receiver's acceptance (per trip or per shift). */
  acceptance_required: boolean;
  /** The trip's last step is stamped. */
  finished: boolean;
  /** The trip has an acceptance (signed or a refusal recorded). */
  accepted: boolean;
}

/** A completion time may run ahead of the server's receipt by this much (device clocks drift a little). */
export const CLOCK_SKEW_MINUTES = 5;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const isNum = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const positive = (n: unknown): n is number => isNum(n) && n > 0;

/** value > limit, ignoring floating-point noise (a value equal to the limit up to rounding is not above it). */
const above = (value: number, limit: number) => value - limit > 1e-9 * Math.max(1, Math.abs(limit));

/** limit raised by pct %: capacity × (1 + pct/100), computed as (100 + pct) / 100 for fewer rounding steps. */
const withTolerance = (base: number, pct: number) => (base * (100 + pct)) / 100;

/**
 * Russian number: comma decimal, at most `digits` decimals, no trailing zeros, no grouping.
 * `round`: 'near' (default), 'up' or 'down' (toward ±∞ at that precision).
 */
export function formatNumberRu(n: number, digits = 3, round: 'near' | 'up' | 'down' = 'near'): string {
  if (!Number.isFinite(n)) return String(n);
  const f = 10 ** digits;
  const scaled = n * f;
  // A scaled value within noise of an integer is that integer (5.3 × 10 = 53.00000000000001 must not round up).
  const nearest = Math.round(scaled);
  const snapped = Math.abs(scaled - nearest) < 1e-6 ? nearest : scaled;
  const r = round === 'up' ? Math.ceil(snapped) : round === 'down' ? Math.floor(snapped) : Math.round(snapped);
  let s = (r / f).toFixed(digits);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (s === '-0') s = '0';
  return s.replace('.', ',');
}

const pctText = (n: number) => `${formatNumberRu(n, 1)} %`;

/** ISO time → epoch ms, or null when absent or unparsable. */
function parseTime(iso: string | null | undefined): number | null {
  if (typeof iso !== 'string' || iso === '') return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

/** 'YYYY-MM-DD' → the UTC midnight of that day, or null. */
function parseDay(day: string | null | undefined): number | null {
  if (typeof day !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = Date.UTC(y, mo - 1, d);
  const back = new Date(t);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? t : null;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** «05.03.2025 14:07 UTC». */
function timeText(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}
/** 'YYYY-MM-DD' → «05.03.2025». */
const dayText = (day: string) => day.split('-').reverse().join('.');

/**
 * What a report delivered: its unloading total where given and > 0 (the weighbridge at the destination),
 * else its quantity; 0 when neither is a positive number. The server's progress uses the same rule.
 */
export function deliveredOf(facts: Pick<ReportFacts, 'quantity' | 'total_unloading_quantity'>): number {
  if (positive(facts.total_unloading_quantity)) return facts.total_unloading_quantity;
  if (positive(facts.quantity)) return facts.quantity;
  return 0;
}

/** Thresholds as given, any key missing or not a finite number falling back to its default. */
function effective(thresholds: Partial<CheckThresholds> | undefined): CheckThresholds {
  const out = { ...DEFAULT_CHECK_THRESHOLDS };
  if (thresholds) {
    for (const key of Object.keys(out) as (keyof CheckThresholds)[]) {
      const v = thresholds[key];
      if (isNum(v)) out[key] = v;
    }
  }
  return out;
}

/**
 * The flags a report raises, in FLAG_CODES order; [] for a clean report. Never throws.
 *
 * - over_capacity: quantity / trips > capacity × (1 + pct/100). Needs a positive quantity, capacity, and
 *   trips >= 1.
 * - loading_unloading_mismatch: both totals > 0 and |loading − unloading| / max(loading, unloading) > pct/100.
 * - duplicate_photo / duplicate_ticket: the server found the photo's hash or the ticket number in another report.
 * - over_share: share > 0, this report delivered something (deliveredOf > 0) and delivered_before + that >
 *   share × (1 + pct/100). A report that delivers nothing does not fire even when earlier ones already exceed.
 * - fast_cycle: the gap from the driver's previous trip's completion to this one's is within
 *   [0, min_cycle_minutes). Deliberately per report, not per trip: a report of several trips is compared once
 *   against the previous completion, with the same minimum. A negative gap (reports filed out of order) does
 *   not fire; a clock far off is time_out_of_range's business.
 * - late_filing (information): received_at − completed_at > late_filing_hours.
 * - time_out_of_range: completed_at is more than CLOCK_SKEW_MINUTES after received_at (a device clock in the
 *   future), or before the task's day minus one day: task_date is the server's local day and completed_at is
 *   UTC, so a whole day's slack covers any time zone. There is no upper bound from task_date (a task may be
 *   worked after its date; received_at already bounds it).
 */
export function checkReport(facts: ReportFacts, thresholds: CheckThresholds = DEFAULT_CHECK_THRESHOLDS): ReportFlag[] {
  const t = effective(thresholds);
  const flags: ReportFlag[] = [];
  const unit = typeof facts.unit === 'string' && facts.unit.trim() !== '' ? facts.unit.trim() : '';
  const q = (n: number, round: 'near' | 'up' | 'down' = 'near') => (unit ? `${formatNumberRu(n, 3, round)} ${unit}` : formatNumberRu(n, 3, round));

  // over_capacity
  const trips = facts.trips;
  if (positive(facts.quantity) && positive(facts.vehicle_capacity) && isNum(trips) && trips >= 1) {
    const perTrip = facts.quantity / trips;
    if (above(perTrip, withTolerance(facts.vehicle_capacity, t.capacity_tolerance_pct))) {
      const total = trips === 1 ? '' : ` (${q(facts.quantity)} за ${plural(trips, TRIPS)})`;
      flags.push({
        code: 'over_capacity',
        detail: `${q(perTrip, 'up')} за рейс${total} при грузоподъёмности ${q(facts.vehicle_capacity)} (допуск ${pctText(t.capacity_tolerance_pct)})`,
      });
    }
  }

  // loading_unloading_mismatch
  const loading = facts.total_loading_quantity;
  const unloading = facts.total_unloading_quantity;
  if (positive(loading) && positive(unloading)) {
    const diff = Math.abs(loading - unloading);
    const larger = Math.max(loading, unloading);
    if (above(diff, (larger * t.mismatch_tolerance_pct) / 100)) {
      const pct = (diff / larger) * 100;
      flags.push({
        code: 'loading_unloading_mismatch',
        detail: `Погрузка ${q(loading)}, выгрузка ${q(unloading)}: расхождение ${q(diff)} (${formatNumberRu(pct, 1, 'up')} %, допуск ${pctText(t.mismatch_tolerance_pct)})`,
      });
    }
  }

  // duplicate_photo
  const photo = facts.duplicate_photo_of;
  if (photo && isNum(photo.report_id)) {
    flags.push({ code: 'duplicate_photo', detail: `Фото совпадает с фото отчёта №${photo.report_id}` });
  }

  // duplicate_ticket
  const ticket = facts.duplicate_ticket_of;
  if (ticket && isNum(ticket.report_id)) {
    const number = typeof facts.ticket_number === 'string' && facts.ticket_number.trim() !== '' ? ` № ${facts.ticket_number.trim()}` : '';
    flags.push({ code: 'duplicate_ticket', detail: `Талон${number} уже есть в отчёте №${ticket.report_id}` });
  }

  // over_share
  const delivered = deliveredOf(facts);
  if (positive(facts.share) && delivered > 0) {
    const before = isNum(facts.delivered_before) && facts.delivered_before > 0 ? facts.delivered_before : 0;
    const total = before + delivered;
    if (above(total, withTolerance(facts.share, t.over_share_tolerance_pct))) {
      const parts = before > 0 ? ` (${q(before)} ранее + ${q(delivered)} в этом отчёте)` : '';
      flags.push({
        code: 'over_share',
        detail: `Сдано ${q(total)}${parts} при доле ${q(facts.share)} (допуск ${pctText(t.over_share_tolerance_pct)})`,
      });
    }
  }

  const completed = parseTime(facts.completed_at);
  const trip = facts.trip ?? null;

  // fast_cycle: the loading arrivals of a stamped trip or of a form with its times typed; else a form's completion times
  const arrivals = trip ?? facts.typed_cycle ?? null;
  const cycleEnd = arrivals ? parseTime(arrivals.loading_arrived_at) : completed;
  const previous = parseTime(arrivals ? arrivals.previous_loading_arrived_at : facts.previous_completed_at);
  if (cycleEnd !== null && previous !== null) {
    const minutes = (cycleEnd - previous) / MINUTE;
    if (minutes >= 0 && minutes < t.min_cycle_minutes) {
      const what = arrivals ? 'от прибытия на погрузку в предыдущем рейсе до прибытия в этом' : 'после предыдущего рейса';
      flags.push({
        code: 'fast_cycle',
        detail: `${formatNumberRu(minutes, 1, 'down')} мин ${what} (минимум ${formatNumberRu(t.min_cycle_minutes, 1)} мин)`,
      });
    }
  }

  const received = parseTime(facts.received_at);

  // late_filing: only a trip entered after the fact (a stamped trip's steps may wait offline for hours)
  if (!trip && completed !== null && received !== null) {
    const hours = (received - completed) / HOUR;
    if (above(hours, t.late_filing_hours)) {
      flags.push({
        code: 'late_filing',
        detail: `Отправлен через ${formatNumberRu(hours, 1, 'up')} ч после рейса (порог ${formatNumberRu(t.late_filing_hours, 1)} ч)`,
      });
    }
  }

  // time_out_of_range: a trip's stamps each against their own receipt
  const ahead = trip?.stamps.find((s) => {
    const at = parseTime(s.at);
    const got = parseTime(s.received_at);
    return at !== null && got !== null && at - got > CLOCK_SKEW_MINUTES * MINUTE;
  });
  if (ahead) {
    flags.push({
      code: 'time_out_of_range',
      detail: `${STAMP_WORDS[ahead.step]} ${timeText(parseTime(ahead.at) as number)} позже получения сервером ${timeText(parseTime(ahead.received_at) as number)}`,
    });
  } else if (completed !== null) {
    const dayStart = parseDay(facts.task_date);
    if (!trip && received !== null && completed - received > CLOCK_SKEW_MINUTES * MINUTE) {
      flags.push({
        code: 'time_out_of_range',
        detail: `Время завершения ${timeText(completed)} позже получения сервером ${timeText(received)}`,
      });
    } else if (dayStart !== null && completed < dayStart - DAY) {
      flags.push({
        code: 'time_out_of_range',
        detail: `Время завершения ${timeText(completed)} раньше дня задания ${dayText(facts.task_date)}`,
      });
    }
  }

  if (trip) flags.push(...tripFlags(trip));
  return flags;
}

/**
 * A trip's own checks, in FLAG_CODES order:
 * - far_from_place: a stamp's distance from its place's point is above the place's radius plus the position's
 *   accuracy (the first such stamp is named, with how many there are).
 * - no_acceptance: the company asks for the receiver's acceptance, the trip is finished, and it has none.
 * - long_wait (information): a wait at loading or unloading above the company's long_wait_minutes.
 */
function tripFlags(trip: TripCheckFacts): ReportFlag[] {
  const flags: ReportFlag[] = [];
  const far = trip.stamps.filter((s) => isNum(s.distance_m) && isNum(s.radius_m) && above(s.distance_m, s.radius_m + (isNum(s.accuracy) && s.accuracy > 0 ? s.accuracy : 0)));
  const first = far[0];
  if (first && isNum(first.distance_m) && isNum(first.radius_m)) {
    const accuracy = isNum(first.accuracy) && first.accuracy > 0 ? first.accuracy : 0;
    const more = far.length > 1 ? `; таких отметок ${far.length}` : '';
    flags.push({
      code: 'far_from_place',
      detail: `${STAMP_WORDS[first.step]} в ${metresText(first.distance_m)} от места (радиус ${metresText(first.radius_m)}, точность ${metresText(accuracy)})${more}`,
    });
  }
  if (trip.acceptance_required && trip.finished && !trip.accepted) {
    flags.push({ code: 'no_acceptance', detail: 'Рейс завершён без подписи получателя и без записи об отказе, а компания требует приёмку' });
  }
  const waits: [string, number | null][] = [
    ['на погрузке', trip.loading_wait_min],
    ['на выгрузке', trip.unloading_wait_min],
  ];
  const long = waits.flatMap(([where, minutes]) => (isNum(minutes) && above(minutes, trip.long_wait_minutes) ? [`${where} ${formatNumberRu(minutes, 0, 'up')} мин`] : []));
  if (long.length > 0) {
    const parts = long.join(', ');
    flags.push({ code: 'long_wait', detail: `Простой ${parts} (порог ${formatNumberRu(trip.long_wait_minutes, 0)} мин)` });
  }
  return flags;
}

/** «2 км» from 1 km up (one decimal), else «350 м». */
export function metresText(m: number): string {
  return m >= 1000 ? `${formatNumberRu(m / 1000, 1)} км` : `${formatNumberRu(m, 0)} м`;
}
