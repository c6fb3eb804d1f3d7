/**
 * Trip sheets (contract/trip-sheets.ts, docs/trip-sheets.md): staff open a sheet for a vehicle's day and record the
 * checks; the sheet's driver reads his sheet of the day and records the odometer through the outbox.
 */
import { answer, area, DELETE, GET, POST, PUT } from '../call.ts';
import type { Page } from '../entities.ts';
import { ALL_ROLES, DRIVER_ONLY, STAFF } from '../roles.ts';
import { odometerParams, tripSheetIdParams, tripSheetCreateSchema, tripSheetListQuery, tripSheetMineQuery, tripSheetUpdateSchema, type TripSheet } from '../trip-sheets.ts';
import { registerCreateQuery } from '../registers.ts';
import { checkListSchema, CHECK_LIST_MAX_CHARS, type CheckImportResult } from '../trip-sheet-checks.ts';

export const tripSheetCalls = area(
  GET('/trip-sheets/', { roles: STAFF, query: tripSheetListQuery, answer: answer<Page<TripSheet>>() }),
  POST('/trip-sheets/', {
    roles: STAFF,
    query: registerCreateQuery,
    body: tripSheetCreateSchema,
    status: 201,
    answer: answer<TripSheet>(),
    invalidates: ['dispatch'],
    audience: ['company:answer.company_id'],
  }),
  /**
   * The medic's or the mechanic's list (CSV or a spreadsheet's tab-separated copy) onto the day's sheets: each row's
   * mark made on the sheet it names by plate or driver, where the sheet has none; each row's outcome answered.
   */
  POST('/trip-sheets/checks', {
    roles: STAFF,
    query: registerCreateQuery,
    body: checkListSchema,
    bodyLimit: CHECK_LIST_MAX_CHARS * 3 + 64 * 1024,
    answer: answer<CheckImportResult>(),
    invalidates: ['dispatch'],
    audience: ['caller'],
  }),
  PUT('/trip-sheets/:id', { roles: STAFF, body: tripSheetUpdateSchema, answer: answer<TripSheet>(), invalidates: ['dispatch'], audience: ['company:answer.company_id'] }),
  /** The sheet on A4 (server/pdf/trip-sheet.ts): staff of the sheet's company; another company's is 404. */
  GET('/trip-sheets/:id.pdf', { roles: STAFF, params: tripSheetIdParams, answer: answer<Blob>() }),
  DELETE('/trip-sheets/:id', { roles: STAFF, status: 204, answer: answer<null>(), invalidates: ['dispatch'], audience: ['caller'] }),
  /** The signed-in driver's sheet of the day (today by default), or null. */
  GET('/trip-sheets/mine', { roles: DRIVER_ONLY, query: tripSheetMineQuery, answer: answer<TripSheet | null>() }),
  /**
   * The driver's reading through the outbox: JSON `{value, at}` (odometerSchema), or multipart with that JSON in a
   * `data` part and the dashboard's photo as one `photo` part — read by the handler as it streams, so no `body` here.
   */
  PUT('/trip-sheets/:id/odometer/:which', {
    roles: DRIVER_ONLY,
    params: odometerParams,
    answer: answer<TripSheet>(),
    invalidates: ['dispatch'],
    audience: ['company-staff:answer.company_id', 'caller'],
  }),
  /** The dashboard's photo of a reading: staff of the sheet's company and the sheet's driver; none is 404. */
  GET('/trip-sheets/:id/odometer/:which/photo', { roles: ALL_ROLES, params: odometerParams, answer: answer<unknown>() }),
);
