/**
 * The dashboard's photo beside each odometer reading of a trip sheet (issue 33 §2; docs/trip-sheets.md «The driver's
 * odometer»): the stored file's key, null when the reading came without one (staff typed it). Append-only, as
 * migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration030(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('trip_sheets').addColumn('odometer_start_photo', 'text').execute();
      await db.schema.alterTable('trip_sheets').addColumn('odometer_end_photo', 'text').execute();
    },
  };
}
