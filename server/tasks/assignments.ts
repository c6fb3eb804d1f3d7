/** Staff managing a task's drivers and a driver's order of tasks. */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';
import type { DriverAssociation, DriverStatus, Page, Task } from '../../contract/entities.ts';
import type { TaskCreate } from '../../contract/driver.ts';
import { loadAssociation, loadTask, loadTasks, toPage } from './load.ts';
import { assertStaffSeesCompany, isSuperAdmin } from './scope.ts';
import { taskCompany } from './staff-actions.ts';
import { addAssociation, companyDriverIds, joinTask, removeAssociations } from './associations.ts';
import { settleTask } from './progress.ts';
import { assertTaskMonthOpen } from '../payroll/months.ts';
import { resolveTaskLinks } from '../registers/task-links.ts';
import { taskPrice } from '../prices/task-price.ts';

/** A driver staff may manage: a driver of a company the caller sees. */
export async function manageableDriver(db: Db, user: AuthUser, driverId: number): Promise<{ id: number; company_id: number }> {
  const driver = await db.kysely
    .selectFrom('users')
    .select(['id', 'company_id'])
    .where('id', '=', driverId)
    .where('role', '=', 'driver')
    .executeTakeFirst();
  if (!driver || driver.company_id === null) throw notFound('Водитель не найден');
  assertStaffSeesCompany(user, driver.company_id, 'Водитель не найден');
  return { id: driver.id, company_id: driver.company_id };
}

export async function createTask(db: Db, user: AuthUser, input: TaskCreate): Promise<Task> {
  const companyId = await creationCompany(db, user, input.company_id);
  const driverIds = await companyDriverIds(db.kysely, companyId, input.driver_ids ?? []);
  const id = await db.kysely.transaction().execute((trx) => insertTask(trx, companyId, user.id, input, driverIds, nowIso()));
  return (await loadTask(db.kysely, id)) as Task;
}

/** The company a task is created in: the caller's own, or the one a super-admin names. */
export async function creationCompany(db: Db, user: AuthUser, asked: number | undefined): Promise<number> {
  let companyId = user.company_id;
  if (isSuperAdmin(user)) {
    if (asked === undefined) throw badRequest('company_id: обязательное поле');
    companyId = asked;
  } else if (asked !== undefined && asked !== user.company_id) {
    throw forbidden('Можно создавать задачи только в своей компании');
  }
  if (companyId === null) throw badRequest('company_id: пользователь не привязан к компании');
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw badRequest('company_id: компания не найдена');
  return companyId;
}

/**
 * One task with its drivers (already checked to be the company's) inside the caller's transaction: the form, the
 * Excel import and «Повторять» all create through it.
 */
export async function insertTask(trx: Db['kysely'], companyId: number, userId: number, input: TaskCreate, driverIds: readonly number[], now: string): Promise<number> {
  // Both places are resolved (a text or a place), so their texts are set (task-links.ts refuses a missing one).
  const links = await resolveTaskLinks(trx, companyId, input, null);
  // The customer's price from the list unless typed (docs/prices.md).
  const price = await taskPrice(
    trx,
    { customer_id: links.customer_id ?? null, cargo: input.cargo, loading_place_id: links.loading_place_id ?? null, unloading_place_id: links.unloading_place_id ?? null, unit: input.unit, date: input.date },
    input.rate,
  );
  const { id } = await trx
    .insertInto('tasks')
    .values({
      company_id: companyId,
      created_by: userId,
      date: input.date,
      cargo: input.cargo,
      ...links,
      loading_place: links.loading_place as string,
      unloading_place: links.unloading_place as string,
      planned_quantity: input.planned_quantity,
      unit: input.unit,
      status: driverIds.length > 0 ? 'in_progress' : 'open',
      ...price,
      comment: input.comment ?? null,
      max_drivers: input.max_drivers ?? null,
      cargo_state: input.cargo_state ?? null,
      cargo_packaging: input.cargo_packaging ?? null,
      cargo_package_code: input.cargo_package_code ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const driverId of driverIds) await addAssociation(trx, id, driverId, null, now);
  for (const { id: driverId, ...fields } of input.drivers ?? []) {
    if (!driverIds.includes(driverId)) throw badRequest(`drivers: водитель ${driverId} не назначен на задание`);
    const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('task_drivers').set(changes).where('task_id', '=', id).where('driver_id', '=', driverId).execute();
    }
  }
  await settleTask(trx, id);
  return id;
}

/** A task with reports is kept: its reports carry wages and photos. Cancel it instead. */
export async function deleteTask(db: Db, user: AuthUser, taskId: number): Promise<void> {
  assertStaffSeesCompany(user, await taskCompany(db, taskId), 'Задача не найдена');
  const reported = await db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .select('r.id')
    .where('td.task_id', '=', taskId)
    .executeTakeFirst();
  if (reported) throw conflict('По заданию есть отчёты: его можно отменить, но не удалить');
  await db.kysely.deleteFrom('tasks').where('id', '=', taskId).execute();
}

export interface AssignFields {
  quantity?: number | null | undefined;
  status_param?: DriverStatus | undefined;
  loading_quantity?: number | null | undefined;
  transport_rate?: number | null | undefined;
  unloading_quantity?: number | null | undefined;
  planned_quantity?: number | null | undefined;
}

