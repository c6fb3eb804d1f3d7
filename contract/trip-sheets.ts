/**
 * Trip sheets (путевой лист; ЭПЛ since 01.09.2026; issue 33 §2, docs/trip-sheets.md): one per vehicle per working
 * day, with the requisites of the Минтранса order on trip sheets: its number and period, the owner (the carrier), the
 * vehicle, the driver, the pre-trip and post-trip medical checks and the pre-trip technical check (date, time and the
 * medic's or mechanic's name), the odometer at departure and at return, the times of departure and return. Staff
 * open a sheet and record the checks; the driver records the odometer (a number, offline, exactly once per reading).
 * `missingTripSheet` says, in Russian, what a sheet still lacks, so nothing reads as complete half-filled.
 */
import { z } from 'zod';
import { isoDate, MAX_ID, text, wireId, wireInt } from './fields.ts';

const deviceTime = z.iso.datetime({ offset: true, message: 'ожидается время ISO 8601' });

/** A check mark: when it was made and by whom (the medic's or the mechanic's name). */
export const checkMarkSchema = z
  .object({
    at: deviceTime,
    name: text('ожидается имя').min(2, 'укажите имя').max(120, 'не длиннее 120 символов'),
  })
  .strict();
export type CheckMark = z.infer<typeof checkMarkSchema>;

const odometer = z
  .number({ message: 'ожидается показание одометра, км' })
  .int('показание одометра — целое число километров')
  .min(0, 'показание одометра не может быть отрицательным')
  .max(9_999_999, 'показание одометра не больше 9 999 999 км');

/** POST /trip-sheets/: a vehicle's day with its driver. */
export const tripSheetCreateSchema = z
  .object({
    vehicle_id: z.number({ message: 'выберите машину' }).int().positive().max(MAX_ID),
    driver_id: z.number({ message: 'выберите водителя' }).int().positive().max(MAX_ID),
    date: isoDate,
  })
  .strict();
export type TripSheetCreate = z.infer<typeof tripSheetCreateSchema>;

/** PUT /trip-sheets/{id} (staff): each field absent stays, null clears. */
export const tripSheetUpdateSchema = z
  .object({
    driver_id: z.number({ message: 'выберите водителя' }).int().positive().max(MAX_ID).optional(),
    pre_medical: checkMarkSchema.nullable().optional(),
    pre_technical: checkMarkSchema.nullable().optional(),
    post_medical: checkMarkSchema.nullable().optional(),
    departure_at: deviceTime.nullable().optional(),
    return_at: deviceTime.nullable().optional(),
    odometer_start: odometer.nullable().optional(),
    odometer_end: odometer.nullable().optional(),
  })
  .strict();
export type TripSheetUpdate = z.infer<typeof tripSheetUpdateSchema>;

/**
 * PUT /trip-sheets/{id}/odometer/{which} (the sheet's driver, through the outbox): the reading at the shift's start
 * (also the departure time) or end (the return time). Idempotent: the same reading again answers the stored one.
 */
export const ODOMETER_READINGS = ['start', 'end'] as const;
export type OdometerReading = (typeof ODOMETER_READINGS)[number];
export const odometerSchema = z.object({ value: odometer, at: deviceTime }).strict();
export const odometerParams = z.object({
  id: wireId('ожидается номер путевого листа'),
  which: z.enum(ODOMETER_READINGS, { message: 'ожидается start (выезд) или end (возвращение)' }),
});
/** GET /trip-sheets/{id}.pdf: the `.pdf` ends the id (its type is not read from the path). */
export const tripSheetIdParams = z.object({ id: wireId('ожидается номер путевого листа') });
export type OdometerPayload = z.infer<typeof odometerSchema>;

export const tripSheetListQuery = z.object({
  date: isoDate.optional(),
  vehicle_id: wireId('ожидается номер машины').optional(),
  /** A plate or a driver's name, any part of it. */
  q: z.string({ message: 'Поиск: ожидается текст' }).trim().max(100, 'Поиск: не длиннее 100 символов').optional(),
  company_id: wireId('ожидается номер компании').optional(),
  limit: wireInt(1, 500).default(200),
  offset: wireInt(0, MAX_ID).default(0),
});
export type TripSheetListQuery = z.infer<typeof tripSheetListQuery>;

