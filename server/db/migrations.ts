/**
 * One migration set for SQLite and PostgreSQL. Migrations run at start-up (see connect.ts).
 * Each migration is append-only: never edit one that has shipped, add the next.
 */
import { type Kysely, type Migration, type MigrationProvider, type ColumnDefinitionBuilder } from 'kysely';
import { migration005, migration006 } from './migrations-loads.ts';
import { migration007 } from './migrations-money.ts';
import { migration008 } from './migrations-dispatch.ts';
import { migration009 } from './migrations-hardening.ts';
import { migration010, migration013, migration029 } from './migrations-scale.ts';
import { migration011 } from './migrations-late.ts';
import { migration012 } from './migrations-registers.ts';
import { migration017 } from './migrations-retention.ts';
import { migration018 } from './migrations-trip-sheets.ts';
import { migration019 } from './migrations-company-edo.ts';
import { migration021 } from './migrations-invoices.ts';
import { migration023 } from './migrations-etrn-incoming.ts';
import { migration026 } from './migrations-documents.ts';
import { migration028 } from './migrations-waiting.ts';
import { migration030 } from './migrations-odometer-photos.ts';
import { migration015 } from './migrations-prices.ts';
import { migration014 } from './migrations-trips.ts';
import { migration020 } from './migrations-customer-links.ts';
import { migration024 } from './migrations-wait-alerts.ts';

import type { Dialect } from './dialect.ts';

export type { Dialect };

function migration001(dialect: Dialect): Migration {
  // SQLite: INTEGER PRIMARY KEY AUTOINCREMENT; PostgreSQL: identity column.
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('companies')
        .addColumn('id', 'integer', id)
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', id)
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_company_idx').on('users').column('company_id').execute();

      await db.schema
        .createTable('transports')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('vehicle_number', 'text', (c) => c.notNull())
        .addColumn('vehicle_brand', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('vehicle_capacity', real)
        .addColumn('is_current', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transports_user_idx').on('transports').column('user_id').execute();

      await db.schema
        .createTable('registration_requests')
        .addColumn('id', 'integer', id)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('vehicle_number', 'text')
        .addColumn('vehicle_brand', 'text')
        .addColumn('vehicle_capacity', real)
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('approved_at', 'text')
        .addColumn('approved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema
        .createIndex('registration_requests_status_idx')
        .on('registration_requests')
        .columns(['status', 'company_id'])
        .execute();

      await db.schema
        .createTable('refresh_tokens')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('family_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('device_info', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();

      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('subscription', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('push_subscriptions_device_uq', ['user_id', 'device_id'])
        .execute();

      await db.schema
        .createTable('tasks')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('cargo', 'text', (c) => c.notNull())
        .addColumn('loading_place', 'text', (c) => c.notNull())
        .addColumn('unloading_place', 'text', (c) => c.notNull())
        .addColumn('planned_quantity', real, (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull().defaultTo('т'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
        .addColumn('rate', real)
        .addColumn('comment', 'text')
        .addColumn('max_drivers', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tasks_company_date_idx').on('tasks').columns(['company_id', 'date']).execute();
      await db.schema.createIndex('tasks_status_idx').on('tasks').column('status').execute();

      await db.schema
        .createTable('task_drivers')
        .addColumn('id', 'integer', id)
        .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('quantity', real)
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('accepted'))
        .addColumn('loading_quantity', real)
        .addColumn('unloading_quantity', real)
        .addColumn('transport_rate', real)
        .addColumn('order_index', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('accepted_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('task_drivers_task_driver_uq', ['task_id', 'driver_id'])
        .execute();
      await db.schema.createIndex('task_drivers_driver_idx').on('task_drivers').columns(['driver_id', 'status']).execute();

      await db.schema
        .createTable('reports')
        .addColumn('id', 'integer', id)
        .addColumn('association_id', 'integer', (c) => c.notNull().references('task_drivers.id').onDelete('cascade'))
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('quantity', real)
        .addColumn('total_loading_quantity', real)
        .addColumn('total_unloading_quantity', real)
        .addColumn('loading_is_buyer', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('unloading_is_buyer', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('idempotency_key', 'text')
        .addColumn('completed_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('reports_idempotency_uq', ['driver_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('reports_association_idx').on('reports').column('association_id').execute();

      await db.schema
        .createTable('report_photos')
        .addColumn('id', 'integer', id)
        .addColumn('report_id', 'integer', (c) => c.notNull().references('reports.id').onDelete('cascade'))
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('report_photos_report_idx').on('report_photos').column('report_id').execute();

      await db.schema
        .createTable('daily_hours')
        .addColumn('id', 'integer', id)
        .addColumn('driver_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('hours', real, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('daily_hours_driver_date_uq', ['driver_id', 'date'])
        .execute();

      await db.schema
        .createTable('transfers')
        .addColumn('id', 'integer', id)
        .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('from_company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('to_company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('quantity', real)
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('comment', 'text')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .execute();
      await db.schema.createIndex('transfers_to_idx').on('transfers').columns(['to_company_id', 'status']).execute();

      await db.schema
        .createTable('announcements')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('cascade'))
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('announcement_responses')
        .addColumn('id', 'integer', id)
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('text', 'text')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();

      await db.schema
        .createTable('progressive_rates')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('min_quantity', real, (c) => c.notNull())
        .addColumn('max_quantity', real)
        .addColumn('rate', real, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('export_jobs')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('storage_key', 'text')
        .addColumn('filename', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute();

      await db.schema
        .createTable('client_errors')
        .addColumn('id', 'integer', id)
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('device_id', 'text')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('stack', 'text')
        .addColumn('source', 'text')
        .addColumn('lineno', 'integer')
        .addColumn('colno', 'integer')
        .addColumn('user_agent', 'text')
        .addColumn('url', 'text')
        .addColumn('time', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('client_errors_created_idx').on('client_errors').column('created_at').execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of [
        'client_errors', 'export_jobs', 'progressive_rates', 'announcement_responses', 'announcements',
        'transfers', 'daily_hours', 'report_photos', 'reports', 'task_drivers', 'tasks', 'push_subscriptions',
        'refresh_tokens', 'registration_requests', 'transports', 'users', 'companies',
      ]) {
        await db.schema.dropTable(t).ifExists().execute();
      }
    },
  };
}

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
      };
    },
  };
}
