/** Loads tasks with their driver associations and shapes them as the contract's Task. */
import { sql, type Kysely } from 'kysely';
import type { Database, TaskRow } from '../db/schema.ts';
import type { DriverAssociation, DriverStatus, Page, Task } from '../../contract/entities.ts';
import { DELIVERED_SQL, roundQuantity, shareOf } from './progress.ts';
import { driverPayFor } from '../wages/pay.ts';
import { taskMoney } from '../wages/stored-money.ts';
import { queryTemplate } from '../db/template.ts';
import { priceSources } from '../prices/task-price.ts';
import type { CounterpartyRef, PlaceRef } from '../../contract/registers.ts';

type Q = Kysely<Database>;

export interface AssociationRow {
  id: number;
  task_id: number;
  driver_id: number;
  driver_name: string | null;
  quantity: number | null;
  status: DriverStatus;
  loading_quantity: number | null;
  transport_rate: number | null;
  unloading_quantity: number | null;
  order_index: number;
  report_count: number | string | null;
  last_report_id: number | null;
  last_report_at: string | null;
  reported_quantity: number | string | null;
  planned_quantity: number | null;
  finished_at: string | null;
  trips: number | string | null;
  delivered: number | string | null;
  disputed: number | string | null;
}

const numberOrNull = (value: number | string | null): number | null => (value === null ? null : Number(value));

/** `plan` and `liveDrivers` of the association's task give the share when staff set none. */
export function toAssociation(row: AssociationRow, plan: number, liveDrivers: number): DriverAssociation {
  return {
    id: row.id,
    task_id: row.task_id,
    driver_id: row.driver_id,
    driver_name: row.driver_name,
    quantity: row.quantity,
    status: row.status,
    loading_quantity: row.loading_quantity,
    transport_rate: row.transport_rate,
    unloading_quantity: row.unloading_quantity,
    order_index: row.order_index,
    report_count: Number(row.report_count ?? 0),
    last_report_id: row.last_report_id,
    last_report_at: row.last_report_at,
    reported_quantity: numberOrNull(row.reported_quantity),
    planned_quantity: row.planned_quantity,
    share: shareOf(plan, row.planned_quantity, liveDrivers),
    trips: Number(row.trips ?? 0),
    delivered: roundQuantity(Number(row.delivered ?? 0)),
    finished_at: row.finished_at,
    disputed: Number(row.disputed ?? 0),
  };
}

/** What a task's progress needs of all its associations (a driver's view carries only their own). */
export interface TaskTotals {
  live: number;
  finished: number;
  delivered: number;
}

