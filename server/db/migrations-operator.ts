/**
 * The operator's API adapter (issue 33 §3; docs/documents.md «The Диадок API adapter»): on each outgoing document the
 * job's claim (who holds it and since when: a claim older than its lease is free again, so a crashed instance's item
 * is taken over), its attempts and when the next may start (the backoff), the last error, and the ids the operator
 * gave it (Диадок's MessageId and EntityId, polled for the answer); per company, the last pass's result for the
 * screen. Nullable columns and a new table only: instant on a database of any size. Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration034(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('etrn_documents').addColumn('operator_claim', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_claimed_at', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_next_at', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_error', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_message_id', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('operator_entity_id', 'text').execute();
      await db.schema
        .createTable('etrn_operator_runs')
        .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
        .addColumn('adapter', 'text', (c) => c.notNull())
        .addColumn('ran_at', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
