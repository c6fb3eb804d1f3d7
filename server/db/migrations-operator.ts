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

/**
 * The Диадок adapter's second round (docs/documents.md «The Диадок API adapter»): a received title fetched from the
 * operator's box keeps the ids Диадок gave it (the carrier's Т2/Т4 are posted as answers to it, `PostMessagePatch`
 * with its MessageId and EntityId); per company, the events of the box already taken in (`GetNewEvents`: an event is
 * taken in once, whatever the number of polls or instances) and where the next poll starts. Nullable columns and
 * new tables only: instant on a database of any size.
 */
export function migration040(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('etrn_incoming').addColumn('operator_message_id', 'text').execute();
      await db.schema.alterTable('etrn_incoming').addColumn('operator_entity_id', 'text').execute();
      await db.schema
        .createTable('etrn_operator_events')
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('seen_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('etrn_operator_events_pk', ['company_id', 'event_id'])
        .execute();
      await db.schema
        .createTable('etrn_operator_cursors')
        .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
        .addColumn('after_index_key', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

/**
 * The operator per company (docs/documents.md «The operator of a company»): the admin chooses the files adapter or
 * Диадок's API with its box and credentials, stored here; a company without a row keeps the default (files, or the
 * environment's DIADOC_* for the company DIADOC_COMPANY_ID names). The secrets are never sent back by the API. A new
 * table only: instant on a database of any size.
 */
export function migration050(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('company_operator_settings')
        .addColumn('company_id', 'integer', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
        .addColumn('adapter', 'text', (c) => c.notNull())
        .addColumn('box_id', 'text')
        .addColumn('token', 'text')
        .addColumn('refresh_token', 'text')
        .addColumn('client_id', 'text')
        .addColumn('client_secret', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'integer')
        .execute();
    },
  };
}
