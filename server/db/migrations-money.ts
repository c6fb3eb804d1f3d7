/**
 * Money's schema (server/routes/WAGES.md): the progressive scale in versions with a start date, months that close
 * with their figures stored per load, the history of closing and reopening, and adjustments after close.
 * Append-only, as migrations.ts. Money is stored in kopecks (bigint): sums are exact to the kopeck.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

/** The date the scale's first version starts: before any load (the bands there before versions existed). */
export const SCALE_EPOCH = '2000-01-01';

export function migration007(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('progressive_rates').addColumn('valid_from', 'text', (c) => c.notNull().defaultTo(SCALE_EPOCH)).execute();
      await db.schema.createIndex('progressive_rates_version_idx').on('progressive_rates').columns(['company_id', 'valid_from']).execute();

      await db.schema
        .createTable('payroll_months')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('closed_at', 'text', (c) => c.notNull())
        .addColumn('closed_by', 'integer')
        .addColumn('loads', 'integer', (c) => c.notNull())
        .addColumn('quantity', real, (c) => c.notNull())
        .addColumn('amount_kop', 'bigint', (c) => c.notNull())
        .addColumn('adjustments_kop', 'bigint', (c) => c.notNull())
        .addColumn('reopened_at', 'text')
        .addColumn('reopened_by', 'integer')
        .addColumn('reopen_reason', 'text')
        .execute();
      await db.schema.createIndex('payroll_months_key').unique().on('payroll_months').columns(['company_id', 'month']).execute();

      await db.schema
        .createTable('payroll_lines')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('report_id', 'integer', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull())
        .addColumn('association_id', 'integer', (c) => c.notNull())
        .addColumn('task_id', 'integer', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('quantity', real, (c) => c.notNull())
        .addColumn('rate', real)
        .addColumn('rate_source', 'text')
        .addColumn('month_volume', real, (c) => c.notNull())
        .addColumn('amount_kop', 'bigint', (c) => c.notNull())
        .addColumn('task_rate', real)
        .execute();
      await db.schema.createIndex('payroll_lines_month_idx').on('payroll_lines').columns(['company_id', 'month']).execute();
      await db.schema.createIndex('payroll_lines_report_key').unique().on('payroll_lines').columns(['report_id']).execute();

      await db.schema
        .createTable('payroll_events')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('user_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payroll_events_month_idx').on('payroll_events').columns(['company_id', 'month']).execute();

      await db.schema
        .createTable('payroll_adjustments')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('driver_id', 'integer', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('amount_kop', 'bigint', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('report_id', 'integer')
        .addColumn('concerns_month', 'text')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('payroll_adjustments_idx').on('payroll_adjustments').columns(['company_id', 'date']).execute();
      await db.schema.createIndex('payroll_adjustments_driver_idx').on('payroll_adjustments').columns(['driver_id', 'date']).execute();
    },
  };
}

/**
 * A month's close runs as a job (server/payroll/close-jobs.ts; issue 35): the request records it here and answers at
 * once, the job stores the month and ends 'done' or 'failed' with what the request would have answered. At most one
 * close of a month runs: a partial unique index on the running ones (both databases have them).
 */
export function migration053(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('payroll_closes')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('confirmed', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .addColumn('error', 'text')
        .addColumn('error_status', 'integer')
        .execute();
      await db.schema.createIndex('payroll_closes_month_idx').on('payroll_closes').columns(['company_id', 'month', 'id']).execute();
      await db.schema
        .createIndex('payroll_closes_running_key')
        .unique()
        .on('payroll_closes')
        .columns(['company_id', 'month'])
        .where(sql<boolean>`status = 'running'`)
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('payroll_closes').ifExists().execute();
    },
  };
}
