/**
 * The customer's link (issue 34 §3, docs/customer-link.md): links a customer opens without an account (the token
 * stored only as its SHA-256), every view through one, and the trips a customer disputed from it. Append-only, as
 * migrations.ts.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration020(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('customer_links')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('counterparty_id', 'integer', (c) => c.notNull().references('counterparties.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema.createIndex('customer_links_counterparty').on('customer_links').columns(['counterparty_id', 'created_at']).execute();
      await db.schema
        .createTable('customer_link_views')
        .addColumn('id', 'integer', id)
        .addColumn('link_id', 'integer', (c) => c.notNull().references('customer_links.id').onDelete('cascade'))
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('first_at', 'text', (c) => c.notNull())
        .addColumn('page', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.createIndex('customer_link_views_link').on('customer_link_views').columns(['link_id', 'at']).execute();
      await db.schema
        .createTable('customer_disputes')
        .addColumn('id', 'integer', id)
        .addColumn('link_id', 'integer', (c) => c.notNull().references('customer_links.id').onDelete('cascade'))
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('answer', 'text')
        .addColumn('answered_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('answered_at', 'text')
        .execute();
      await db.schema.createIndex('customer_disputes_report').on('customer_disputes').columns(['report_id', 'created_at']).execute();
    },
  };
}
