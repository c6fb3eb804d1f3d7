/** The task lists: available, assigned, a driver's completed, bulk by ids, and staff's completed list. */
import { companyTripSettings } from '../trips/settings.ts';
import { TRIP_STEPS, type TripSettings, type TripStep } from '../../contract/trips.ts';
import { driverWaybill, type DriverWaybill } from '../../contract/waybill.ts';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { OpenTrip, Page, Task } from '../../contract/entities.ts';
import type { AvailableQuery, CompletedQuery, DriverCompletedQuery } from '../../contract/driver.ts';
import { loadTasks, toPage } from './load.ts';
import { counterpartyTaskIds, searchCondition, searchedNumber, taskSearchConditions, taskTextIds, usersNamed } from './search.ts';
import { isDriver, isSuperAdmin, localToday } from './scope.ts';
import { queryTemplate } from '../db/template.ts';

const SEARCH_COLUMNS = ['t.cargo', 't.loading_place', 't.unloading_place'] as const;

/** Not full: no cap, or fewer live (not cancelled) associations than the cap. */
const hasFreeSeat = sql<SqlBool>`(t.max_drivers is null or (select count(*) from task_drivers c where c.task_id = t.id and c.status <> 'cancelled') < t.max_drivers)`;

/** Tasks of the driver's company, open or in progress, from today on, not taken by them, not full. */
export async function availableTasks(db: Db, user: AuthUser, q: AvailableQuery): Promise<Page<Task>> {
  if (user.company_id === null) return toPage([], 0, q.offset);
  const base = db.kysely
    .selectFrom('tasks as t')
    .where('t.company_id', '=', user.company_id)
    .where('t.status', 'in', ['open', 'in_progress'])
    .where('t.date', '>=', localToday())
    .$if(q.date !== undefined, (qb) => qb.where('t.date', '=', q.date as string))
    .$if(!!q.search, (qb) => qb.where(searchCondition(db, q.search as string, SEARCH_COLUMNS)))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('task_drivers as mine')
            .select('mine.id')
            .whereRef('mine.task_id', '=', 't.id')
            .where('mine.driver_id', '=', user.id),
        ),
      ),
    )
    .where(hasFreeSeat);
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select('t.id').orderBy('t.date').orderBy('t.id').limit(q.limit).offset(q.offset).execute(),
  ]);
  const items = await loadTasks(db.kysely, rows.map((r) => r.id), user.id);
  return toPage(items, Number(n), q.offset);
}

/** The driver's live associations ('accepted', 'in_progress') by date, and within a day in the manager's order. */
const assignedIds = queryTemplate((db, driverId: number) =>
  db
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select('t.id')
    .where('td.driver_id', '=', driverId)
    .where('td.status', 'in', ['accepted', 'in_progress'])
    .orderBy('t.date')
    .orderBy('td.order_index')
    .orderBy('t.id'),
);

export async function assignedTasks(db: Db, user: AuthUser): Promise<Page<Task>> {
  const rows = await assignedIds(db.kysely, user.id);
  const items = await loadTasks(db.kysely, rows.map((r) => r.id), user.id);
  // The phone runs each trip by its company's settings (a signature per trip or per shift, the geofence's dwell).
  const settings = new Map<number, TripSettings>();
  for (const companyId of new Set(items.map((t) => t.company_id))) settings.set(companyId, await companyTripSettings(db.kysely, companyId));
  const mine = items.flatMap((t) => t.driver_associations.filter((a) => a.driver_id === user.id).map((a) => a.id));
  const open = await openTrips(db, user.id, mine);
  const waybills = await waybillsOf(db, mine);
  return toPage(
    items.map((t) => ({
      ...t,
      trip_settings: settings.get(t.company_id) as TripSettings,
      open_trip: t.driver_associations.map((a) => open.get(a.id)).find((trip) => trip !== undefined) ?? null,
      waybills: waybills.get(t.id) ?? [],
    })),
    items.length,
    0,
  );
}

/**
 * The driver's latest trip on each of these parts that the server holds unfinished (no «Выгружен» stamp), with its
 * stamps: by the reports' association index, a part holding a day's few dozen trips.
 */
