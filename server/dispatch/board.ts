/**
 * The dispatcher's board (docs/dispatch.md): one day of a company — its active drivers with their tasks of the day in
 * their saved order, the tasks nobody drives yet — and the moves a drag makes, each checked against the board the
 * dispatcher saw (a task no longer where the drag took it from: 409, the board refreshes).
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { conflict, notFound } from '../errors.ts';
import { loadTasks } from '../tasks/load.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { assignDriver, moveDriver, setDriverOrder, unassignDriver } from '../tasks/assignments.ts';
import { assertTaskMonthOpen } from '../payroll/months.ts';
import type { Board, BoardAssignResult, BoardMove } from '../../contract/calls/dispatch.ts';
import { HttpError } from '../errors.ts';
import { driverVehicles, type DriverVehicle } from '../registers/driver-vehicles.ts';
import { driverTripStates, FREE } from '../trips/state.ts';
import { companyTripSettings } from '../trips/settings.ts';
import { driversWithSheet } from '../trip-sheets/required.ts';

export async function loadBoard(db: Db, companyId: number, date: string): Promise<Board> {
  const q = db.kysely;
  const [drivers, tasks] = await Promise.all([
    q
      .selectFrom('users as u')
      .select(['u.id', 'u.name', 'u.phone'])
      .where('u.company_id', '=', companyId)
      .where('u.role', '=', 'driver')
      .where('u.is_active', '=', 1)
      .orderBy('u.name')
      .orderBy('u.id')
      .execute(),
    q.selectFrom('tasks').select(['id', 'status']).where('company_id', '=', companyId).where('date', '=', date).where('status', '<>', 'cancelled').orderBy('id').execute(),
  ]);
  const taskIds = tasks.map((t) => t.id);
  const vehicles = await driverVehicles(q, drivers.map((d) => d.id));
  const settings = await companyTripSettings(q, companyId);
  const tripStates = await driverTripStates(q, drivers.map((d) => d.id), settings.no_data_minutes);
  const withSheet = settings.require_trip_sheet ? await driversWithSheet(q, drivers.map((d) => d.id), date) : null;
  const associations = taskIds.length
    ? await q
        .selectFrom('task_drivers as td')
        .select(['td.task_id', 'td.driver_id', 'td.order_index', sql<string | null>`(select max(r.created_at) from reports r where r.association_id = td.id)`.as('last_report_at')])
        .where('td.task_id', 'in', taskIds)
        .where('td.status', '<>', 'cancelled')
        .orderBy('td.order_index')
        .orderBy('td.task_id')
        .execute()
    : [];
  const full = await loadTasks(q, taskIds);
  const byTask = new Map(full.map((t) => [t.id, t]));
  const driven = new Set(associations.map((a) => a.task_id));
  return {
    date,
    company_id: companyId,
    drivers: drivers.map((d) => {
      const mine = associations.filter((a) => a.driver_id === d.id);
      const parts = mine.flatMap((a) => byTask.get(a.task_id)?.driver_associations.filter((x) => x.driver_id === d.id) ?? []);
      const last = mine.map((a) => a.last_report_at).filter((v): v is string => v !== null).sort().at(-1) ?? null;
      return {
        id: d.id,
        name: d.name,
        phone: d.phone,
        vehicle: vehicleOf(vehicles.get(d.id)),
        task_ids: mine.map((a) => a.task_id),
        planned: roundQuantity(parts.reduce((s, a) => s + a.share, 0)),
        delivered: roundQuantity(parts.reduce((s, a) => s + a.delivered, 0)),
        last_report_at: last,
        trip_state: tripStates.get(d.id) ?? FREE,
        no_trip_sheet: withSheet !== null && mine.length > 0 && !withSheet.has(d.id),
      };
    }),
    unassigned: tasks.filter((t) => !driven.has(t.id) && t.status !== 'completed').map((t) => t.id),
    tasks: full,
  };
}

function vehicleOf(v: DriverVehicle | undefined) {
  return v ? { number: v.plate, brand: v.brand, capacity: v.capacity } : null;
}

/** The driver's tasks of the day in their order, with `taskId` put at `index`. */
async function placeInDay(db: Db, driverId: number, date: string, taskId: number, index: number): Promise<void> {
  const day = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select('t.id')
    .where('td.driver_id', '=', driverId)
    .where('td.status', 'in', ['accepted', 'in_progress'])
    .where('t.date', '=', date)
    .orderBy('td.order_index')
    .orderBy('t.id')
    .execute();
  const ids = day.map((r) => r.id).filter((id) => id !== taskId);
  if (!day.some((r) => r.id === taskId)) return;
  ids.splice(Math.min(index, ids.length), 0, taskId);
  await setDriverOrder(db, driverId, ids);
}

