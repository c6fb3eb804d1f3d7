/**
 * Photo retention as a company setting (docs/scale.md «Хранение фото»): the rule (JSON of contract/calls/retention.ts
 * PhotoRetentionRule, null: keep every photo), the day the daily run last claimed the company (so two instances run
 * it once a day between them) and what that run did (JSON of PhotoRetentionRun). Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration017(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('companies').addColumn('photo_retention', 'text').execute();
      await db.schema.alterTable('companies').addColumn('photo_retention_ran_on', 'text').execute();
      await db.schema.alterTable('companies').addColumn('photo_retention_last', 'text').execute();
    },
  };
}
