/** What staff do to a task of their company: change its status, create, delete, assign drivers, order. */
import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, notFound, parse } from '../errors.ts';
import { TASK_STATUSES, type Task } from '../../contract/entities.ts';
import { quantityUpdateSchema } from '../../contract/driver.ts';
import { loadTask } from './load.ts';
import { addAssociation, companyDriverIds, removeAssociations } from './associations.ts';
import { assertStaffSeesCompany } from './scope.ts';

export async function taskCompany(db: Db, taskId: number): Promise<number> {
  const task = await db.kysely.selectFrom('tasks').select('company_id').where('id', '=', taskId).executeTakeFirst();
  if (!task) throw notFound('Задание не найдено');
  return task.company_id;
}

/** The SPEC's staff PUT /tasks/{id}/: a status, and/or driver_ids with a drivers list of their fields. */
const staffTaskUpdateSchema = z.object({
  status: z.enum(TASK_STATUSES, { message: 'неизвестный статус задания' }).optional(),
  driver_ids: z.array(z.number().int().positive()).max(200).optional(),
  drivers: z.array(quantityUpdateSchema.extend({ id: z.number().int().positive() })).max(200).optional(),
});

export async function updateTaskAsStaff(db: Db, user: AuthUser, taskId: number, body: unknown): Promise<Task> {
  const input = parse(staffTaskUpdateSchema, body);
  if (input.status === undefined && input.driver_ids === undefined && input.drivers === undefined) {
    throw badRequest('status: обязательное поле');
  }
  const companyId = await taskCompany(db, taskId);
  assertStaffSeesCompany(user, companyId);
  await db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    if (input.driver_ids !== undefined) await syncDrivers(trx, taskId, companyId, input.driver_ids, now);
    for (const d of input.drivers ?? []) {
      const { id, ...fields } = d;
      const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (Object.keys(changes).length === 0) continue;
      await trx.updateTable('task_drivers').set(changes).where('task_id', '=', taskId).where('driver_id', '=', id).execute();
    }
    if (input.status !== undefined) {
      await trx.updateTable('tasks').set({ status: input.status, updated_at: now }).where('id', '=', taskId).execute();
      if (input.status === 'cancelled') {
        // A cancelled task leaves every driver's current list, which also resolves their outboxes.
        await trx
          .updateTable('task_drivers')
          .set({ status: 'cancelled' })
          .where('task_id', '=', taskId)
          .where('status', 'in', ['accepted', 'in_progress'])
          .execute();
      }
    }
  });
  return (await loadTask(db.kysely, taskId)) as Task;
}

/** Makes the task's drivers exactly `driverIds`: adds missing ones, removes others that have no report. */
async function syncDrivers(
  trx: Db['kysely'],
  taskId: number,
  companyId: number,
  driverIds: number[],
  now: string,
): Promise<void> {
  const wanted = await companyDriverIds(trx, companyId, driverIds);
  const current = await trx.selectFrom('task_drivers').select(['id', 'driver_id']).where('task_id', '=', taskId).execute();
  const have = new Set(current.map((c) => c.driver_id));
  const task = await trx.selectFrom('tasks').select('rate').where('id', '=', taskId).executeTakeFirstOrThrow();
  for (const driverId of wanted.filter((id) => !have.has(id))) {
    await addAssociation(trx, taskId, driverId, task.rate, now);
  }
  const drop = current.filter((c) => !wanted.includes(c.driver_id)).map((c) => c.id);
  if (drop.length > 0) await removeAssociations(trx, drop);
}
