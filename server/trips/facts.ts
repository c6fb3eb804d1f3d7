/**
 * A trip's facts as GET /reports/{id} answers them (contract/trips.ts TripFacts; docs/trips.md): its timeline — each
 * stamp with its distance from the task's place —, the waits, the receiver's acceptance. A report entered after the
 * fact (the one form of POST /reports/) has no stamps: its one time, the completion, stands as its last step's.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { TripStampsTable } from '../db/schema-trips.ts';
import { distanceMeters } from '../../contract/geo.ts';
import { TRIP_STEPS, type Acceptance, type Position, type Timeline, type TripFacts, type TripStep, type TripWaits } from '../../contract/trips.ts';

type Q = Kysely<Database>;

export const signatureUrl = (acceptanceId: number): string => `/api/trips/acceptance/${acceptanceId}/signature`;

const emptyTimeline = (): Timeline => ({ loading_arrived: null, loading_departed: null, unloading_arrived: null, unloading_departed: null });

/** The place a step is stamped at: the task's loading place for the loading steps, else its unloading place. */
export const placeSide = (step: TripStep): 'loading' | 'unloading' => (step.startsWith('loading') ? 'loading' : 'unloading');

export interface PlacePoint {
  lat: number;
  lon: number;
  radius_m: number;
}

/** A stamp as stored, without its row id. */
export type StampRow = Omit<Selectable<TripStampsTable>, 'id' | 'wait_alerted_at'>;

export const positionOf = (row: { lat: number | null; lon: number | null; accuracy: number | null }): Position | null =>
  row.lat === null || row.lon === null ? null : { lat: row.lat, lon: row.lon, accuracy: row.accuracy ?? 0 };

/** Metres from the place's point, whole; null when either is unknown. */
export function distanceFrom(position: Position | null, place: PlacePoint | null | undefined): number | null {
  if (!position || !place) return null;
  return Math.round(distanceMeters(position, place));
}

/** The stamps of these reports, by report. */
export async function stampsOf(db: Q, reportIds: readonly number[]): Promise<Map<number, StampRow[]>> {
  const byReport = new Map<number, StampRow[]>();
  if (reportIds.length === 0) return byReport;
  const rows = await db
    .selectFrom('trip_stamps')
    .select(['report_id', 'step', 'at', 'received_at', 'lat', 'lon', 'accuracy', 'source'])
    .where('report_id', 'in', [...reportIds])
    .execute();
  for (const row of rows) byReport.set(row.report_id, [...(byReport.get(row.report_id) ?? []), row]);
  return byReport;
}

