/**
 * One progress figure and one status rule (docs/loads.md). Every screen and export reads what these compute;
 * nothing recomputes progress in the UI.
 *
 * Delivered: per report, the unloading total where the driver gave one (> 0), else the report's quantity — what
 * reached the customer (DELIVERED_SQL, the same rule as contract/report-checks.ts `deliveredOf`). A driver's
 * share: the association's planned quantity, else the task's plan split evenly among its live drivers, rounded
 * to 0,5. A task's delivered sums every report on it, also those of a driver taken off it later (the load was
 * carried).
 *
 * Status: `cancelled` is staff's and stays; with no live driver a task is `open` (or stays `completed` when staff
 * closed it empty); with live drivers it is `completed` once every one has finished, else `in_progress`.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { DriverStatus, TaskProgress, TaskStatus } from '../../contract/entities.ts';
import { nowIso } from '../db/connect.ts';

type Q = Kysely<Database>;

/** One report's delivered quantity, in SQL over the reports row aliased `alias`. */
export const deliveredSql = (alias: string): string =>
  `case when ${alias}.total_unloading_quantity > 0 then ${alias}.total_unloading_quantity else coalesce(${alias}.quantity, 0) end`;
/** One report's delivered quantity, in SQL over `reports r`. */
export const DELIVERED_SQL = deliveredSql('r');

export const roundToHalf = (value: number): number => Math.round(value * 2) / 2;
/** Sums of quantities stay exact to the gram: no 62.49999999 on screen. */
export const roundQuantity = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * A driver's month volume (the sum that picks the scale's band) rounded as `roundQuantity`, after the sum's float
 * noise below a gram is dropped: the same loads summed in another order — one statement, or 3-day statements added
 * up in JavaScript, SQLite's compensated SUM or PostgreSQL's — differ in the last bits, and 37,9135 + 0,24 + 12,036
 * came out 50,189 one way and 50,19 the other (the property test of open-month-sql). Its true value, 50,1895, is 50,19.
 */
export const roundVolume = (value: number): number => Math.round(Math.round(value * 1_000_000) / 1000) / 1000;

/** A driver's share: their planned quantity, else the plan split evenly among `liveDrivers` (rounded to 0,5). */
export function shareOf(plan: number, plannedQuantity: number | null, liveDrivers: number): number {
  if (plannedQuantity !== null) return plannedQuantity;
  return liveDrivers > 0 ? roundToHalf(plan / liveDrivers) : plan;
}

export interface AssociationFigures {
  status: string;
  delivered: number;
  finished_at: string | null;
}

export function taskProgress(plan: number, status: TaskStatus, associations: readonly AssociationFigures[]): TaskProgress {
  const live = associations.filter((a) => a.status !== 'cancelled');
  const delivered = roundQuantity(associations.reduce((sum, a) => sum + a.delivered, 0));
  return {
    delivered,
    plan,
    drivers: live.length,
    drivers_finished: live.filter((a) => a.finished_at !== null).length,
    shortfall: status === 'completed' && delivered < plan ? roundQuantity(plan - delivered) : null,
  };
}

/** The status rule: the task's status from its current one and its drivers' parts. */
export function nextTaskStatus(current: TaskStatus, associations: readonly { status: string; finished_at: string | null }[]): TaskStatus {
  if (current === 'cancelled') return current;
  const live = associations.filter((a) => a.status !== 'cancelled');
  if (live.length === 0) return current === 'completed' ? 'completed' : 'open';
  return live.every((a) => a.finished_at !== null) ? 'completed' : 'in_progress';
}

/**
 * An association's status is where its part stands; `finished_at` follows it: set when it becomes `completed`
 * (the last trip, «Завершить задачу», or staff), cleared when it is reopened. A report starts an accepted part.
 */
export function settledAssociation(a: { status: DriverStatus; finished_at: string | null; reports: number }, now: string): { status: DriverStatus; finished_at: string | null } {
  if (a.status === 'cancelled') return a;
  if (a.status === 'completed') return { status: a.status, finished_at: a.finished_at ?? now };
  return { status: a.status === 'accepted' && a.reports > 0 ? 'in_progress' : a.status, finished_at: null };
}

/**
 * Brings a task's associations and status in line with the rule, inside the caller's transaction: call it after
 * any change to the task's drivers, their parts or their reports.
 */
export async function settleTask(trx: Q, taskId: number): Promise<void> {
  // The task's status and its parts in one read (a task without parts: one row, its part's columns null).
  const read = await trx
    .selectFrom('tasks as t')
    .leftJoin('task_drivers as td', 'td.task_id', 't.id')
    .select(['t.status as task_status', 'td.id', 'td.status', 'td.finished_at', sql<number>`(select count(*) from reports r where r.association_id = td.id)`.as('reports')])
    .where('t.id', '=', taskId)
    .execute();
  const task = read[0] ? { status: read[0].task_status } : undefined;
  if (!task) return;
  const rows = read.flatMap((r) => (r.id === null || r.status === null ? [] : [{ id: r.id, status: r.status, finished_at: r.finished_at, reports: r.reports }]));
  const now = nowIso();
  const settled = [];
  for (const row of rows) {
    const next = settledAssociation({ ...row, reports: Number(row.reports) }, now);
    if (next.status !== row.status || next.finished_at !== row.finished_at) {
      await trx.updateTable('task_drivers').set({ status: next.status, finished_at: next.finished_at }).where('id', '=', row.id).execute();
    }
    settled.push(next);
  }
  const status = nextTaskStatus(task.status, settled);
  if (status !== task.status) await trx.updateTable('tasks').set({ status, updated_at: now }).where('id', '=', taskId).execute();
}

/** Finishes (or reopens, `finished` false) a driver's part and settles its task. */
export async function setFinished(trx: Q, associationId: number, finished: boolean): Promise<void> {
  const row = await trx.selectFrom('task_drivers').select(['task_id', 'status']).where('id', '=', associationId).executeTakeFirst();
  if (!row || row.status === 'cancelled') return;
  await trx.updateTable('task_drivers').set({ status: finished ? 'completed' : 'in_progress' }).where('id', '=', associationId).execute();
  await settleTask(trx, row.task_id);
}
