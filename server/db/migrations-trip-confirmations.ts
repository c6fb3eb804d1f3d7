/**
 * The driver's confirmation of a trip's cargo by his simple electronic signature (issue 33 §1; docs/documents.md
 * «The driver's confirmation»): one row per trip and step («Груз принят к перевозке» on the loading departure, «Груз
 * сдан» on the unloading departure), written with its stamp, so a replayed step makes no second one. A new table:
 * nothing to rewrite on a large database. Append-only, as migrations.ts.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration049(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trip_confirmations')
        .addColumn('id', 'integer', id)
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('lat', real)
        .addColumn('lon', real)
        .addColumn('accuracy', real)
        .addColumn('quantity', real)
        .addColumn('remarks', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('trip_confirmations_report_step_uq', ['report_id', 'step'])
        .execute();
    },
  };
}