export const tripSheetMineQuery = z.object({ date: isoDate.optional() });

export interface TripSheet {
  id: number;
  company_id: number;
  /** Numbered per company per year without gaps: «12/2026». */
  number: number;
  year: number;
  date: string;
  vehicle: { id: number; plate: string; make: string | null; model: string | null; body_type: string | null; ownership: string | null; trailer_plate: string | null };
  driver: { id: number; name: string; license_number: string | null; license_issued: string | null };
  pre_medical: CheckMark | null;
  pre_technical: CheckMark | null;
  post_medical: CheckMark | null;
  departure_at: string | null;
  return_at: string | null;
  odometer_start: number | null;
  odometer_end: number | null;
  /** Whether the driver's reading came with the dashboard's photo (GET /trip-sheets/{id}/odometer/{which}/photo). */
  odometer_start_photo: boolean;
  odometer_end_photo: boolean;
  /** Kilometres run, once both readings are in. */
  distance_km: number | null;
  /** What the sheet still lacks (Russian), in the order it is filled; empty: complete. */
  missing: string[];
  /** Whether DELETE may take it: the year's last sheet, still empty (numbers run without gaps; a filled one is a record). */
  can_delete: boolean;
  created_at: string;
  updated_at: string;
}

/** The sheet's facts, as `missingTripSheet` reads them. */
export type TripSheetFacts = Pick<TripSheet, 'vehicle' | 'driver' | 'pre_medical' | 'pre_technical' | 'post_medical' | 'departure_at' | 'return_at' | 'odometer_start' | 'odometer_end'>;

/** What a sheet lacks before it is complete, in the order of its day. */
export function missingTripSheet(s: TripSheetFacts): string[] {
  const missing: string[] = [];
  if (!s.driver.license_number) missing.push('номер водительского удостоверения (карточка водителя)');
  if (!s.vehicle.make) missing.push('марка машины (карточка машины)');
  if (!s.pre_medical) missing.push('предрейсовый медосмотр');
  if (!s.pre_technical) missing.push('предрейсовый техосмотр');
  if (s.odometer_start === null) missing.push('показание одометра при выезде');
  if (!s.departure_at) missing.push('время выезда');
  if (s.odometer_end === null) missing.push('показание одометра при возвращении');
  if (!s.return_at) missing.push('время возвращения');
  if (!s.post_medical) missing.push('послерейсовый медосмотр');
  return missing;
}

/** Whether anything was recorded on the sheet (a check, a time or a reading): a filled sheet is a record. */
export function tripSheetFilled(s: Pick<TripSheet, 'departure_at' | 'return_at' | 'odometer_start' | 'odometer_end' | 'pre_medical' | 'pre_technical' | 'post_medical'>): boolean {
  return Boolean(s.pre_medical || s.pre_technical || s.post_medical || s.departure_at || s.return_at || s.odometer_start !== null || s.odometer_end !== null);
}

/**
 * The sheet's own consistency, each a Russian refusal naming the fields: the return after the departure, the end
 * reading not below the start one, the checks in their order.
 */
export function tripSheetProblems(s: Pick<TripSheet, 'departure_at' | 'return_at' | 'odometer_start' | 'odometer_end' | 'pre_medical' | 'post_medical'>): string[] {
  const problems: string[] = [];
  const t = (iso: string | null) => (iso ? Date.parse(iso) : NaN);
  if (s.departure_at && s.return_at && t(s.return_at) < t(s.departure_at)) problems.push('return_at: время возвращения раньше времени выезда');
  if (s.odometer_start !== null && s.odometer_end !== null && s.odometer_end < s.odometer_start) {
    problems.push(`odometer_end: показание при возвращении (${s.odometer_end} км) меньше, чем при выезде (${s.odometer_start} км)`);
  }
  if (s.pre_medical && s.departure_at && t(s.pre_medical.at) > t(s.departure_at)) problems.push('pre_medical: предрейсовый медосмотр позже выезда');
  if (s.post_medical && s.return_at && t(s.post_medical.at) < t(s.return_at)) problems.push('post_medical: послерейсовый медосмотр раньше возвращения');
  return problems;
}
