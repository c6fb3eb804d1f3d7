/** A driver's state on the board in words (docs/trips.md «The board»), pure: the server's state, the clock now. */
import { tripStateText, type DriverTripState } from '../../../contract/trips.ts';
import { formatClock } from '../../ui/format.ts';

/** «на погрузке с 10:42», «в пути с грузом с 11:05», «на выгрузке с 11:40», «свободен», «нет данных 95 мин». */
export function boardStateText(trip: DriverTripState, now: number): string {
  const since = trip.since === null ? null : Date.parse(trip.since);
  const valid = since !== null && !Number.isNaN(since);
  const silent = valid ? Math.max(0, Math.floor((now - since) / 60_000)) : 0;
  return tripStateText(trip.state, valid ? formatClock(since) : null, silent);
}
