/** Transfers as the API shows them: one query for the rows, one for the carrier tasks' progress. */
import { loadTasks } from '../tasks/load.ts';
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { CarrierTaskView, Transfer, TransferProgress, TransferStatus } from '../../contract/transfers.ts';

export interface TransferFilter {
  ids?: readonly number[];
  /** Transfers where this company is the sender or the receiver (or the side `direction` names). */
  companyId?: number;
  direction?: 'incoming' | 'outgoing' | undefined;
  status?: TransferStatus | undefined;
}

function baseQuery(db: Db) {
  return db.kysely
    .selectFrom('transfers as tr')
    .innerJoin('tasks as t', 't.id', 'tr.task_id')
    .innerJoin('companies as fc', 'fc.id', 'tr.from_company_id')
    .innerJoin('companies as tc', 'tc.id', 'tr.to_company_id')
    .leftJoin('users as cu', 'cu.id', 'tr.created_by')
    .leftJoin('users as du', 'du.id', 'tr.decided_by')
    .select([
      'tr.id',
      'tr.status',
      'tr.quantity',
      'tr.comment',
      'tr.decline_reason',
      'tr.created_at',
      'tr.updated_at',
      'tr.decided_at',
      'tr.carrier_task_id',
      'tr.from_company_id',
      'tr.to_company_id',
      'fc.name as from_name',
      'tc.name as to_name',
      'cu.name as created_by_name',
      'du.name as decided_by_name',
      't.id as task_id',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.planned_quantity',
      't.unit',
    ]);
}

async function progressOf(db: Db, carrierTaskIds: readonly number[]): Promise<Map<number, TransferProgress>> {
  const result = new Map<number, TransferProgress>();
  if (carrierTaskIds.length === 0) return result;
  // The carrier task's one progress figure (docs/loads.md): what was delivered, of plan.
  for (const task of await loadTasks(db.kysely, carrierTaskIds)) {
    result.set(task.id, {
      task_status: task.status,
      planned_quantity: task.planned_quantity,
      completed_quantity: task.progress.delivered,
      drivers: task.progress.drivers,
      drivers_completed: task.progress.drivers_finished,
    });
  }
  return result;
}

export async function listTransfers(db: Db, viewer: AuthUser, filter: TransferFilter): Promise<Transfer[]> {
  let query = baseQuery(db);
  if (filter.ids) query = query.where('tr.id', 'in', filter.ids.length ? [...filter.ids] : [0]);
  if (filter.companyId !== undefined) {
    const company = filter.companyId;
    if (filter.direction === 'incoming') query = query.where('tr.to_company_id', '=', company);
    else if (filter.direction === 'outgoing') query = query.where('tr.from_company_id', '=', company);
    else query = query.where((eb) => eb.or([eb('tr.to_company_id', '=', company), eb('tr.from_company_id', '=', company)]));
  }
  if (filter.status) query = query.where('tr.status', '=', filter.status);
  const rows = await query.orderBy('tr.created_at', 'desc').orderBy('tr.id', 'desc').limit(500).execute();
  const progress = await progressOf(db, rows.flatMap((r) => (r.carrier_task_id === null ? [] : [r.carrier_task_id])));
  const own = viewer.company_id;
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    direction: own === r.to_company_id ? 'incoming' : own === r.from_company_id ? 'outgoing' : null,
    task: {
      id: r.task_id,
      date: r.date,
      cargo: r.cargo,
      loading_place: r.loading_place,
      unloading_place: r.unloading_place,
      planned_quantity: r.planned_quantity,
      unit: r.unit,
    },
    from_company: { id: r.from_company_id, name: r.from_name },
    to_company: { id: r.to_company_id, name: r.to_name },
    quantity: r.quantity ?? r.planned_quantity,
    comment: r.comment,
    decline_reason: r.decline_reason,
    created_by_name: r.created_by_name,
    decided_by_name: r.decided_by_name,
    created_at: r.created_at,
    updated_at: r.updated_at,
    decided_at: r.decided_at,
    carrier_task_id: r.carrier_task_id,
    progress: r.carrier_task_id === null ? null : (progress.get(r.carrier_task_id) ?? null),
  }));
}

export async function loadTransfer(db: Db, viewer: AuthUser, id: number): Promise<Transfer | null> {
  return (await listTransfers(db, viewer, { ids: [id] }))[0] ?? null;
}

export async function carrierTaskView(db: Db, transfer: Transfer): Promise<CarrierTaskView> {
  if (transfer.carrier_task_id === null) return { transfer, task: null };
  const task = await db.kysely
    .selectFrom('tasks')
    .select(['id', 'company_id', 'date', 'cargo', 'loading_place', 'unloading_place', 'planned_quantity', 'unit', 'status'])
    .where('id', '=', transfer.carrier_task_id)
    .executeTakeFirst();
  if (!task) return { transfer, task: null };
  const drivers = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .select(['td.driver_id', 'u.name as driver_name', 'td.status', 'td.quantity'])
    .where('td.task_id', '=', task.id)
    .orderBy('u.name')
    .execute();
  return { transfer, task: { ...task, drivers } };
}
