/**
 * The customer's price list (issue 34 §1; docs/prices.md): `price_lines`, one row per version of a customer's price
 * by cargo, route and unit, in kopecks; a task keeps the line its price came from, or that staff typed it. Tasks
 * priced before the list existed were typed by hand: they say «вручную». Append-only, as migrations.ts.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration015(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('price_lines')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('counterparty_id', 'integer', (c) => c.notNull().references('counterparties.id').onDelete('cascade'))
        .addColumn('cargo', 'text')
        .addColumn('cargo_key', 'text', (c) => c.notNull())
        .addColumn('loading_place_id', 'integer', (c) => c.references('places.id').onDelete('cascade'))
        .addColumn('unloading_place_id', 'integer', (c) => c.references('places.id').onDelete('cascade'))
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('price_kop', 'bigint', (c) => c.notNull())
        .addColumn('vat_mode', 'text', (c) => c.notNull())
        .addColumn('vat_rate', 'integer')
        .addColumn('free_minutes', 'integer')
        .addColumn('valid_from', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One version per cargo, route, unit and day in a customer's list.
      await sql`create unique index price_lines_version_key on price_lines
        (counterparty_id, cargo_key, coalesce(loading_place_id, 0), coalesce(unloading_place_id, 0), unit, valid_from)`.execute(db);
      await db.schema.alterTable('tasks').addColumn('price_line_id', 'integer', (c) => c.references('price_lines.id').onDelete('set null')).execute();
      await db.schema.alterTable('tasks').addColumn('price_source', 'text').execute();
      await sql`update tasks set price_source = 'manual' where rate is not null`.execute(db);
    },
  };
}