async function openTrips(db: Db, driverId: number, associationIds: readonly number[]): Promise<Map<number, OpenTrip>> {
  const open = new Map<number, OpenTrip>();
  if (associationIds.length === 0) return open;
  const latest = await db.kysely
    .selectFrom('reports as r')
    .select(['r.id', 'r.association_id', 'r.trip_uid'])
    .where('r.association_id', 'in', associationIds)
    .where('r.driver_id', '=', driverId)
    .where('r.trip_uid', 'is not', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('trip_stamps as s').select('s.id').whereRef('s.report_id', '=', 'r.id').where('s.step', '=', 'unloading_departed'))),
    )
    .orderBy('r.id', 'desc')
    .execute();
  const chosen = new Map<number, { id: number; uid: string }>();
  for (const r of latest) if (!chosen.has(r.association_id) && r.trip_uid) chosen.set(r.association_id, { id: r.id, uid: r.trip_uid });
  if (chosen.size === 0) return open;
  const stamps = await db.kysely
    .selectFrom('trip_stamps')
    .select(['report_id', 'step', 'at'])
    .where('report_id', 'in', [...chosen.values()].map((c) => c.id))
    .execute();
  for (const [associationId, { id, uid }] of chosen) {
    const mine = stamps.filter((s) => s.report_id === id);
    const trip: OpenTrip = { uid, stamps: {} };
    for (const step of TRIP_STEPS) {
      const stamp = mine.find((s) => s.step === step);
      if (stamp) trip.stamps[step as TripStep] = stamp.at;
    }
    open.set(associationId, trip);
  }
  return open;
}

/**
 * The waybill of each trip of these associations that has one (issue 33: the driver's card shows its state, and once
 * accepted the УИД and QR), by task: one query for all of them, not one per trip.
 */
