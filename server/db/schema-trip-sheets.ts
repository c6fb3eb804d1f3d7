/** The trip sheets' table (migration 018; contract/trip-sheets.ts). */
import type { Generated } from 'kysely';

export interface TripSheetsTable {
  id: Generated<number>;
  company_id: number;
  vehicle_id: number;
  driver_id: number;
  /** YYYY-MM-DD, the vehicle's working day. */
  date: string;
  year: number;
  /** Per company per year, without gaps. */
  number: number;
  pre_medical_at: string | null;
  pre_medical_name: string | null;
  pre_technical_at: string | null;
  pre_technical_name: string | null;
  post_medical_at: string | null;
  post_medical_name: string | null;
  departure_at: string | null;
  return_at: string | null;
  odometer_start: number | null;
  odometer_end: number | null;
  /** The dashboard's photo of each reading (migration 030): a FileStorage key, null without one. */
  odometer_start_photo: string | null;
  odometer_end_photo: string | null;
  created_at: string;
  updated_at: string;
}
