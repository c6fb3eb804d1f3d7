/**
 * The exchange's documents (issue 33 §3, docs/documents.md «The exchange»): `etrn_documents`, a trip's titles with
 * their state, the XML frozen when marked ready, the idempotency key they are sent under, the operator's answer. At
 * most one live (not annulled) document per trip, title and direction (a partial unique index). Append-only, as
 * migrations.ts.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration026(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('etrn_documents')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull().defaultTo('out'))
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('trip_date', 'text', (c) => c.notNull())
        .addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id').onDelete('set null'))
        .addColumn('file_name', 'text')
        .addColumn('xml', 'text')
        .addColumn('idempotency_key', 'text')
        .addColumn('sent_batch', 'text')
        .addColumn('uid', 'text')
        .addColumn('qr', 'text')
        .addColumn('reason', 'text')
        .addColumn('fix', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('ready_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('answered_at', 'text')
        .addColumn('annulled_at', 'text')
        .execute();
      await db.schema
        .createIndex('etrn_documents_live')
        .unique()
        .on('etrn_documents')
        .columns(['report_id', 'title', 'direction'])
        .where(sql.ref('state'), '<>', 'annulled')
        .execute();
      await db.schema.createIndex('etrn_documents_key').unique().on('etrn_documents').column('idempotency_key').execute();
      await db.schema.createIndex('etrn_documents_day').on('etrn_documents').columns(['company_id', 'trip_date', 'state']).execute();
      await db.schema.createIndex('etrn_documents_file').on('etrn_documents').columns(['company_id', 'file_name']).execute();
    },
  };
}

/**
 * 041: our titles by the УИД ТрН the operator gave them, within a company — a received Т3 carrying the УИД of our own
 * accepted Т1 links to its trip by it (server/papers/incoming.ts `byUid`). The table holds the titles made since
 * 01.09.2026 only: the index is made in moments on an existing database.
 */
export function migration041(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('etrn_documents_uid').on('etrn_documents').columns(['company_id', 'uid']).execute();
    },
  };
}