async function waybillsOf(db: Db, associationIds: number[]): Promise<Map<number, DriverWaybill[]>> {
  const byTask = new Map<number, DriverWaybill[]>();
  if (associationIds.length === 0) return byTask;
  const rows = await db.kysely
    .selectFrom('etrn_documents as d')
    .innerJoin('reports as r', 'r.id', 'd.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .select(['d.report_id', 'd.title', 'd.state', 'd.uid', 'd.qr', 'd.updated_at', 'r.trip_uid', 'td.task_id'])
    .where('r.association_id', 'in', associationIds)
    .where('d.direction', '=', 'out')
    // A literal, so SQLite reads the live documents through their partial index (etrn_documents_live); an annulled
    // title is no paper for the road.
    .where(sql.ref('d.state'), '<>', sql.lit('annulled'))
    .orderBy('d.report_id')
    .execute();
  const byReport = new Map<number, typeof rows>();
  for (const row of rows) byReport.set(row.report_id, [...(byReport.get(row.report_id) ?? []), row]);
  for (const documents of byReport.values()) {
    const first = documents[0];
    const waybill = first ? driverWaybill(documents, first.trip_uid) : null;
    if (first && waybill) byTask.set(first.task_id, [...(byTask.get(first.task_id) ?? []), waybill]);
  }
  return byTask;
}

/** The driver's completed associations with their tasks, newest first. */
export async function driverCompletedTasks(db: Db, user: AuthUser, q: DriverCompletedQuery): Promise<Page<Task>> {
  const base = db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .where('td.driver_id', '=', user.id)
    .where('td.status', '=', 'completed')
    .$if(q.date_from !== undefined, (qb) => qb.where('t.date', '>=', q.date_from as string))
    .$if(q.date_to !== undefined, (qb) => qb.where('t.date', '<=', q.date_to as string));
  // PostgreSQL, asked for the newest 50, walked every company's tasks by date hoping to meet the driver's soon
  // (200 000 tasks, 0.47 s at full size); his own assignments, read first (a materialized CTE) and sorted, are a
  // thousand rows. SQLite plans the plain query from his assignments already.
  const page: Promise<{ id: number }[]> =
    db.dialect === 'postgres'
      ? db.kysely
          .with((w) => w('mine').materialized(), () => base.select(['t.id', 't.date', 'td.id as td_id']))
          .selectFrom('mine')
          .select('mine.id')
          .orderBy('mine.date', 'desc')
          .orderBy('mine.td_id', 'desc')
          .limit(q.limit)
          .offset(q.offset)
          .execute()
      : base.select('t.id').orderBy('t.date', 'desc').orderBy('td.id', 'desc').limit(q.limit).offset(q.offset).execute();
  const [{ n }, rows] = await Promise.all([base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(), page]);
  const items = await loadTasks(db.kysely, rows.map((r) => r.id), user.id);
  return toPage(items, Number(n), q.offset);
}

/** Tasks by id that the caller may see; others are left out rather than refused. */
export async function bulkTasks(db: Db, user: AuthUser, ids: number[]): Promise<Task[]> {
  if (ids.length === 0) return [];
  let query = db.kysely.selectFrom('tasks as t').select('t.id').where('t.id', 'in', ids);
  if (isDriver(user)) {
    const companyId = user.company_id ?? -1;
    // His own tasks (any association, also a past one), and the open tasks he could take as /tasks/available/
    // lists them — never another driver's task of the company.
    query = query.where(({ or, and, eb, exists, selectFrom }) =>
      or([
        and([eb('t.company_id', '=', companyId), eb('t.status', 'in', ['open', 'in_progress']), eb('t.date', '>=', localToday()), hasFreeSeat]),
        exists(
          selectFrom('task_drivers as mine')
            .select('mine.id')
            .whereRef('mine.task_id', '=', 't.id')
            .where('mine.driver_id', '=', user.id),
        ),
      ]),
    );
  } else if (!isSuperAdmin(user)) {
    query = query.where('t.company_id', '=', user.company_id ?? -1);
  }
  const visible = new Set((await query.execute()).map((r) => r.id));
  return loadTasks(db.kysely, ids.filter((id) => visible.has(id)), isDriver(user) ? user.id : undefined);
}

type StaffFilter = Pick<CompletedQuery, 'search' | 'status' | 'date_from' | 'date_to' | 'company_id'> & Partial<Pick<CompletedQuery, 'counterparty_id' | 'place_id'>>;

/** The tasks a staff list or export covers: the caller's company (a super-admin: all, or one) and the filters. */
export function staffTaskQuery(db: Db, user: AuthUser, q: StaffFilter) {
  return db.kysely
    .selectFrom('tasks as t')
    .$if(!isSuperAdmin(user), (qb) => qb.where('t.company_id', '=', user.company_id ?? -1))
    .$if(q.company_id !== undefined, (qb) => qb.where('t.company_id', '=', q.company_id as number))
    .$call((qb) => (q.status === 'all' ? qb : qb.where('t.status', '=', q.status)))
    .$if(q.date_from !== undefined, (qb) => qb.where('t.date', '>=', q.date_from as string))
    .$if(q.date_to !== undefined, (qb) => qb.where('t.date', '<=', q.date_to as string))
    // A card's «Задачи (N)»: exactly the tasks that link it (each column has its index), as the card counts them.
    .$if(q.counterparty_id !== undefined, (qb) =>
      qb.where(({ or, eb }) => or([eb('t.customer_id', '=', q.counterparty_id as number), eb('t.shipper_id', '=', q.counterparty_id as number), eb('t.consignee_id', '=', q.counterparty_id as number)])),
    )
    .$if(q.place_id !== undefined, (qb) => qb.where(({ or, eb }) => or([eb('t.loading_place_id', '=', q.place_id as number), eb('t.unloading_place_id', '=', q.place_id as number)])))
    .$if(!!q.search, (qb) => qb.where(staffSearch(db, q.search as string, isSuperAdmin(user) ? (q.company_id ?? null) : (user.company_id ?? -1), q)));
}

/**
 * Staff search a task by its cargo or places, by a driver on it (by name), by a counterparty it names (by name), or by
 * its number («123», «№123»).
 */
function staffSearch(db: Db, search: string, companyId: number | null, q: StaffFilter) {
  // One set of ids, each part read once by an index — the text by its own (search.ts), the drivers by name first
  // (a small table) and then their parts by the driver index, the number itself — not a test of every task of the
  // period (an OR of a subquery and the texts made PostgreSQL read the whole table, SQLite every task of the company).
  const number = searchedNumber(search);
  const parts = [
    // PostgreSQL: the text's tasks bounded by the list's own filters (search.ts), not every company's history.
    taskTextIds(db, search, { companyId, status: q.status === 'all' ? undefined : q.status, dateFrom: q.date_from, dateTo: q.date_to }),
    sql`select sd.task_id from task_drivers sd where sd.driver_id in ${usersNamed(db, search)}`,
    counterpartyTaskIds(db, search, companyId),
    ...(number === undefined ? [] : [sql`select cast(${number} as integer)`]),
  ];
  return sql<SqlBool>`t.id in (${sql.join(parts, sql` union `)})`;
}

/** `-date` → date descending, then id the same way, so pages never overlap. */
export function orderingOf(ordering: CompletedQuery['ordering']) {
  return { column: ordering.replace('-', '') as 'date' | 'id' | 'cargo', direction: ordering.startsWith('-') ? ('desc' as const) : ('asc' as const) };
}

/** Staff's list of tasks (by default the completed ones), newest first, scoped to their company. */
export async function staffTaskList(db: Db, user: AuthUser, q: CompletedQuery): Promise<Page<Task>> {
  if (db.dialect === 'postgres' && q.search) return searchedList(db, user, q, q.search);
  const base = staffTaskQuery(db, user, q);
  const { column, direction } = orderingOf(q.ordering);
  const [{ n }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    base.select('t.id').orderBy(`t.${column}`, direction).orderBy('t.id', direction).limit(q.limit).offset(q.offset).execute(),
  ]);
  const items = await loadTasks(db.kysely, rows.map((r) => r.id));
  return toPage(items, Number(n), q.offset);
}

