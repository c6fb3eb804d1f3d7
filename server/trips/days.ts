/**
 * Trips per day with their cycle times and waits (GET /tasks/trip-days/; docs/trips.md «Рейсы по дням»): per driver
 * and day — the day is the task's date —, and per task of that day. Read from the timeline rows of the period's tasks
 * in one query (bounded by the period, at most a year: `TRIP_DAYS_MAX`), folded here: the median needs the cycles in
 * order, which neither database's SQL gives alike.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DriverTripDay, TripDayFigures } from '../../contract/calls/trips.ts';
import type { TripStep } from '../../contract/trips.ts';
import { minutesBetween } from './facts.ts';

interface Trip {
  reportId: number;
  taskId: number;
  stamps: Partial<Record<TripStep, string>>;
  /** Minutes to the driver's next loading arrival of the day, when both are stamped. */
  cycle: number | null;
}

const mean = (xs: number[]): number | null => (xs.length === 0 ? null : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length));

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

const present = (xs: (number | null)[]): number[] => xs.filter((x): x is number => x !== null);

export function figuresOf(trips: readonly Trip[]): TripDayFigures {
  const cycles = present(trips.map((t) => t.cycle));
  const loading = present(trips.map((t) => minutesBetween(t.stamps.loading_arrived, t.stamps.loading_departed)));
  const unloading = present(trips.map((t) => minutesBetween(t.stamps.unloading_arrived, t.stamps.unloading_departed)));
  return {
    trips: trips.length,
    cycles: cycles.length,
    cycle_median_min: median(cycles),
    cycle_avg_min: mean(cycles),
    loading_wait_total_min: loading.reduce((a, b) => a + b, 0),
    loading_wait_avg_min: mean(loading),
    unloading_wait_total_min: unloading.reduce((a, b) => a + b, 0),
    unloading_wait_avg_min: mean(unloading),
  };
}

/** The driver's trips of one day, each with its cycle to his next loading arrival that day (by device time). */
function withCycles(trips: Trip[]): Trip[] {
  const arrivals = trips
    .filter((t) => t.stamps.loading_arrived !== undefined)
    .sort((a, b) => Date.parse(a.stamps.loading_arrived!) - Date.parse(b.stamps.loading_arrived!));
  for (let i = 0; i + 1 < arrivals.length; i++) arrivals[i]!.cycle = minutesBetween(arrivals[i]!.stamps.loading_arrived, arrivals[i + 1]!.stamps.loading_arrived);
  return trips;
}

export async function tripDays(db: Kysely<Database>, companyId: number, start: string, end: string): Promise<DriverTripDay[]> {
  const rows = await db
    .selectFrom('trip_stamps as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .select(['t.date', 't.id as task_id', 'r.driver_id', 'u.name', 'r.id as report_id', 's.step', 's.at'])
    .where('t.company_id', '=', companyId)
    .where('t.date', '>=', start)
    .where('t.date', '<=', end)
    .execute();

  // date → driver → report → trip
  const days = new Map<string, { date: string; driverId: number; name: string; trips: Map<number, Trip> }>();
  for (const row of rows) {
    const key = `${row.date}|${row.driver_id}`;
    let day = days.get(key);
    if (!day) days.set(key, (day = { date: row.date, driverId: row.driver_id, name: row.name, trips: new Map() }));
    let trip = day.trips.get(row.report_id);
    if (!trip) day.trips.set(row.report_id, (trip = { reportId: row.report_id, taskId: row.task_id, stamps: {}, cycle: null }));
    trip.stamps[row.step] = row.at;
  }

  return [...days.values()]
    .sort((a, b) => (a.date === b.date ? a.name.localeCompare(b.name, 'ru') || a.driverId - b.driverId : a.date < b.date ? -1 : 1))
    .map((day) => {
      const trips = withCycles([...day.trips.values()]);
      const taskIds = [...new Set(trips.map((t) => t.taskId))].sort((a, b) => a - b);
      return {
        date: day.date,
        driver_id: day.driverId,
        driver_name: day.name,
        ...figuresOf(trips),
        tasks: taskIds.map((taskId) => ({ task_id: taskId, ...figuresOf(trips.filter((t) => t.taskId === taskId)) })),
      };
    });
}
