/** GET /audit/: the history of a task, a driver's part or a report, for staff of its company (server/audit/history.ts). */
import type { RouteModule } from '../context.ts';
import { auditCalls, type AuditEntry } from '../../contract/calls/audit.ts';
import { notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { registerArea } from './define.ts';
import type { Db } from '../db/connect.ts';

/**
 * Names instead of numbers: each association entry gets its driver's name (the part's driver now, or — for a part
 * since deleted — the driver its own entries name), and a `driver_id` change is answered with both drivers' names.
 */
async function named(db: Db, entries: AuditEntry[]): Promise<AuditEntry[]> {
  const parts = [...new Set(entries.filter((e) => e.entity === 'association').map((e) => e.entity_id))];
  if (parts.length === 0) return entries;
  const idOf = (v: string | number | null | undefined): number | null => (v !== null && v !== undefined && /^[1-9][0-9]*$/.test(String(v)) ? Number(v) : null);
  const driverOf = new Map<number, number>();
  const recorded = await db.kysely.selectFrom('audit_log').select(['entity_id', 'changes']).where('entity', '=', 'association').where('entity_id', 'in', parts).orderBy('id').execute();
  for (const r of recorded) {
    const change = (JSON.parse(r.changes) as AuditEntry['changes']).find((c) => c.field === 'driver_id');
    const id = idOf(change?.to ?? change?.from);
    if (id !== null) driverOf.set(r.entity_id, id);
  }
  for (const row of await db.kysely.selectFrom('task_drivers').select(['id', 'driver_id']).where('id', 'in', parts).execute()) driverOf.set(row.id, row.driver_id);
  const ids = new Set(driverOf.values());
  for (const e of entries) for (const c of e.changes) if (c.field === 'driver_id') for (const v of [idOf(c.from), idOf(c.to)]) if (v !== null) ids.add(v);
  const users = ids.size ? await db.kysely.selectFrom('users').select(['id', 'name']).where('id', 'in', [...ids]).execute() : [];
  const name = new Map(users.map((u) => [u.id, u.name]));
  const nameOf = (v: string | number | null) => {
    const id = idOf(v);
    return id === null ? v : (name.get(id) ?? 'водитель удалён');
  };
  return entries.map((e) =>
    e.entity !== 'association'
      ? e
      : {
          ...e,
          driver_name: name.get(driverOf.get(e.entity_id) ?? -1) ?? null,
          changes: e.changes.map((c) => (c.field === 'driver_id' ? { ...c, from: nameOf(c.from), to: nameOf(c.to) } : c)),
        },
  );
}

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
      return named(db, rows.map((r) => ({ ...r, changes: JSON.parse(r.changes) as AuditEntry['changes'], driver_name: null })));
    },
  });
};