/** A task's places as the register has them (docs/registers.md); `places` holds the ones its ids name. */
export function toTask(row: TaskRow, associations: DriverAssociation[], totals: TaskTotals, places: ReadonlyMap<number, PlaceRef> = new Map()): Task {
  return {
    id: row.id,
    company_id: row.company_id,
    date: row.date,
    cargo: row.cargo,
    loading_place: row.loading_place,
    unloading_place: row.unloading_place,
    planned_quantity: row.planned_quantity,
    unit: row.unit,
    status: row.status,
    rate: row.rate,
    comment: row.comment,
    max_drivers: row.max_drivers,
    loading_place_id: row.loading_place_id,
    unloading_place_id: row.unloading_place_id,
    loading: row.loading_place_id === null ? null : (places.get(row.loading_place_id) ?? null),
    unloading: row.unloading_place_id === null ? null : (places.get(row.unloading_place_id) ?? null),
    cargo_state: row.cargo_state,
    cargo_packaging: row.cargo_packaging,
    cargo_package_code: row.cargo_package_code,
    driver_associations: associations,
    taken_places: totals.live,
    progress: {
      delivered: roundQuantity(totals.delivered),
      plan: row.planned_quantity,
      drivers: totals.live,
      drivers_finished: totals.finished,
      shortfall: row.status === 'completed' && totals.delivered < row.planned_quantity ? roundQuantity(row.planned_quantity - totals.delivered) : null,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The association columns with the driver's name; callers add their own filters. */
export function selectAssociations(db: Q) {
  return db
    .selectFrom('task_drivers as td')
    .leftJoin('users as u', 'u.id', 'td.driver_id')
    .select([
      'td.id',
      'td.task_id',
      'td.driver_id',
      'u.name as driver_name',
      'td.quantity',
      'td.status',
      'td.loading_quantity',
      'td.transport_rate',
      'td.unloading_quantity',
      'td.order_index',
      // Correlated subqueries over reports_association_idx: a task list shows its reports without a second call.
      sql<number>`(select count(*) from reports r where r.association_id = td.id)`.as('report_count'),
      sql<number | null>`(select max(r.id) from reports r where r.association_id = td.id)`.as('last_report_id'),
      sql<string | null>`(select max(r.created_at) from reports r where r.association_id = td.id)`.as('last_report_at'),
      sql<number | null>`(select sum(r.quantity) from reports r where r.association_id = td.id)`.as('reported_quantity'),
      'td.planned_quantity',
      'td.finished_at',
      sql<number>`(select coalesce(sum(r.trips), 0) from reports r where r.association_id = td.id)`.as('trips'),
      sql<number>`(select coalesce(sum(${sql.raw(DELIVERED_SQL)}), 0) from reports r where r.association_id = td.id)`.as('delivered'),
      sql<number>`(select count(*) from reports r where r.association_id = td.id and r.review_status = 'disputed')`.as('disputed'),
    ]);
}

export async function loadAssociation(db: Q, id: number): Promise<DriverAssociation | null> {
  const row = await selectAssociations(db).where('td.id', '=', id).executeTakeFirst();
  if (!row) return null;
  const [totals] = await taskTotals(db, [row.task_id]);
  const task = await db.selectFrom('tasks').select('planned_quantity').where('id', '=', row.task_id).executeTakeFirstOrThrow();
  return toAssociation(row, task.planned_quantity, totals?.live ?? 0);
}

const taskTotalsOf = queryTemplate((db, taskIds: readonly number[]) =>
  db
    .selectFrom('task_drivers as td')
    .select([
      'td.task_id',
      sql<number>`count(case when td.status <> 'cancelled' then 1 end)`.as('live'),
      sql<number>`count(case when td.status <> 'cancelled' and td.finished_at is not null then 1 end)`.as('finished'),
      sql<number>`coalesce(sum((select coalesce(sum(${sql.raw(DELIVERED_SQL)}), 0) from reports r where r.association_id = td.id)), 0)`.as('delivered'),
    ])
    .where('td.task_id', 'in', taskIds)
    .groupBy('td.task_id'),
);

const tasksByIds = queryTemplate((db, ids: readonly number[]) => db.selectFrom('tasks').selectAll().where('id', 'in', ids));

const associationsOf = queryTemplate((db, taskIds: readonly number[], onlyDriverId: number | undefined) =>
  selectAssociations(db)
    .where('td.task_id', 'in', taskIds)
    .$if(onlyDriverId !== undefined, (qb) => qb.where('td.driver_id', '=', onlyDriverId as number))
    .orderBy('td.order_index')
    .orderBy('td.id'),
);

/** Per task: live drivers, how many finished, and what every report on it delivered. */
function taskTotals(db: Q, taskIds: readonly number[]) {
  return taskTotalsOf(db, taskIds)
    .then((rows) => rows.map((r) => ({ task_id: r.task_id, live: Number(r.live), finished: Number(r.finished), delivered: Number(r.delivered) })));
}

/**
 * Tasks by id, in the order of `ids` (missing ids are skipped). With `onlyDriverId` a task carries only
 * that driver's association: a driver never sees the other drivers' quantities and rates.
 */
export async function loadTasks(db: Q, ids: readonly number[], onlyDriverId?: number): Promise<Task[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  const [rows, assocRows, taken] = await Promise.all([
    tasksByIds(db, unique),
    associationsOf(db, unique, onlyDriverId),
    // A driver sees only their own association, but the places taken and the progress count everyone's.
    taskTotals(db, unique),
  ]);
  const totalsBy = new Map(taken.map((t) => [t.task_id, t]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const byTask = new Map<number, DriverAssociation[]>();
  for (const a of assocRows) {
    const list = byTask.get(a.task_id) ?? [];
    list.push(toAssociation(a, byId.get(a.task_id)?.planned_quantity ?? 0, totalsBy.get(a.task_id)?.live ?? 0));
    byTask.set(a.task_id, list);
  }
  // Staff see each task's money so far; a driver sees what they are paid, never the customer's price (server/wages/pay.ts).
  const money = onlyDriverId === undefined ? await taskMoney(db, unique) : null;
  const pay =
    onlyDriverId === undefined
      ? null
      : await driverPayFor(
          db,
          onlyDriverId,
          rows.map((r) => ({ id: r.id, company_id: r.company_id, date: r.date, transport_rate: byTask.get(r.id)?.[0]?.transport_rate ?? null })),
        );
  const contacts = onlyDriverId === undefined ? null : await dispatchers(db, rows);
  const places = await placeRefs(db, rows);
  // A driver never sees the counterparties (their requisites are the company's business): staff views only.
  const parties = onlyDriverId === undefined ? await counterpartyRefs(db, rows) : null;
  const prices = onlyDriverId === undefined ? await priceSources(db, rows) : null;
  return unique.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const task = toTask(row, byTask.get(id) ?? [], totalsBy.get(id) ?? { live: 0, finished: 0, delivered: 0 }, places);
    const driverPay = pay?.get(id);
    if (driverPay) return [{ ...task, rate: null, driver_pay: driverPay, dispatcher: contacts?.get(id) ?? null }];
    if (!parties) return [task];
    const party = (pid: number | null) => (pid === null ? null : (parties.get(pid) ?? null));
    const staffTask: Task = {
      ...task,
      customer_id: row.customer_id,
      shipper_id: row.shipper_id,
      consignee_id: row.consignee_id,
      customer: party(row.customer_id),
      shipper: party(row.shipper_id),
      consignee: party(row.consignee_id),
      price_source: prices?.get(id) ?? null,
    };
    return [money ? { ...staffTask, money: money.get(id) ?? { approved: 0, revenue: 0, pay: 0, margin: 0 } } : staffTask];
  });
}

const placesByIds = queryTemplate((db, ids: readonly number[]) =>
  db.selectFrom('places').select(['id', 'name', 'address', 'lat', 'lon', 'radius_m', 'driver_note']).where('id', 'in', ids),
);
const counterpartiesByIds = queryTemplate((db, ids: readonly number[]) => db.selectFrom('counterparties').select(['id', 'name', 'inn']).where('id', 'in', ids));

/** The places the tasks name, by id. */
async function placeRefs(db: Q, rows: readonly TaskRow[]): Promise<Map<number, PlaceRef>> {
  const ids = [...new Set(rows.flatMap((r) => [r.loading_place_id, r.unloading_place_id]).filter((id): id is number => id !== null))];
  return new Map(ids.length ? (await placesByIds(db, ids)).map((p) => [p.id, p]) : []);
}

/** The counterparties the tasks name, by id: name and ИНН. */
async function counterpartyRefs(db: Q, rows: readonly TaskRow[]): Promise<Map<number, CounterpartyRef>> {
  const ids = [...new Set(rows.flatMap((r) => [r.customer_id, r.shipper_id, r.consignee_id]).filter((id): id is number => id !== null))];
  return new Map(ids.length ? (await counterpartiesByIds(db, ids)).map((c) => [c.id, c]) : []);
}

export async function loadTask(db: Q, id: number, onlyDriverId?: number): Promise<Task | null> {
  const [task] = await loadTasks(db, [id], onlyDriverId);
  return task ?? null;
}

export function toPage<T>(items: T[], total: number, offset: number): Page<T> {
  const next = offset + items.length;
  return { items, next_offset: items.length > 0 && next < total ? next : null, total };
}

const dispatcherCandidates = queryTemplate((db, creators: readonly number[], companies: readonly number[]) =>
  db
    .selectFrom('users')
    .select(['id', 'name', 'phone', 'role', 'company_id'])
    .where('is_active', '=', 1)
    .where((eb) => eb.or([eb('id', 'in', creators), eb.and([eb('company_id', 'in', companies), eb('role', '=', 'admin')])]))
    .orderBy('id'),
);

/** Per task: whom its driver calls — the task's creator if still active staff, else an active admin of its company. */
async function dispatchers(db: Q, tasks: readonly { id: number; company_id: number; created_by: number | null }[]): Promise<Map<number, { name: string; phone: string }>> {
  const result = new Map<number, { name: string; phone: string }>();
  if (tasks.length === 0) return result;
  const creators = [...new Set(tasks.map((t) => t.created_by).filter((id): id is number => id !== null))];
  const companies = [...new Set(tasks.map((t) => t.company_id))];
  const staff = await dispatcherCandidates(db, creators.length ? creators : [-1], companies);
  for (const t of tasks) {
    const creator = staff.find((u) => u.id === t.created_by && u.role !== 'driver' && u.phone);
    const admin = staff.find((u) => u.company_id === t.company_id && u.role === 'admin' && u.phone);
    const who = creator ?? admin;
    if (who) result.set(t.id, { name: who.name, phone: who.phone });
  }
  return result;
}
