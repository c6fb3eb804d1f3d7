/**
 * The carrier's ЭДО participant id on its company (issue 33; docs/documents.md): every ЭТрН file's name carries the
 * sender's id, so the carrier's titles cannot be made without it. Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration019(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('companies').addColumn('edo_id', 'text').execute();
    },
  };
}