/** PUT /tasks/{id}/drivers/{driverId}/: puts the driver on the task if needed, then sets the given fields. */
export async function assignDriver(db: Db, user: AuthUser, taskId: number, driverId: number, fields: AssignFields): Promise<DriverAssociation> {
  const companyId = await taskCompany(db, taskId);
  assertStaffSeesCompany(user, companyId, 'Задача не найдена');
  const driver = await manageableDriver(db, user, driverId);
  if (driver.company_id !== companyId) throw badRequest('driverId: водитель из другой компании');
  if (fields.transport_rate !== undefined || fields.quantity !== undefined) await assertTaskMonthOpen(db.kysely, taskId, 'Ставку и количество водителя нельзя изменить');
  const id = await db.kysely.transaction().execute(async (trx) => {
    const now = nowIso();
    let assoc = await trx.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('driver_id', '=', driverId).executeTakeFirst();
    if (!assoc) {
      const task = await trx.selectFrom('tasks').select(['id', 'rate', 'status']).where('id', '=', taskId).executeTakeFirstOrThrow();
      await joinTask(trx, task, driverId, now);
      assoc = await trx.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('driver_id', '=', driverId).executeTakeFirstOrThrow();
    }
    const { status_param, ...rest } = fields;
    const changes = { ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), ...(status_param ? { status: status_param } : {}) };
    if (Object.keys(changes).length > 0) await trx.updateTable('task_drivers').set(changes).where('id', '=', assoc.id).execute();
    await settleTask(trx, taskId);
    return assoc.id;
  });
  return (await loadAssociation(db.kysely, id)) as DriverAssociation;
}

export async function unassignDriver(db: Db, user: AuthUser, taskId: number, driverId: number): Promise<void> {
  assertStaffSeesCompany(user, await taskCompany(db, taskId), 'Задача не найдена');
  const assoc = await db.kysely.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('driver_id', '=', driverId).executeTakeFirst();
  if (!assoc) throw notFound('Водитель не назначен на это задание');
  await assertTaskMonthOpen(db.kysely, taskId, 'Водителя нельзя снять с задачи');
  await db.kysely.transaction().execute((trx) => removeAssociations(trx, [assoc.id]));
}

/**
 * Moves a driver's assignment to another driver of the task's company in one step (move, don't redo): the
 * association keeps its quantities and rate, and goes last in the new driver's order. An association
 * with reports stays with the driver who filed them (their wages and photos).
 */
export async function moveDriver(db: Db, user: AuthUser, taskId: number, driverId: number, toDriverId: number): Promise<DriverAssociation> {
  const companyId = await taskCompany(db, taskId);
  assertStaffSeesCompany(user, companyId, 'Задача не найдена');
  if (toDriverId === driverId) throw badRequest('to_driver_id: это тот же водитель');
  const target = await manageableDriver(db, user, toDriverId);
  if (target.company_id !== companyId) throw badRequest('to_driver_id: водитель из другой компании');
  const id = await db.kysely.transaction().execute(async (trx) => {
    const assoc = await trx.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('driver_id', '=', driverId).executeTakeFirst();
    if (!assoc) throw notFound('Водитель не назначен на это задание');
    const taken = await trx.selectFrom('task_drivers').select('id').where('task_id', '=', taskId).where('driver_id', '=', toDriverId).executeTakeFirst();
    if (taken) throw conflict('Этот водитель уже назначен на задание');
    const reported = await trx.selectFrom('reports').select('id').where('association_id', '=', assoc.id).executeTakeFirst();
    if (reported) throw conflict('Водитель уже отчитался по заданию: назначение нельзя передать другому');
    const { top } = await trx
      .selectFrom('task_drivers')
      .select((eb) => eb.fn.max<number | null>('order_index').as('top'))
      .where('driver_id', '=', toDriverId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('task_drivers')
      .set({ driver_id: toDriverId, order_index: (top ?? 0) + 1, status: 'accepted', finished_at: null })
      .where('id', '=', assoc.id)
      .execute();
    await trx.updateTable('tasks').set({ updated_at: nowIso() }).where('id', '=', taskId).execute();
    await settleTask(trx, taskId);
    return assoc.id;
  });
  return (await loadAssociation(db.kysely, id)) as DriverAssociation;
}

/** A driver's current tasks (optionally of one date) in their order, as the driver sees them. */
export async function driverTasks(db: Db, driverId: number, date?: string): Promise<Page<Task>> {
  const rows = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select('t.id')
    .where('td.driver_id', '=', driverId)
    .where('td.status', 'in', ['accepted', 'in_progress'])
    .$if(date !== undefined, (qb) => qb.where('t.date', '=', date as string))
    .orderBy('t.date')
    .orderBy('td.order_index')
    .orderBy('t.id')
    .execute();
  const items = await loadTasks(db.kysely, rows.map((r) => r.id), driverId);
  return toPage(items, items.length, 0);
}

/**
 * Puts `taskIds` first, numbered 1..n in that order; the driver's other current tasks follow in their
 * previous order, so no two current tasks share a place.
 */
export async function setDriverOrder(db: Db, driverId: number, taskIds: number[]): Promise<void> {
  const unique = [...new Set(taskIds)];
  const live = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id', 'td.task_id'])
    .where('td.driver_id', '=', driverId)
    .where('td.status', 'in', ['accepted', 'in_progress'])
    .orderBy('td.order_index')
    .orderBy('t.date')
    .orderBy('t.id')
    .execute();
  const byTask = new Map(live.map((r) => [r.task_id, r.id]));
  const missing = unique.filter((id) => !byTask.has(id));
  if (missing.length > 0) throw badRequest(`task_ids: у водителя нет текущих заданий ${missing.join(', ')}`);
  const ordered = [...unique.map((t) => byTask.get(t) as number), ...live.filter((r) => !unique.includes(r.task_id)).map((r) => r.id)];
  await db.kysely.transaction().execute(async (trx) => {
    for (const [index, id] of ordered.entries()) {
      await trx.updateTable('task_drivers').set({ order_index: index + 1 }).where('id', '=', id).execute();
    }
  });
}
