/**
 * One migration set for SQLite and PostgreSQL. Migrations run at start-up (see connect.ts).
 * Each migration is append-only: never edit one that has shipped, add the next.
 */
import { type Kysely, type Migration, type MigrationProvider, type ColumnDefinitionBuilder } from 'kysely';
import { migration001 } from './migrations-initial.ts';
import { migration005, migration006 } from './migrations-loads.ts';
import { migration007, migration053 } from './migrations-money.ts';
import { migration008 } from './migrations-dispatch.ts';
import { migration009 } from './migrations-hardening.ts';
import { migration010, migration013, migration029, migration031, migration035, migration037, migration039, migration044, migration052 } from './migrations-scale.ts';
import { migration011 } from './migrations-late.ts';
import { migration012 } from './migrations-registers.ts';
import { migration017 } from './migrations-retention.ts';
import { migration018 } from './migrations-trip-sheets.ts';
import { migration019 } from './migrations-company-edo.ts';
import { migration021 } from './migrations-invoices.ts';
import { migration023 } from './migrations-etrn-incoming.ts';
import { migration026, migration041 } from './migrations-documents.ts';
import { migration028 } from './migrations-waiting.ts';
import { migration030 } from './migrations-odometer-photos.ts';
import { migration032 } from './migrations-search.ts';
import { migration034, migration040, migration050 } from './migrations-operator.ts';
import { migration033 } from './migrations-papers-cards.ts';
import { migration051 } from './migrations-card-facts.ts';
import { migration015 } from './migrations-prices.ts';
import { migration014 } from './migrations-trips.ts';
import { migration020 } from './migrations-customer-links.ts';
import { migration024 } from './migrations-wait-alerts.ts';
import { migration049 } from './migrations-trip-confirmations.ts';

import type { Dialect } from './dialect.ts';

export type { Dialect };

/** Export jobs report progress and are scoped to a company; lists filter tasks by date within a company. */
function migration002(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('export_jobs').addColumn('company_id', 'integer').execute();
      await db.schema.alterTable('export_jobs').addColumn('rows_written', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('export_jobs').addColumn('rows_total', 'integer').execute();
      await db.schema.createIndex('export_jobs_status_idx').on('export_jobs').column('status').execute();
      await db.schema.createIndex('tasks_date_idx').on('tasks').columns(['date', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('tasks_date_idx').execute();
      await db.schema.dropIndex('export_jobs_status_idx').execute();
    },
  };
}

/**
 * Transfers become a connection between two companies (the receiver's own carrier task, a decline
 * reason, edits while pending); announcements may ask for a response and are counted unread per user;
 * a manager's salary rate is set per manager.
 */
function migration003(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('transfers')
        .addColumn('carrier_task_id', 'integer', (c) => c.references('tasks.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('transfers').addColumn('decline_reason', 'text').execute();
      await db.schema.alterTable('transfers').addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null')).execute();
      await db.schema.alterTable('transfers').addColumn('updated_at', 'text').execute();
      await db.schema.createIndex('transfers_from_idx').on('transfers').columns(['from_company_id', 'status']).execute();
      await db.schema.createIndex('transfers_carrier_task_idx').on('transfers').column('carrier_task_id').execute();

      await db.schema
        .alterTable('announcements')
        .addColumn('requires_response', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('announcement_reads')
        .addColumn('id', 'integer', id)
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('read_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('announcement_reads_uq', ['announcement_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('announcement_responses_ann_idx')
        .on('announcement_responses')
        .columns(['announcement_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('manager_rates')
        .addColumn('id', 'integer', id)
        .addColumn('manager_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
        .addColumn('rate', real, (c) => c.notNull())
        .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('progressive_rates_company_idx').on('progressive_rates').columns(['company_id', 'min_quantity']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('manager_rates').ifExists().execute();
      await db.schema.dropTable('announcement_reads').ifExists().execute();
    },
  };
}

/**
 * Export jobs beat while they run, so an instance starting beside a live one fails only the jobs of a dead
 * process (two instances may share one database), not a job another instance is writing.
 */
function migration004(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('export_jobs').addColumn('heartbeat_at', 'text').execute();
    },
  };
}

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      return {
        '001_initial': migration001(dialect),
        '002_export_progress': migration002(),
        '003_console_part2': migration003(dialect),
        '004_export_heartbeat': migration004(),
        '005_loads': migration005(),
        '006_audit': migration006(dialect),
        '007_money': migration007(dialect),
        '008_dispatch_day': migration008(dialect),
        '009_hardening': migration009(),
        '010_scale': migration010(dialect),
        '011_late_payments': migration011(),
        '012_registers': migration012(dialect),
        '013_payroll_drivers': migration013(dialect),
        '014_trips': migration014(dialect),
        '015_price_lists': migration015(dialect),
        '017_photo_retention': migration017(),
        '018_trip_sheets': migration018(dialect),
        '019_company_edo': migration019(),
        '020_customer_links': migration020(dialect),
        '021_invoices': migration021(dialect),
        '023_etrn_incoming': migration023(dialect),
        '024_wait_alerts': migration024(),
        '026_documents': migration026(dialect),
        '028_invoice_waiting': migration028(),
        '029_unapproved_reports': migration029(),
        '030_odometer_photos': migration030(),
        '031_payroll_month_figures': migration031(dialect),
        '032_task_search': migration032(dialect),
        '033_papers_cards': migration033(),
        '034_operator_api': migration034(),
        '035_approved_reports': migration035(),
        '037_photo_bands': migration037(),
        '039_recent_photo_hashes': migration039(dialect),
        '040_operator_events': migration040(),
        '041_documents_uid': migration041(),
        '044_payroll_lines_pages': migration044(dialect),
        '049_trip_confirmations': migration049(dialect),
        '050_operator_settings': migration050(),
        '051_card_facts': migration051(),
        '052_unapproved_covering': migration052(),
        '053_payroll_closes': migration053(dialect),
      };
    },
  };
}
