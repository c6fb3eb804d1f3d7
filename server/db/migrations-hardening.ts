/**
 * Hardening, second round (docs/hardening.md): the sign-in's "has this device signed in before" lookup gets an
 * index, and a registration request can be rejected with a reason. Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration009(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('refresh_tokens_user_device_idx').on('refresh_tokens').columns(['user_id', 'device_id']).execute();
      await db.schema.alterTable('registration_requests').addColumn('rejected_at', 'text').execute();
      await db.schema.alterTable('registration_requests').addColumn('rejected_by', 'integer').execute();
      await db.schema.alterTable('registration_requests').addColumn('reject_reason', 'text').execute();
    },
  };
}