/** The task's two places with a point, for the distances. */
export async function placesOfReport(db: Q, reportId: number): Promise<Record<'loading' | 'unloading', PlacePoint | null>> {
  const row = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .leftJoin('places as lp', 'lp.id', 't.loading_place_id')
    .leftJoin('places as up', 'up.id', 't.unloading_place_id')
    .select(['lp.lat as l_lat', 'lp.lon as l_lon', 'lp.radius_m as l_radius', 'up.lat as u_lat', 'up.lon as u_lon', 'up.radius_m as u_radius'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  const point = (lat: number | null | undefined, lon: number | null | undefined, radius: number | null | undefined): PlacePoint | null =>
    lat === null || lat === undefined || lon === null || lon === undefined ? null : { lat, lon, radius_m: radius ?? 0 };
  return { loading: point(row?.l_lat, row?.l_lon, row?.l_radius), unloading: point(row?.u_lat, row?.u_lon, row?.u_radius) };
}

export function timelineOf(stamps: readonly StampRow[], places: Record<'loading' | 'unloading', PlacePoint | null>): Timeline {
  const timeline = emptyTimeline();
  for (const s of stamps) {
    const position = positionOf(s);
    timeline[s.step] = { at: s.at, received_at: s.received_at, position, source: s.source, distance_m: distanceFrom(position, places[placeSide(s.step)]) };
  }
  return timeline;
}

/** Whole minutes from a to b; null when either is missing, or when b is before a (stamps that contradict). */
export function minutesBetween(a: string | null | undefined, b: string | null | undefined): number | null {
  if (!a || !b) return null;
  const ms = Date.parse(b) - Date.parse(a);
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 60_000) : null;
}

export function waitsOf(timeline: Timeline, nextLoadingArrivedAt: string | null): TripWaits {
  return {
    loading_min: minutesBetween(timeline.loading_arrived?.at, timeline.loading_departed?.at),
    unloading_min: minutesBetween(timeline.unloading_arrived?.at, timeline.unloading_departed?.at),
    travel_min: minutesBetween(timeline.loading_departed?.at, timeline.unloading_arrived?.at),
    cycle_min: minutesBetween(timeline.loading_arrived?.at, nextLoadingArrivedAt),
  };
}

const NO_ACCEPTANCE: Acceptance = { kind: 'none', receiver_name: null, receiver_position: null, signature_url: null, refused_reason: null, at: null, position: null, scope: null };

/** The latest acceptance by the trip's driver naming the trip. */
export async function acceptanceOf(db: Q, tripUid: string | null, driverId: number): Promise<Acceptance> {
  if (tripUid === null) return NO_ACCEPTANCE;
  const row = await db
    .selectFrom('trip_acceptances as a')
    .innerJoin('trip_acceptance_trips as at', 'at.acceptance_id', 'a.id')
    .selectAll('a')
    .where('at.trip_uid', '=', tripUid)
    .where('a.driver_id', '=', driverId)
    .orderBy('a.id', 'desc')
    .executeTakeFirst();
  if (!row) return NO_ACCEPTANCE;
  return {
    kind: row.kind,
    receiver_name: row.receiver_name,
    receiver_position: row.receiver_position,
    signature_url: row.signature_key ? signatureUrl(row.id) : null,
    refused_reason: row.refused_reason,
    at: row.at,
    position: positionOf(row),
    scope: row.scope,
  };
}

/** The driver's loading arrival before `at` (or after it), on another trip. */
export async function neighbourArrival(db: Q, driverId: number, reportId: number, at: string, side: 'previous' | 'next') {
  return db
    .selectFrom('trip_stamps as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .select(['s.report_id', 's.at'])
    .where('r.driver_id', '=', driverId)
    .where('s.step', '=', 'loading_arrived')
    .where('s.report_id', '<>', reportId)
    .where('s.at', side === 'previous' ? '<' : '>', at)
    .orderBy('s.at', side === 'previous' ? 'desc' : 'asc')
    .orderBy('s.report_id')
    .executeTakeFirst();
}

export async function tripFacts(db: Q, reportId: number): Promise<TripFacts> {
  const report = await db
    .selectFrom('reports')
    .select(['id', 'driver_id', 'trip_uid', 'after_the_fact', 'completed_at', 'created_at'])
    .where('id', '=', reportId)
    .executeTakeFirstOrThrow();
  const [stamps, places] = await Promise.all([stampsOf(db, [reportId]), placesOfReport(db, reportId)]);
  const timeline = timelineOf(stamps.get(reportId) ?? [], places);
  // Entered after the fact: its completion is its last step when that time was not typed (docs/trips.md).
  const formed = report.after_the_fact === 1 || TRIP_STEPS.every((step) => timeline[step] === null);
  if (formed && timeline.unloading_departed === null && report.completed_at) {
    timeline.unloading_departed = { at: report.completed_at, received_at: report.created_at, position: null, source: 'form', distance_m: null };
  }
  const arrived = timeline.loading_arrived?.at;
  const [next, acceptance] = await Promise.all([
    arrived ? neighbourArrival(db, report.driver_id, reportId, arrived, 'next').then((n) => n?.at ?? null) : Promise.resolve(null),
    acceptanceOf(db, report.trip_uid, report.driver_id),
  ]);
  return { trip_uid: report.trip_uid, timeline, waits: waitsOf(timeline, next), acceptance, after_the_fact: report.after_the_fact === 1 };
}
