/**
 * The words of a trip's durations and of the trips per day with their cycles and waits (docs/trips.md «Рейсы по
 * дням»; GET /tasks/trip-days/), pure: /tasks/active and /statistics show them, /reports/{id} its waits.
 */
import type { DriverTripDay, TripDayFigures } from '../../../contract/calls/trips.ts';

/** «45 мин», «1 ч 15 мин», «2 ч»; «—» when unknown. */
export function minutesText(minutes: number | null): string {
  if (minutes === null) return '—';
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} мин`;
  const rest = m % 60;
  return rest === 0 ? `${Math.floor(m / 60)} ч` : `${Math.floor(m / 60)} ч ${rest} мин`;
}

/** «1 ч 40 мин / 1 ч 30 мин»: the median and the mean cycle; «—» without one. */
export const cycleText = (f: TripDayFigures): string => (f.cycles === 0 ? '—' : `${minutesText(f.cycle_median_min)} / ${minutesText(f.cycle_avg_min)}`);

/** «1 ч (в среднем 20 мин)»: a wait's sum and its mean (the sum alone when they are one); «—» when no trip has that wait. */
export function waitText(total: number, avg: number | null): string {
  if (avg === null) return '—';
  return total === avg ? minutesText(total) : `${minutesText(total)} (в среднем ${minutesText(avg)})`;
}

/** One line for a driver's day or a task: «рейсов 4 · цикл 1 ч 40 мин / 1 ч 30 мин · погрузка 1 ч (в среднем 20 мин) · …». */
export function tripDayLine(f: TripDayFigures): string {
  const parts = [`рейсов ${f.trips}`];
  if (f.cycles > 0) parts.push(`цикл ${cycleText(f)}`);
  if (f.loading_wait_avg_min !== null) parts.push(`погрузка ${waitText(f.loading_wait_total_min, f.loading_wait_avg_min)}`);
  if (f.unloading_wait_avg_min !== null) parts.push(`выгрузка ${waitText(f.unloading_wait_total_min, f.unloading_wait_avg_min)}`);
  return parts.join(' · ');
}

/** What the screens say where a day has no trip stamped as it happened. */
export const NO_TRIP_DAYS = 'Рейсов с отметками времени нет';

/** Why a day with reports may have none. */
export const NO_TRIP_DAYS_WHY = 'Рейсы, внесённые задним числом, не считаются: у них нет отметок прибытия и отъезда.';

/** A driver's day in the answer, and one of his tasks in it. */
export function findDay(days: readonly DriverTripDay[], date: string, driverId: number | null): DriverTripDay | undefined {
  return days.find((d) => d.date === date && d.driver_id === driverId);
}
