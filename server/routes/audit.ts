/** GET /audit/: the history of a task, a driver's part or a report, for staff of its company (server/audit/history.ts). */
import type { RouteModule } from '../context.ts';
import { auditCalls, type AuditEntry } from '../../contract/calls/audit.ts';
import { notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { registerArea } from './define.ts';

export const auditRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  registerArea(app, ctx, auditCalls, {
    'GET /audit/': async ({ user, query }) => {
      // Whose object it is: the task's company, through whatever the entity is.
      const owner =
        query.entity === 'task'
          ? await db.kysely.selectFrom('tasks').select('company_id').where('id', '=', query.id).executeTakeFirst()
          : query.entity === 'association'
            ? await db.kysely.selectFrom('task_drivers as td').innerJoin('tasks as t', 't.id', 'td.task_id').select('t.company_id').where('td.id', '=', query.id).executeTakeFirst()
            : // A deleted report keeps its history: its entries say whose it was.
              ((await db.kysely.selectFrom('audit_log').select('company_id').where('entity', '=', 'report').where('entity_id', '=', query.id).executeTakeFirst()) ??
              (await db.kysely
                .selectFrom('reports as r')
                .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
                .innerJoin('tasks as t', 't.id', 'td.task_id')
                .select('t.company_id')
                .where('r.id', '=', query.id)
                .executeTakeFirst()));
      const what = query.entity === 'task' ? 'Задача не найдена' : query.entity === 'report' ? 'Отчёт не найден' : 'Задание водителя не найдено';
      if (!owner) throw notFound(what);
      assertStaffSeesCompany(user, owner.company_id, what);
      const rows = await db.kysely
        .selectFrom('audit_log as a')
        .leftJoin('users as u', 'u.id', 'a.user_id')
        .select(['a.id', 'a.entity', 'a.entity_id', 'a.action', 'a.changes', 'a.user_id', 'u.name as user_name', 'a.device_id', 'a.created_at'])
        .$if(query.entity === 'task', (qb) => qb.where('a.task_id', '=', query.id))
        .$if(query.entity !== 'task', (qb) => qb.where('a.entity', '=', query.entity).where('a.entity_id', '=', query.id))
        .orderBy('a.id', 'desc')
        .limit(500)
        .execute();
      return rows.map((r): AuditEntry => ({ ...r, changes: JSON.parse(r.changes) as AuditEntry['changes'] }));
    },
  });
};
