/**
 * The trip as it happens (docs/trips.md; the shapes in contract/trips.ts): a driver's step of a trip stamped on the
 * phone, the per-shift acceptance, and the receiver's signature image. A step's and an acceptance's body is JSON, or
 * multipart with a `data` part holding that JSON beside its files, read by the handler as it streams (the report's
 * photo caps), so neither declares a `body`; the handler checks it against `tripStepBodySchema` /
 * `shiftAcceptanceSchema`.
 */
import { z } from 'zod';
import { answer, area, GET, POST, PUT, PAY } from '../call.ts';
import { ALL_ROLES, DRIVER_ONLY } from '../roles.ts';
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
  /** The signature's PNG (sent by the handler), for the acceptance's driver and his company's staff. */
  GET('/trips/acceptance/:id/signature', { roles: ALL_ROLES, answer: answer<unknown>() }),
);
