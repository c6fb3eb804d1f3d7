/**
 * The history of a task, its drivers' parts and its reports (docs/loads.md, «История изменений»): every successful
 * write under /tasks or /reports is bracketed by a snapshot of the task it touches, before and after, and what
 * changed is stored field by field — who, when, from which device (a driver's), from → to. One hook covers every
 * write of the area, the automatic status changes it causes included (they are attributed to the write's caller).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuditEntity, AuditEntry } from '../../contract/calls/audit.ts';

type Row = Record<string, unknown>;

export interface TaskSnapshot {
  taskId: number;
  companyId: number;
  task: Row | null;
  associations: Map<number, Row>;
  reports: Map<number, Row>;
}

/**
 * The fields whose changes are history; bookkeeping columns (timestamps, hashes, order) are not. A report's
 * `photos` is its photos' ids («12,14»): a photo removed, added or replaced shows as a change of it.
 */
const FIELDS: Record<AuditEntity, readonly string[]> = {
  task: ['date', 'cargo', 'loading_place', 'unloading_place', 'planned_quantity', 'unit', 'rate', 'status', 'comment', 'max_drivers'],
  association: ['driver_id', 'status', 'planned_quantity', 'quantity', 'loading_quantity', 'unloading_quantity', 'transport_rate'],
  report: ['quantity', 'trips', 'ticket_number', 'total_loading_quantity', 'total_unloading_quantity', 'final', 'review_status', 'review_comment', 'photos'],
};

export async function snapshotTask(db: Db, taskId: number): Promise<TaskSnapshot | null> {
  // Four reads by the task's id alone, so they go together (on PostgreSQL one round trip's wait, not four).
  const [task, associations, reports, photos] = await Promise.all([
    db.kysely.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst(),
    db.kysely.selectFrom('task_drivers').selectAll().where('task_id', '=', taskId).execute(),
    db.kysely.selectFrom('reports as r').innerJoin('task_drivers as td', 'td.id', 'r.association_id').selectAll('r').where('td.task_id', '=', taskId).execute(),
    db.kysely
      .selectFrom('report_photos as p')
      .innerJoin('reports as r', 'r.id', 'p.report_id')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .select(['p.id', 'p.report_id'])
      .where('td.task_id', '=', taskId)
      .orderBy('p.id')
      .execute(),
  ]);
  if (!task) return null;
  const photosOf = (reportId: number): string | null => photos.filter((p) => p.report_id === reportId).map((p) => p.id).join(',') || null;
  return {
    taskId,
    companyId: task.company_id,
    task: task as unknown as Row,
    associations: new Map(associations.map((a) => [a.id, a as unknown as Row])),
    reports: new Map(reports.map((r) => [r.id, { ...(r as unknown as Row), photos: photosOf(r.id) }])),
  };
}

type Change = Omit<AuditEntry, 'id' | 'user_name' | 'created_at' | 'user_id' | 'device_id' | 'driver_name'>;

function diffRow(entity: AuditEntity, id: number, before: Row | undefined, after: Row | undefined): Change | null {
  const fields = FIELDS[entity];
  if (!before && !after) return null;
  const action = !before ? 'create' : !after ? 'delete' : 'update';
  const changes = fields
    .map((field) => ({ field, from: before?.[field] ?? null, to: after?.[field] ?? null }))
    .filter((c) => (action === 'update' ? String(c.from) !== String(c.to) : action === 'create' ? c.to !== null : c.from !== null));
  if (action === 'update' && changes.length === 0) return null;
  return { entity, entity_id: id, action, changes: changes as AuditEntry['changes'] };
}

/** What changed between two snapshots of one task (either may be missing: created or deleted). */
export function diffSnapshots(before: TaskSnapshot | null, after: TaskSnapshot | null): Change[] {
  const out: Change[] = [];
  const task = diffRow('task', (after ?? before)!.taskId, before?.task ?? undefined, after?.task ?? undefined);
  if (task) out.push(task);
  for (const [entity, key] of [
    ['association', 'associations'],
    ['report', 'reports'],
  ] as const) {
    const ids = new Set([...(before?.[key].keys() ?? []), ...(after?.[key].keys() ?? [])]);
    for (const id of [...ids].sort((a, b) => a - b)) {
      const change = diffRow(entity, id, before?.[key].get(id), after?.[key].get(id));
      if (change) out.push(change);
    }
  }
  return out;
}

type Actor = { id: number; role: string; device_id: string } | null;

/** One history row: a change of an object of the task, by whom and from which device. */
function auditRow(target: { taskId: number; companyId: number }, c: Change, user: Actor, now: string) {
  return {
    company_id: target.companyId,
    task_id: target.taskId,
    entity: c.entity,
    entity_id: c.entity_id,
    action: c.action,
    changes: JSON.stringify(c.changes),
    user_id: user?.id ?? null,
    // The device says which phone a driver's change came from; staff work from many tabs, so it says little.
    device_id: user?.role === 'driver' ? user.device_id : null,
    created_at: now,
  };
}

