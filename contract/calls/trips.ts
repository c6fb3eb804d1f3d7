/**
 * The trip as it happens (docs/trips.md; the shapes in contract/trips.ts): a driver's step of a trip stamped on the
 * phone, the per-shift acceptance, and the receiver's signature image. A step's and an acceptance's body is JSON, or
 * multipart with a `data` part holding that JSON beside its files, read by the handler as it streams (the report's
 * photo caps), so neither declares a `body`; the handler checks it against `tripStepBodySchema` /
 * `shiftAcceptanceSchema`.
 */
import { z } from 'zod';
import { answer, area, GET, POST, PUT, PAY } from '../call.ts';
import { ALL_ROLES, DRIVER_ONLY, STAFF } from '../roles.ts';
import { isoDate, wireId } from '../fields.ts';
import { tripStepSchema, tripUidSchema, type TripStepAnswer } from '../trips.ts';

/** PUT /trips/{trip_uid}/steps/{step}: the trip's id (a UUID) and the step's name. */
export const tripStepParamsSchema = z.object({ trip_uid: tripUidSchema, step: tripStepSchema });

/** POST /trips/acceptance: 201 the first time, 200 with `replay: true` for the same key again. */
export interface ShiftAcceptanceAnswer {
  key: string;
  replay: boolean;
  /** The listed trips the server knows already (a trip still on its way is joined when it arrives). */
  report_ids: number[];
  signature_url: string | null;
}

/** The longest period GET /tasks/trip-days/ answers (a year and a day: the figures read every stamp of it). */
export const TRIP_DAYS_MAX = 366;

/** GET /tasks/trip-days/: a period of task dates, both ends given, at most `TRIP_DAYS_MAX` days; the super-admin's company. */
export const tripDaysQuerySchema = z
  .object({ start_date: isoDate, end_date: isoDate, company_id: wireId('ожидается номер компании').optional() })
  .refine((p) => p.start_date <= p.end_date, { message: 'раньше, чем start_date', path: ['end_date'] })
  .refine((p) => (Date.parse(p.end_date) - Date.parse(p.start_date)) / 86_400_000 < TRIP_DAYS_MAX, { message: `период не длиннее ${TRIP_DAYS_MAX} дней`, path: ['end_date'] });

/** A driver's trips with a timeline (docs/trips.md «Рейсы по дням»), of one day or of one task of that day. */
export interface TripDayFigures {
  /** Trips with at least one stamp (trips entered after the fact have none and are not counted). */
  trips: number;
  /** Loading arrival → the driver's next loading arrival the same day: how many, their median and mean (minutes). */
  cycles: number;
  cycle_median_min: number | null;
  cycle_avg_min: number | null;
  /** Waits at loading (arrival → departure) and at unloading: the sum and the mean over the trips that have them. */
  loading_wait_total_min: number;
  loading_wait_avg_min: number | null;
  unloading_wait_total_min: number;
  unloading_wait_avg_min: number | null;
}

export interface DriverTripDay extends TripDayFigures {
  /** The tasks' date (the trips of a task count on its day). */
  date: string;
  driver_id: number;
  driver_name: string;
  /** The same figures per task of the day; a cycle counts with the trip it starts from. */
  tasks: (TripDayFigures & { task_id: number })[];
}

export interface TripDays {
  start_date: string;
  end_date: string;
  company_id: number;
  /** By date, then driver name; only days with a trip. */
  days: DriverTripDay[];
}

/** A step changes its report (and so its task's quantities and the pay) and the driver's state on the board. */
const STEP_STALE = ['tasks', 'reports', ...PAY, 'dispatch'] as const;

export const tripCalls = area(
  PUT('/trips/:trip_uid/steps/:step', {
    roles: DRIVER_ONLY,
    params: tripStepParamsSchema,
    status: 201,
    answer: answer<TripStepAnswer>(),
    invalidates: STEP_STALE,
    audience: ['report-task:answer.report_id', 'caller'],
  }),
  POST('/trips/acceptance', { roles: DRIVER_ONLY, status: 201, answer: answer<ShiftAcceptanceAnswer>(), invalidates: ['reports'], audience: ['caller'] }),
  /**
   * Trips per day with their cycle times and waits, per driver and per task (staff: /tasks/active, /statistics). Under
   * /tasks/ so that the steps' and reports' writes (which make `tasks` stale) refresh it.
   */
  GET('/tasks/trip-days/', { roles: STAFF, query: tripDaysQuerySchema, answer: answer<TripDays>() }),
  /** The signature's PNG (sent by the handler), for the acceptance's driver and his company's staff. */
  GET('/trips/acceptance/:id/signature', { roles: ALL_ROLES, answer: answer<unknown>() }),
);
