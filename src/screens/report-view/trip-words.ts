/**
 * What /reports/{id} says about a trip's timeline (docs/trips.md), pure: how a stamp was made, how far from its
 * place and how accurate, its point on a map, and the waits in hours and minutes.
 */
import { metresText } from '../../../contract/report-checks.ts';
import type { Position, StampSource, TimelineStamp, TripWaits } from '../../../contract/trips.ts';
import { minutesText } from '../../parts/trips/trip-days.ts';

/** How each stamp was made, as staff read it. */
export const STAMP_SOURCE_WORDS: Record<StampSource, string> = {
  tap: 'отметка водителя',
  auto: 'автоматически по геозоне',
  corrected: 'время исправлено водителем',
  form: 'внесено задним числом',
};

/** The point on Yandex Maps with a pin (`pt` is longitude first). */
export function mapLink(position: Pick<Position, 'lat' | 'lon'>): string {
  const c = (n: number) => String(Math.round(n * 1e6) / 1e6);
  return `https://yandex.ru/maps/?pt=${c(position.lon)},${c(position.lat)}&z=16&l=map`;
}

/** «в 120 м от места · точность ±15 м», «координаты места неизвестны · точность ±15 м», «без координат». */
export function stampPlaceText(stamp: Pick<TimelineStamp, 'position' | 'distance_m'>): string {
  if (!stamp.position) return 'без координат';
  const where = stamp.distance_m === null ? 'координаты места неизвестны' : `в ${metresText(stamp.distance_m)} от места`;
  return `${where} · точность ±${metresText(stamp.position.accuracy)}`;
}

export { minutesText };

export interface WaitLine {
  key: keyof TripWaits;
  label: string;
  minutes: number | null;
  /** A wait at loading or unloading over the company's long-wait threshold. */
  long: boolean;
  /** Why it is unknown. */
  missing: string;
}

/** The four lines of the waits, the простой over the threshold marked. */
export function waitLines(waits: TripWaits, longWaitMinutes: number | null): WaitLine[] {
  const over = (m: number | null) => m !== null && longWaitMinutes !== null && m > longWaitMinutes;
  return [
    { key: 'loading_min', label: 'Простой на погрузке', minutes: waits.loading_min, long: over(waits.loading_min), missing: 'нет отметок прибытия и выезда' },
    { key: 'travel_min', label: 'В пути с грузом', minutes: waits.travel_min, long: false, missing: 'нет отметок выезда и прибытия' },
    { key: 'unloading_min', label: 'Простой на выгрузке', minutes: waits.unloading_min, long: over(waits.unloading_min), missing: 'нет отметок прибытия и выезда' },
    { key: 'cycle_min', label: 'Цикл до следующей погрузки', minutes: waits.cycle_min, long: false, missing: 'следующего рейса водителя ещё нет' },
  ];
}
