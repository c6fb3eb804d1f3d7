/** The loads' schema (docs/loads.md): trips and their review (005), the history of changes (006). Append-only, as migrations.ts. */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

/**
 * Loads (docs/loads.md): a report is one trip's load ticket (trips, ticket number, whether it was the last
 * trip), reviewed by staff (state, comment, who, when) after automatic checks (flags, a JSON list); a photo
 * keeps its perceptual hash; an association has a planned share and the time the driver's part was finished;
 * a company may tune the checks' thresholds. Associations already completed count as finished.
 */
export function migration005(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const real = 'double precision' as const;
      await db.schema.alterTable('task_drivers').addColumn('planned_quantity', real).execute();
      await db.schema.alterTable('task_drivers').addColumn('finished_at', 'text').execute();
      await db.schema.alterTable('reports').addColumn('trips', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('reports').addColumn('ticket_number', 'text').execute();
      await db.schema.alterTable('reports').addColumn('final', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('reports').addColumn('review_status', 'text', (c) => c.notNull().defaultTo('pending')).execute();
      await db.schema.alterTable('reports').addColumn('review_comment', 'text').execute();
      await db.schema.alterTable('reports').addColumn('reviewed_by', 'integer').execute();
      await db.schema.alterTable('reports').addColumn('reviewed_at', 'text').execute();
      await db.schema.alterTable('reports').addColumn('flags', 'text', (c) => c.notNull().defaultTo('[]')).execute();
      await db.schema.alterTable('report_photos').addColumn('phash', 'text').execute();
      await db.schema.alterTable('companies').addColumn('check_thresholds', 'text').execute();
      await db.schema.createIndex('reports_created_idx').on('reports').columns(['created_at']).execute();
      await db.schema.createIndex('reports_ticket_idx').on('reports').columns(['ticket_number']).execute();
      await sql`update task_drivers set finished_at = coalesce((select max(r.created_at) from reports r where r.association_id = task_drivers.id), created_at) where status = 'completed'`.execute(db);
      await sql`update reports set final = 1 where id in (select max(r.id) from reports r join task_drivers td on td.id = r.association_id where td.status = 'completed' group by r.association_id)`.execute(db);
    },
  };
}

/** The history of tasks, drivers' parts and reports (server/audit/history.ts). */
export function migration006(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull())
        .addColumn('task_id', 'integer', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer')
        .addColumn('device_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_task_idx').on('audit_log').columns(['task_id', 'id']).execute();
      await db.schema.createIndex('audit_log_entity_idx').on('audit_log').columns(['entity', 'entity_id']).execute();
    },
  };
}
