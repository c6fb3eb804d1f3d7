/**
 * The act and the invoice (issue 34 §2, docs/statements.md): `invoices` numbered per company per year (a unique
 * index settles a race), their lines and the trips each bills; the company's VAT rate beside its requisites
 * (null: «Без НДС»). Append-only, as migrations.ts.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration021(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('companies').addColumn('vat_rate', 'integer').execute();
      await db.schema
        .createTable('invoices')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('counterparty_id', 'integer', (c) => c.notNull().references('counterparties.id').onDelete('restrict'))
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('number', 'integer', (c) => c.notNull())
        .addColumn('issued_on', 'text', (c) => c.notNull())
        .addColumn('period_from', 'text', (c) => c.notNull())
        .addColumn('period_to', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('paid_on', 'text')
        .addColumn('corrects_id', 'integer', (c) => c.references('invoices.id').onDelete('restrict'))
        .addColumn('vat_rate', 'integer')
        .addColumn('total_kop', 'bigint', (c) => c.notNull())
        .addColumn('vat_kop', 'bigint', (c) => c.notNull())
        .addColumn('seller', 'text', (c) => c.notNull())
        .addColumn('buyer', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invoices_number').unique().on('invoices').columns(['company_id', 'year', 'number']).execute();
      await db.schema.createIndex('invoices_counterparty').on('invoices').columns(['counterparty_id', 'issued_on']).execute();
      await db.schema
        .createTable('invoice_lines')
        .addColumn('id', 'integer', id)
        .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('cargo', 'text', (c) => c.notNull())
        .addColumn('loading_place', 'text', (c) => c.notNull())
        .addColumn('unloading_place', 'text', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('trips', 'integer', (c) => c.notNull())
        .addColumn('quantity', 'double precision', (c) => c.notNull())
        .addColumn('price', 'double precision', (c) => c.notNull())
        .addColumn('amount_kop', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('invoice_lines_invoice').on('invoice_lines').columns(['invoice_id', 'position']).execute();
      await db.schema
        .createTable('invoice_trips')
        .addColumn('invoice_id', 'integer', (c) => c.notNull().references('invoices.id').onDelete('cascade'))
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('restrict'))
        .addColumn('quantity', 'double precision', (c) => c.notNull())
        .addColumn('amount_kop', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('invoice_trips_pk', ['invoice_id', 'report_id'])
        .execute();
      await db.schema.createIndex('invoice_trips_report').on('invoice_trips').column('report_id').execute();
    },
  };
}