/**
 * PostgreSQL, a search: the list as a union of the search's parts (search.ts `taskSearchConditions`), each part the
 * list's own tasks under its filters, counted and paged from the union. As one `t.id in (union)`, PostgreSQL hashed
 * the union and joined every task of the company's list to it, then sorted them: a word as common as «щебень» (38 699
 * of 155 000 tasks at three years' size) cost ~170 ms for the count and ~200 ms for the page, ~90 ms each so
 * (docs/scale.md «The close as a job…»). The same tasks either way (tests/server/tasks-staff.test.ts on both databases).
 */
async function searchedList(db: Db, user: AuthUser, q: CompletedQuery, search: string): Promise<Page<Task>> {
  const { column, direction } = orderingOf(q.ordering);
  const { search: _search, ...filters } = q;
  const companyId = isSuperAdmin(user) ? (q.company_id ?? null) : (user.company_id ?? -1);
  const parts = taskSearchConditions(db, search, companyId).map((condition) =>
    staffTaskQuery(db, user, filters)
      .where(condition)
      .select(['t.id', sql.ref<string | number>(`t.${column}`).as('key')]),
  );
  const union = parts.slice(1).reduce((all, part) => all.union(part), parts[0]!);
  const [{ n }, rows] = await Promise.all([
    db.kysely.selectFrom(union.as('x')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    db.kysely.selectFrom(union.as('x')).select('x.id').orderBy('x.key', direction).orderBy('x.id', direction).limit(q.limit).offset(q.offset).execute(),
  ]);
  const items = await loadTasks(db.kysely, rows.map((r) => r.id));
  return toPage(items, Number(n), q.offset);
}

/**
 * The dispatcher's "now": tasks of `date` (today by default) that are not cancelled, plus every task still
 * in progress from earlier days, with their drivers' reported quantities. At most 500, oldest day first.
 */
export async function activeTasks(db: Db, user: AuthUser, q: { date?: string | undefined; company_id?: number | undefined }): Promise<Page<Task>> {
  const day = q.date ?? localToday();
  const rows = await db.kysely
    .selectFrom('tasks as t')
    .select('t.id')
    .$if(!isSuperAdmin(user), (qb) => qb.where('t.company_id', '=', user.company_id ?? -1))
    .$if(q.company_id !== undefined, (qb) => qb.where('t.company_id', '=', q.company_id as number))
    .where(({ or, and, eb }) =>
      or([and([eb('t.date', '=', day), eb('t.status', '<>', 'cancelled')]), and([eb('t.status', '=', 'in_progress'), eb('t.date', '<=', day)])]),
    )
    .orderBy('t.date')
    .orderBy('t.id')
    .limit(500)
    .execute();
  const items = await loadTasks(db.kysely, rows.map((r) => r.id));
  return toPage(items, items.length, 0);
}
