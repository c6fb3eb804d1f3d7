/**
 * The trip's tables (migration 014; docs/trips.md): a report's timeline stamps and the receiver's acceptances. Part of
 * `Database` (schema.ts). Times are ISO-8601 text: `at` the device's, `received_at`/`created_at` the server's.
 */
import type { ColumnType, Generated } from 'kysely';
import type { StampSource, TripStep } from '../../contract/trips.ts';

type Id = Generated<number>;

/** One stamp of a trip's timeline: one per report and step. */
export interface TripStampsTable {
  id: Id;
  report_id: number;
  step: TripStep;
  at: string;
  received_at: string;
  lat: number | null;
  lon: number | null;
  accuracy: number | null;
  source: StampSource;
  /** An arrival only: when its running wait passed the threshold and was alerted (server/trips/wait-alerts.ts; migration 024). */
  wait_alerted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The driver's confirmation (ПЭП) on a trip's step, written with its stamp (migration 049). */
export interface TripConfirmationsTable {
  id: Id;
  report_id: number;
  step: 'loading_departed' | 'unloading_departed';
  driver_id: number;
  at: string;
  lat: number | null;
  lon: number | null;
  accuracy: number | null;
  /** The mass (in the task's unit) as the step recorded it. */
  quantity: number | null;
  remarks: string | null;
  created_at: string;
}

/** The receiver's acceptance of one trip (`scope` 'trip', keyed by the trip's id) or of a shift's trips ('shift'). */
export interface TripAcceptancesTable {
  id: Id;
  driver_id: number;
  /** The trip's id for a trip's acceptance, the phone's key for a shift's: unique per driver. */
  key: string;
  scope: 'trip' | 'shift';
  kind: 'signed' | 'refused';
  receiver_name: string | null;
  receiver_position: string | null;
  /** The signature PNG in file storage, when signed with one. */
  signature_key: string | null;
  /** JSON of the strokes the signature was drawn with. */
  strokes: string | null;
  refused_reason: string | null;
  at: string;
  lat: number | null;
  lon: number | null;
  accuracy: number | null;
  created_at: string;
}

/** Which trips (by their ids) an acceptance is for. */
export interface TripAcceptanceTripsTable {
  acceptance_id: number;
  trip_uid: string;
}
