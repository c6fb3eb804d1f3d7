/**
 * The other parties' titles of a trip's waybill received by the carrier (issue 33; docs/documents.md «Received
 * titles»): the shipper's Т1 and the consignee's Т3, each linked to its trip, with what the chain needs (the file's
 * id, date and time; the УИД; the signature) and the differences from our facts. Append-only, as migrations.ts.
 */
import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration023(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('etrn_incoming')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('file_id', 'text', (c) => c.notNull())
        .addColumn('file_date', 'text', (c) => c.notNull())
        .addColumn('file_time', 'text', (c) => c.notNull())
        .addColumn('uid', 'text')
        .addColumn('signature', 'text')
        .addColumn('encoding', 'text', (c) => c.notNull())
        .addColumn('xml', 'text', (c) => c.notNull())
        .addColumn('linked_by', 'text', (c) => c.notNull())
        .addColumn('differences', 'text', (c) => c.notNull())
        .addColumn('received_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('etrn_incoming_file').on('etrn_incoming').columns(['company_id', 'file_id']).unique().execute();
      await db.schema.createIndex('etrn_incoming_report').on('etrn_incoming').columns(['report_id', 'id']).execute();
      await db.schema.createIndex('etrn_incoming_uid').on('etrn_incoming').columns(['company_id', 'uid']).execute();
    },
  };
}
