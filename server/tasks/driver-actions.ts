/** What a driver (and, for an association, staff) does to a task: accept, report quantities, change status. */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import type { DriverAssociation, DriverStatus, Task } from '../../contract/entities.ts';
import type { QuantityUpdate } from '../../contract/driver.ts';
import { loadAssociation, loadTask } from './load.ts';
import { joinTask } from './associations.ts';
import { settleTask } from './progress.ts';
import { isDriver, localToday, staffSeesCompany, statusLabel } from './scope.ts';
import { assertTaskMonthOpen } from '../payroll/months.ts';

/**
 * The status moves a driver makes by hand: start, and finish their part without another report («Завершить
 * задачу»); their last trip's report finishes it too (`final`). Reopening is staff's.
 */
const DRIVER_MOVES: Readonly<Partial<Record<DriverStatus, readonly DriverStatus[]>>> = {
  accepted: ['in_progress', 'completed'],
  in_progress: ['completed'],
};

function assertDriverMove(from: DriverStatus, to: DriverStatus): void {
  if (from === to) return;
  if (!DRIVER_MOVES[from]?.includes(to)) {
    throw conflict(`Нельзя сменить статус с «${statusLabel(from)}» на «${statusLabel(to)}»`);
  }
}

export async function acceptTask(db: Db, user: AuthUser, taskId: number): Promise<Task> {
  try {
    await db.kysely.transaction().execute(async (trx) => {
      // Row lock on PostgreSQL so two drivers cannot both take the last seat; SQLite runs one writer anyway.
      const task = await trx
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', taskId)
        .$if(db.dialect === 'postgres', (qb) => qb.forUpdate())
        .executeTakeFirst();
      if (!task || task.company_id !== user.company_id) throw notFound('Задание не найдено');
      const mine = await trx
        .selectFrom('task_drivers')
        .select('id')
        .where('task_id', '=', taskId)
        .where('driver_id', '=', user.id)
        .executeTakeFirst();
      if (mine) throw conflict('Вы уже взяли это задание');
      if (!['open', 'in_progress'].includes(task.status) || task.date < localToday()) {
        throw conflict('Задание больше недоступно');
      }
      if (task.max_drivers !== null) {
        const { n } = await trx
          .selectFrom('task_drivers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('task_id', '=', taskId)
          .where('status', '<>', 'cancelled')
          .executeTakeFirstOrThrow();
        if (Number(n) >= task.max_drivers) throw conflict('На задании уже нет свободных мест');
      }
      await joinTask(trx, task, user.id, nowIso());
    });
  } catch (error) {
    // Two accepts of one task by the same driver at once: the unique (task_id, driver_id) settles it.
    if (isUniqueViolation(error)) throw conflict('Вы уже взяли это задание');
    throw error;
  }
  return (await loadTask(db.kysely, taskId, user.id)) as Task;
}

/** The association row with its task's company, or 404. */
export async function findAssociation(db: Db, taskId: number, driverId: number) {
  const row = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id', 'td.driver_id', 'td.status', 'td.transport_rate', 't.company_id'])
    .where('td.task_id', '=', taskId)
    .where('td.driver_id', '=', driverId)
    .executeTakeFirst();
  if (!row) throw notFound('Водитель не назначен на это задание');
  return row;
}

/** A driver updates only their own live association and never its rate; staff of the company update any. */
export async function updateQuantities(
  db: Db,
  user: AuthUser,
  taskId: number,
  driverId: number,
  body: QuantityUpdate,
): Promise<DriverAssociation> {
  if (isDriver(user) && driverId !== user.id) throw forbidden('Можно менять только свои данные');
  const assoc = await findAssociation(db, taskId, driverId);
  if (isDriver(user)) {
    if (assoc.status === 'completed' || assoc.status === 'cancelled') {
      throw conflict(`Задание уже ${statusLabel(assoc.status)}: измените отчёт`);
    }
    if (body.transport_rate !== undefined && body.transport_rate !== assoc.transport_rate) {
      throw forbidden('Ставку меняет только менеджер');
    }
    if (body.status !== undefined) assertDriverMove(assoc.status, body.status);
  } else if (!staffSeesCompany(user, assoc.company_id)) {
    throw notFound('Задание водителя не найдено');
  }
  if (isDriver(user) && body.planned_quantity !== undefined) throw forbidden('Долю водителя задаёт менеджер');
  const changes: Partial<Record<'quantity' | 'loading_quantity' | 'unloading_quantity' | 'transport_rate' | 'planned_quantity', number | null>> = {};
  for (const key of ['quantity', 'loading_quantity', 'unloading_quantity', 'transport_rate', 'planned_quantity'] as const) {
    if (body[key] !== undefined) changes[key] = body[key];
  }
  const status = body.status !== undefined && body.status !== assoc.status ? { status: body.status } : {};
  if (changes.transport_rate !== undefined || changes.quantity !== undefined) await assertTaskMonthOpen(db.kysely, taskId, 'Ставку и количество водителя нельзя изменить');
  if (Object.keys(changes).length > 0 || 'status' in status) {
    await db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('task_drivers')
        .set({ ...changes, ...status })
        .where('id', '=', assoc.id)
        .execute();
      await settleTask(trx, taskId);
    });
  }
  return (await loadAssociation(db.kysely, assoc.id)) as DriverAssociation;
}

/** PUT /tasks/{id}/ by a driver: moves their own association ('accepted' → 'in_progress'). */
export async function changeOwnStatus(db: Db, user: AuthUser, taskId: number, status: DriverStatus): Promise<Task> {
  const assoc = await db.kysely
    .selectFrom('task_drivers')
    .select(['id', 'status'])
    .where('task_id', '=', taskId)
    .where('driver_id', '=', user.id)
    .executeTakeFirst();
  if (!assoc) throw notFound('Вы не брали это задание');
  assertDriverMove(assoc.status, status);
  if (assoc.status !== status) {
    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('task_drivers').set({ status }).where('id', '=', assoc.id).execute();
      await settleTask(trx, taskId);
    });
  }
  return (await loadTask(db.kysely, taskId, user.id)) as Task;
}