export async function recordChanges(db: Db, snapshot: { taskId: number; companyId: number }, changes: Change[], user: Actor): Promise<void> {
  if (changes.length === 0) return;
  const now = nowIso();
  await db.kysely
    .insertInto('audit_log')
    .values(changes.map((c) => auditRow(snapshot, c, user, now)))
    .execute();
}

function withoutReport(snapshot: TaskSnapshot, answer: unknown): TaskSnapshot {
  const id = answer && typeof answer === 'object' ? (answer as { id?: unknown }).id : undefined;
  const reports = new Map(snapshot.reports);
  if (typeof id === 'number') reports.delete(id);
  return { ...snapshot, reports };
}

/** Which task a write under /tasks or /reports is about, before it runs (null: only its answer can say). */
async function taskBefore(db: Db, route: string, params: Record<string, string>): Promise<number | null> {
  const id = /^[1-9][0-9]*$/.test(params.id ?? '') ? Number(params.id) : null;
  if (id === null) return null;
  if (route.startsWith('/tasks/drivers/')) return null;
  if (route.startsWith('/tasks/:id')) return id;
  if (route.startsWith('/reports/:id')) {
    const row = await db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .select('td.task_id')
      .where('r.id', '=', id)
      .executeTakeFirst();
    return row?.task_id ?? null;
  }
  return null;
}

/** The task a created object belongs to, from the write's answer (a new task, a new report). */
async function taskAfter(db: Db, route: string, answer: unknown): Promise<number | null> {
  const value = (key: string) => (answer && typeof answer === 'object' ? (answer as Record<string, unknown>)[key] : undefined);
  if (route === '/tasks/') return typeof value('id') === 'number' ? (value('id') as number) : null;
  if (route === '/reports/' && typeof value('association_id') === 'number') {
    const row = await db.kysely.selectFrom('task_drivers').select('task_id').where('id', '=', value('association_id') as number).executeTakeFirst();
    return row?.task_id ?? null;
  }
  return null;
}

const WRITES = new Set(['POST', 'PUT', 'DELETE']);

/** The task a write's handler already read (a new report's), so the history does not look it up again. */
const knownTasks = new WeakMap<FastifyRequest, number>();
export function noteHistoryTask(request: FastifyRequest, taskId: number): void {
  knownTasks.set(request, taskId);
}

export function installHistory(api: FastifyInstance, db: Db): void {
  const pending = new WeakMap<FastifyRequest, { before: TaskSnapshot | null; taskId: number | null }>();
  const routeOf = (request: FastifyRequest) => (request.routeOptions.url ?? '').replace(/^\/api/, '');
  const covered = (request: FastifyRequest) => WRITES.has(request.method) && /^\/(tasks|reports)\//.test(routeOf(request)) && !routeOf(request).startsWith('/reports/daily_hours');

  api.addHook('preHandler', async (request) => {
    if (!covered(request)) return;
    const taskId = await taskBefore(db, routeOf(request), (request.params ?? {}) as Record<string, string>);
    pending.set(request, { taskId, before: taskId === null ? null : await snapshotTask(db, taskId) });
  });
  // Before the answer leaves: whoever reads the history right after a write finds it there.
  api.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request);
    if (!entry || reply.statusCode >= 300 && reply.statusCode !== 304) return payload;
    // A new report sent again under its Idempotency-Key (the outbox's retry) is answered 200 and changed nothing.
    if (request.method === 'POST' && routeOf(request) === '/reports/' && reply.statusCode === 200) return payload;
    try {
      let answer: unknown = null;
      if (typeof payload === 'string' && payload.startsWith('{')) answer = JSON.parse(payload);
      const taskId = entry.taskId ?? knownTasks.get(request) ?? (await taskAfter(db, routeOf(request), answer));
      if (taskId === null) return payload;
      const after = await snapshotTask(db, taskId);
      const base = after ?? entry.before;
      if (!base) return payload;
      // A new report's multipart body is read in its handler, so its task is known only now: its history is the
      // report itself (what it did to its driver's part follows from it), told against the task as it is.
      const before = entry.taskId === null && after && routeOf(request) === '/reports/' ? withoutReport(after, answer) : entry.before;
      await recordChanges(db, base, diffSnapshots(before, after), request.user ?? null);
    } catch (error) {
      request.log.error({ err: error }, 'history: not recorded');
    }
    return payload;
  });
}

/** Records review decisions made in bulk (approve-clean), one entry per report, written in batches of rows. */
export async function recordApprovals(db: Db, reportIds: readonly number[], user: NonNullable<Actor>): Promise<void> {
  const now = nowIso();
  // In chunks of 500: a month's approvals stay under every database's parameter limit (10 values a row).
  for (let i = 0; i < reportIds.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['r.id', 'td.task_id', 't.company_id'])
      .where('r.id', 'in', reportIds.slice(i, i + 500))
      .orderBy('r.id')
      .execute();
    if (rows.length === 0) continue;
    const approval: Change['changes'] = [{ field: 'review_status', from: 'pending', to: 'approved' }];
    await db.kysely
      .insertInto('audit_log')
      .values(rows.map((row) => auditRow({ taskId: row.task_id, companyId: row.company_id }, { entity: 'report', entity_id: row.id, action: 'update', changes: approval }, user, now)))
      .execute();
  }
}
