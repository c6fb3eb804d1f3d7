/**
 * Late payments marked by a column of their own (server/routes/WAGES.md «Рейс после закрытия месяца»): the
 * system's payment of a late load was an adjustment with no author, but "no author" is also what an author's
 * deleted account leaves elsewhere in the schema (ON DELETE SET NULL); an admin's adjustment about a load must
 * never be taken for it (repriced, or dropped on a reopen). The payments made so far are marked. Append-only, as
 * migrations.ts.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export function migration011(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('payroll_adjustments').addColumn('late', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await sql`update payroll_adjustments set late = 1 where created_by is null and report_id is not null`.execute(db);
      await db.schema.createIndex('payroll_adjustments_report_idx').on('payroll_adjustments').column('report_id').execute();
    },
  };
}
