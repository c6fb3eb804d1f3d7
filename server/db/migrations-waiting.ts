/**
 * Waiting time billed on the act (issue 34 §1; docs/statements.md «Waiting time»): an act's line says what it bills —
 * carriage, or the waiting time beyond an hourly line's free period (with that period) — and each billed trip keeps
 * the waiting minutes and kopecks it was billed, frozen with the act. Acts issued before bill carriage only.
 * Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration028(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('invoice_lines').addColumn('kind', 'text', (c) => c.notNull().defaultTo('carriage')).execute();
      await db.schema.alterTable('invoice_lines').addColumn('free_minutes', 'integer').execute();
      await db.schema.alterTable('invoice_trips').addColumn('waiting_min', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('invoice_trips').addColumn('waiting_kop', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    },
  };
}
