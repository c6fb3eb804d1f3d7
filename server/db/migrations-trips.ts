/**
 * The trip as it happens (issue 32; docs/trips.md): a report becomes a trip with a timeline. The phone's trip id
 * (`trip_uid`, unique) and whether the trip was entered after the fact go on the report (reports filed so far were:
 * `after_the_fact` 1); the four stamps of its timeline (`trip_stamps`, one row per report and step: the device's
 * time, the server's receipt time, the position and how it was made); the receiver's acceptance of one trip or of a
 * shift's trips (`trip_acceptances`, idempotent by its key per driver; `trip_acceptance_trips` names the trips by
 * their ids, so an acceptance may reach the server before a trip it lists); the company's trip settings as JSON beside
 * its check thresholds. Append-only, as migrations.ts.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration014(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;
  // A position as the Geolocation API gives it: each null when the driver did not allow it.
  const position = <B extends string, C extends string>(t: CreateTableBuilder<B, C>) => t.addColumn('lat', real).addColumn('lon', real).addColumn('accuracy', real);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('reports').addColumn('trip_uid', 'text').execute();
      await db.schema.alterTable('reports').addColumn('after_the_fact', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      // A plain unique index: both databases let many reports without a trip id (NULL) share it.
      await db.schema.createIndex('reports_trip_uid_key').unique().on('reports').column('trip_uid').execute();
      await db.schema.alterTable('companies').addColumn('trip_settings', 'text').execute();

      await db.schema
        .createTable('trip_stamps')
        .addColumn('id', 'integer', id)
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .$call(position)
        .addColumn('source', 'text', (c) => c.notNull())
        .addUniqueConstraint('trip_stamps_report_step_uq', ['report_id', 'step'])
        .execute();
      // A driver's cycle reads his loading arrivals by time.
      await db.schema.createIndex('trip_stamps_step_at_idx').on('trip_stamps').columns(['step', 'at']).execute();

      await db.schema
        .createTable('trip_acceptances')
        .addColumn('id', 'integer', id)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('receiver_name', 'text')
        .addColumn('receiver_position', 'text')
        .addColumn('signature_key', 'text')
        .addColumn('strokes', 'text')
        .addColumn('refused_reason', 'text')
        .addColumn('at', 'text', (c) => c.notNull())
        .$call(position)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('trip_acceptances_key_uq', ['driver_id', 'key'])
        .execute();
      await db.schema
        .createTable('trip_acceptance_trips')
        .addColumn('acceptance_id', 'integer', (c) => c.notNull().references('trip_acceptances.id').onDelete('cascade'))
        .addColumn('trip_uid', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('trip_acceptance_trips_pk', ['trip_uid', 'acceptance_id'])
        .execute();
    },
  };
}