const STALE = 'Доска устарела: задачу уже переставили в другой вкладке или другой диспетчер. Доска обновлена — повторите, если нужно';

/** One drag on the board; answers the day's board after it. */
export async function moveOnBoard(db: Db, user: AuthUser, companyId: number, move: BoardMove): Promise<Board> {
  const task = await db.kysely.selectFrom('tasks').select(['id', 'company_id', 'max_drivers', 'status']).where('id', '=', move.task_id).executeTakeFirst();
  if (!task || task.company_id !== companyId) throw notFound('Задача не найдена');
  const live = await db.kysely.selectFrom('task_drivers').select(['driver_id']).where('task_id', '=', task.id).where('status', '<>', 'cancelled').execute();
  const on = new Set(live.map((a) => a.driver_id));
  // The drag was made on the board the dispatcher saw: the task must still be in the column it was taken from.
  if (move.from_driver_id === null ? on.size > 0 : !on.has(move.from_driver_id)) throw conflict(STALE);
  const from = move.from_driver_id;
  const to = move.to_driver_id;
  if (from !== null && to !== null && from === to) {
    await placeInDay(db, to, move.date, task.id, move.index);
  } else if (to === null) {
    if (from !== null) await unassignDriver(db, user, task.id, from);
  } else if (from === null) {
    if (task.max_drivers !== null && on.size >= task.max_drivers) throw conflict(`На задаче №${task.id} заняты все места (${task.max_drivers})`);
    if (task.status === 'completed') throw conflict(`Задача №${task.id} выполнена: назначить водителя нельзя`);
    await assignDriver(db, user, task.id, to, {});
    await placeInDay(db, to, move.date, task.id, move.index);
  } else {
    if (on.has(to)) throw conflict('Этот водитель уже на задаче');
    await assertTaskMonthOpen(db.kysely, task.id, 'Водителя нельзя заменить');
    await moveDriver(db, user, task.id, from, to);
    await placeInDay(db, to, move.date, task.id, move.index);
  }
  return loadBoard(db, companyId, move.date);
}

/** Many tasks onto one driver: each on its own, each with its result. */
export async function assignOnBoard(db: Db, user: AuthUser, companyId: number, input: { task_ids: number[]; driver_id: number; date: string }): Promise<BoardAssignResult> {
  const results: BoardAssignResult['results'] = [];
  for (const taskId of [...new Set(input.task_ids)]) {
    try {
      const task = await db.kysely.selectFrom('tasks').select(['company_id', 'max_drivers', 'status']).where('id', '=', taskId).executeTakeFirst();
      if (!task || task.company_id !== companyId) throw notFound('Задача не найдена');
      const live = await db.kysely.selectFrom('task_drivers').select('driver_id').where('task_id', '=', taskId).where('status', '<>', 'cancelled').execute();
      if (live.some((a) => a.driver_id === input.driver_id)) throw conflict('Этот водитель уже на задаче');
      if (task.max_drivers !== null && live.length >= task.max_drivers) throw conflict(`Заняты все места (${task.max_drivers})`);
      if (task.status === 'completed' || task.status === 'cancelled') throw conflict(task.status === 'completed' ? 'Задача выполнена' : 'Задача отменена');
      await assignDriver(db, user, taskId, input.driver_id, {});
      results.push({ task_id: taskId, ok: true, detail: null });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      results.push({ task_id: taskId, ok: false, detail: error.detail });
    }
  }
  return { results, board: await loadBoard(db, companyId, input.date) };
}
