/**
 * Putting drivers on a task and taking them off, the same way whether a driver accepts, staff assign one,
 * a task is created with drivers, or staff replace a task's driver list.
 */
import type { Db } from '../db/connect.ts';
import { badRequest } from '../errors.ts';
import { settleTask } from './progress.ts';

/** `driverIds` without repeats, once every one is a driver of the company; 400 naming driver_ids otherwise. */
export async function companyDriverIds(db: Db['kysely'], companyId: number, driverIds: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(driverIds)];
  if (wanted.length === 0) return wanted;
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', wanted)
    .where('role', '=', 'driver')
    .where('company_id', '=', companyId)
    .execute();
  if (found.length !== wanted.length) throw badRequest('driver_ids: водитель не найден в компании задания');
  return wanted;
}

/** A driver who joins a task starts it: an 'open' task becomes 'in_progress' (the status rule, progress.ts). */
export async function joinTask(
  trx: Db['kysely'],
  task: { id: number; rate: number | null; status: string },
  driverId: number,
  now: string,
): Promise<void> {
  // No own rate: the driver is paid by the company's scale until staff set one (WAGES.md). The task's rate is the
  // customer's price, never copied into the driver's pay.
  await addAssociation(trx, task.id, driverId, null, now);
  await settleTask(trx, task.id);
}

/** The association goes last in the driver's order, with the driver's own rate if staff gave one (else the scale). */
export async function addAssociation(
  trx: Db['kysely'],
  taskId: number,
  driverId: number,
  rate: number | null,
  now: string,
): Promise<void> {
  const { top } = await trx
    .selectFrom('task_drivers')
    .select((eb) => eb.fn.max<number | null>('order_index').as('top'))
    .where('driver_id', '=', driverId)
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('task_drivers')
    .values({
      task_id: taskId,
      driver_id: driverId,
      status: 'accepted',
      order_index: (top ?? 0) + 1,
      transport_rate: rate,
      accepted_at: now,
      created_at: now,
    })
    .execute();
}

/**
 * Removing a driver who already reported would destroy the report; such an association is cancelled
 * instead, so its report and wages stay.
 */
export async function removeAssociations(trx: Db['kysely'], ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const tasks = await trx.selectFrom('task_drivers').select('task_id').distinct().where('id', 'in', ids).execute();
  const reported = await trx.selectFrom('reports').select('association_id').distinct().where('association_id', 'in', ids).execute();
  const keep = new Set(reported.map((r) => r.association_id));
  const cancel = ids.filter((id) => keep.has(id));
  const remove = ids.filter((id) => !keep.has(id));
  if (cancel.length > 0) await trx.updateTable('task_drivers').set({ status: 'cancelled' }).where('id', 'in', cancel).execute();
  if (remove.length > 0) await trx.deleteFrom('task_drivers').where('id', 'in', remove).execute();
  for (const { task_id } of tasks) await settleTask(trx, task_id);
}
