/** What staff do to a task of their company: change its status, create, delete, assign drivers, order. */
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict, notFound, parse } from '../errors.ts';
import type { Task } from '../../contract/entities.ts';
import { staffTaskUpdateSchema, taskFieldsSchema, type StaffTaskUpdate } from '../../contract/driver.ts';
import { loadTask } from './load.ts';
import { addAssociation, companyDriverIds, removeAssociations } from './associations.ts';
import { assertStaffSeesCompany } from './scope.ts';
import { settleTask } from './progress.ts';
import { assertMonthOpen } from '../payroll/months.ts';
import { resolveTaskLinks, touchesLinks } from '../registers/task-links.ts';
import { taskPrice, touchesPrice } from '../prices/task-price.ts';

export async function taskCompany(db: Db, taskId: number): Promise<number> {
  const task = await db.kysely.selectFrom('tasks').select('company_id').where('id', '=', taskId).executeTakeFirst();
  if (!task) throw notFound('Задание не найдено');
  return task.company_id;
}

export const STALE_TASK = 'Задачу изменили в другой вкладке или другим пользователем. Обновите и повторите.';
const TASK_FIELDS = Object.keys(taskFieldsSchema.shape) as (keyof z.infer<typeof taskFieldsSchema>)[];

/** The staff's PUT /tasks/{id}/ (docs/product.md §4; contract/driver.ts staffTaskUpdateSchema). */
export async function updateTaskAsStaff(db: Db, user: AuthUser, taskId: number, body: unknown): Promise<Task> {
  const input = parse(staffTaskUpdateSchema, body);
  const fields = Object.fromEntries(TASK_FIELDS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]));
  if (input.status === undefined && input.driver_ids === undefined && input.drivers === undefined && Object.keys(fields).length === 0) {
    throw badRequest('status: обязательное поле');
  }
  const companyId = await taskCompany(db, taskId);
  assertStaffSeesCompany(user, companyId, 'Задача не найдена');
  await assertMoneyOpen(db, taskId, input);
  await db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    if (input.updated_at !== undefined) {
      const current = await trx.selectFrom('tasks').select('updated_at').where('id', '=', taskId).executeTakeFirstOrThrow();
      if (current.updated_at !== input.updated_at) throw conflict(STALE_TASK);
    }
    if (touchesLinks(input)) {
      // The register's links and the places' texts, checked and resolved together (registers/task-links.ts).
      const current = await trx
        .selectFrom('tasks')
        .select(['customer_id', 'shipper_id', 'consignee_id', 'loading_place_id', 'unloading_place_id'])
        .where('id', '=', taskId)
        .executeTakeFirstOrThrow();
      Object.assign(fields, await resolveTaskLinks(trx, companyId, input, current));
    }
    if (Object.keys(fields).length > 0) {
      await trx.updateTable('tasks').set({ ...fields, updated_at: now }).where('id', '=', taskId).execute();
    }
    if (touchesPrice(input)) await repriceTask(trx, taskId, companyId, input.rate);
    if (input.driver_ids !== undefined || input.drivers !== undefined) {
      // The drivers are part of what an editor loaded: a change to them makes other editors' copies stale too.
      await trx.updateTable('tasks').set({ updated_at: now }).where('id', '=', taskId).execute();
    }
    if (input.driver_ids !== undefined) await syncDrivers(trx, taskId, companyId, input.driver_ids, now);
    for (const d of input.drivers ?? []) {
      const { id, ...fields } = d;
      const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (Object.keys(changes).length === 0) continue;
      await trx.updateTable('task_drivers').set(changes).where('task_id', '=', taskId).where('driver_id', '=', id).execute();
    }
    if (input.status === 'in_progress' || input.status === 'open') {
      // The status rule (progress.ts): «в работе» means someone is on the task, «открыта» that nobody is.
      const live = await trx.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('status', '<>', 'cancelled').executeTakeFirst();
      if (input.status === 'in_progress' && !live) throw conflict('На задаче нет водителей: назначьте водителя, и она будет в работе');
      if (input.status === 'open' && live) throw conflict('На задаче есть водители: уберите их, чтобы задача снова была открыта');
    }
    if (input.status !== undefined) {
      await trx.updateTable('tasks').set({ status: input.status, updated_at: now }).where('id', '=', taskId).execute();
      // Staff finish a task by finishing every driver's part, and reopen it by reopening them (progress.ts).
      if (input.status === 'completed' || input.status === 'in_progress') {
        await trx
          .updateTable('task_drivers')
          .set({ status: input.status === 'completed' ? 'completed' : 'in_progress' })
          .where('task_id', '=', taskId)
          .where('status', 'in', input.status === 'completed' ? ['accepted', 'in_progress'] : ['completed'])
          .execute();
      }
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
    await settleTask(trx, taskId);
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
  for (const driverId of wanted.filter((id) => !have.has(id))) {
    await addAssociation(trx, taskId, driverId, null, now);
  }
  const drop = current.filter((c) => !wanted.includes(c.driver_id)).map((c) => c.id);
  if (drop.length > 0) await removeAssociations(trx, drop);
}

/**
 * A closed month's figures do not move (server/routes/WAGES.md): its task's price, date, drivers' rates and
 * quantities, and its drivers cannot change; moving a task into a closed month is refused too.
 */
async function assertMoneyOpen(db: Db, taskId: number, input: StaffTaskUpdate): Promise<void> {
  const task = await db.kysely.selectFrom('tasks').select(['company_id', 'date', 'rate']).where('id', '=', taskId).executeTakeFirstOrThrow();
  const money =
    (input.rate !== undefined && input.rate !== task.rate) ||
    (input.date !== undefined && input.date !== task.date) ||
    input.driver_ids !== undefined ||
    (input.drivers ?? []).some((d) => d.transport_rate !== undefined || d.quantity !== undefined);
  if (!money) return;
  const what = input.rate !== undefined && input.rate !== task.rate ? 'Цену задачи нельзя изменить' : input.date !== undefined && input.date !== task.date ? 'Дату задачи нельзя изменить' : 'Водителей и их ставки нельзя изменить';
  await assertMonthOpen(db.kysely, task.company_id, task.date, what);
  if (input.date !== undefined) await assertMonthOpen(db.kysely, task.company_id, input.date, 'Задачу нельзя перенести в закрытый месяц');
}

/**
 * After a change to what a task's price is resolved from (docs/prices.md): a rate sent is taken as create takes it
 * (null: the list's; a number: the list's when equal to its line, else «вручную»); otherwise a price from the list
 * (or none yet) follows the list for the task as it now is, and a typed one stays. A closed month's price never moves.
 */
async function repriceTask(trx: Db['kysely'], taskId: number, companyId: number, rate: number | null | undefined): Promise<void> {
  const row = await trx.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
  if (rate === undefined && !(row.price_source === 'list' || (row.price_source === null && row.rate === null))) return;
  const price = await taskPrice(trx, row, rate === undefined ? null : rate);
  if (price.rate !== row.rate) await assertMonthOpen(trx, companyId, row.date, 'Цену задачи нельзя изменить');
  if (price.rate === row.rate && price.price_line_id === row.price_line_id && price.price_source === row.price_source) return;
  await trx.updateTable('tasks').set(price).where('id', '=', taskId).execute();
}
