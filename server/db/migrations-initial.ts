/** 001, the initial schema (server/db/migrations.ts lists every migration in order). */
import { type Kysely, type Migration, type ColumnDefinitionBuilder } from 'kysely';
import type { Dialect } from './dialect.ts';

export function migration001(dialect: Dialect): Migration {
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
