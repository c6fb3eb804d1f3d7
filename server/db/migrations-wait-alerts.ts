/**
 * The long-wait alert raised once per wait (issue 32; docs/trips.md «Оповещение о долгом простое»): an arrival stamp
 * carries when its wait was alerted. The job claims a wait by setting it in one conditional UPDATE (`IS NULL`), so of
 * two instances, or of a pass repeated after a restart, only one raises it. Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration024(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('trip_stamps').addColumn('wait_alerted_at', 'text').execute();
    },
  };
}
