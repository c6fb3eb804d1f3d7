/**
 * Trip sheets (issue 33 §2, docs/trip-sheets.md): one per vehicle per day, numbered per company per year. Append-only,
 * as migrations.ts.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration018(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trip_sheets')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('vehicle_id', 'integer', (c) => c.notNull().references('vehicles.id').onDelete('restrict'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('restrict'))
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('pre_medical_at', 'text')
        .addColumn('pre_medical_name', 'text')
        .addColumn('pre_technical_at', 'text')
        .addColumn('pre_technical_name', 'text')
        .addColumn('post_medical_at', 'text')
        .addColumn('post_medical_name', 'text')
        .addColumn('departure_at', 'text')
        .addColumn('return_at', 'text')
        .addColumn('odometer_start', 'integer')
        .addColumn('odometer_end', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trip_sheets_vehicle_day').unique().on('trip_sheets').columns(['vehicle_id', 'date']).execute();
      await db.schema.createIndex('trip_sheets_number').unique().on('trip_sheets').columns(['company_id', 'year', 'number']).execute();
      await db.schema.createIndex('trip_sheets_company_day').on('trip_sheets').columns(['company_id', 'date']).execute();
      await db.schema.createIndex('trip_sheets_driver_day').on('trip_sheets').columns(['driver_id', 'date']).execute();
    },
  };
}
