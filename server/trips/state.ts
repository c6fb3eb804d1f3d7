/**
 * A driver's state on the board (contract/trips.ts DriverTripState; docs/trips.md), from his latest trip's steps:
 * arrived at loading → «loading», departed → «loaded», arrived at unloading → «unloading», departed → «free»; a
 * running trip with no step for the company's `no_data_minutes` → «no_data» since its last step; no trip → «free».
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { TRIP_STEPS, type DriverTripState, type TripState, type TripStep } from '../../contract/trips.ts';

const STATE_AFTER: Record<TripStep, TripState> = {
  loading_arrived: 'loading',
  loading_departed: 'loaded',
  unloading_arrived: 'unloading',
  unloading_departed: 'free',
};

/** How far back a running trip is looked for. */
const LOOKBACK_MS = 2 * 86_400_000;

/**
 * The drivers' trip stamps since a time (the device's; a stamp's offset may move the edge by hours, which a two-day
 * lookback absorbs). From the stamps of the last days (their (step, at) index), then each one's report by its key:
 * starting from the drivers' reports walked every trip they ever filed (a 200-truck carrier's three years: 6.6 s
 * for one board).
 */
export function recentStamps(db: Kysely<Database>, driverIds: readonly number[], since: string) {
  return db
    .selectFrom('trip_stamps as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .select(['r.driver_id', 'r.id', 'r.trip_uid', 's.step', 's.at'])
    .where('s.step', 'in', [...TRIP_STEPS])
    .where('s.at', '>=', since)
    .where('r.driver_id', 'in', [...driverIds]);
}

export async function driverTripStates(db: Kysely<Database>, driverIds: readonly number[], noDataMinutes: number, now = Date.now()): Promise<Map<number, DriverTripState>> {
  const states = new Map<number, DriverTripState>();
  if (driverIds.length === 0) return states;
  const rows = await recentStamps(db, driverIds, new Date(now - LOOKBACK_MS).toISOString()).execute();
  // Per driver, the trip with the latest stamp; within it, the furthest step (steps may arrive out of order).
  const latest = new Map<number, { id: number; at: string }>();
  for (const row of rows) {
    const seen = latest.get(row.driver_id);
    if (!seen || row.at > seen.at) latest.set(row.driver_id, { id: row.id, at: row.at });
  }
  for (const [driverId, trip] of latest) {
    const stamps = rows.filter((r) => r.id === trip.id);
    const last = stamps.reduce((a, b) => (TRIP_STEPS.indexOf(b.step) > TRIP_STEPS.indexOf(a.step) ? b : a));
    const state = STATE_AFTER[last.step];
    const silent = now - Date.parse(trip.at) > noDataMinutes * 60_000;
    states.set(driverId, { state: state !== 'free' && silent ? 'no_data' : state, since: state !== 'free' && silent ? trip.at : last.at, trip_uid: last.trip_uid });
  }
  return states;
}

export const FREE: DriverTripState = Object.freeze({ state: 'free', since: null, trip_uid: null });
