/**
 * The statement of trips («Реестр рейсов», issue 34 §2; docs/statements.md): a customer's trips of a period, read
 * from the database once. A trip is a report on one of the company's tasks whose customer is this counterparty, in
 * the period by the task's date (as the statistics count it). Approved trips make the statement and its totals;
 * pending and disputed ones are listed apart. What is billed of a trip: the quantity its month's close stored
 * (payroll_lines), else what it delivered (docs/loads.md), × the task's price, rounded to the kopeck per trip —
 * the per-load revenue of the statistics (server/wages/statistics.ts), so the two agree to the kopeck.
 */
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import { PARTY_COLUMNS, type InvoiceParty, type Statement, type StatementGroup, type StatementTrip } from '../../contract/statements.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { stampsOf, timelineOf, waitsOf } from '../trips/facts.ts';
import { driverVehicles } from '../registers/driver-vehicles.ts';
import { badRequest, notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import type { AuthUser } from '../auth/guard.ts';

/** A trip with its amount in kopecks (sums stay exact). */
export interface BilledTrip extends StatementTrip {
  amount_kop: number;
}

export type CustomerRow = InvoiceParty & { id: number; company_id: number };

/** The counterparty the caller may bill: his company's (another company's: 404), with the role «Заказчик» (400). */
export async function customerOf(db: Db, user: AuthUser, id: number): Promise<CustomerRow> {
  const row = await db.kysely
    .selectFrom('counterparties')
    .select(['id', 'company_id', 'roles', ...PARTY_COLUMNS])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Контрагент не найден');
  assertStaffSeesCompany(user, row.company_id, 'Контрагент не найден');
  const roles = JSON.parse(row.roles) as string[];
  if (!roles.includes('customer')) throw badRequest(`Контрагент «${row.name}» не заказчик: реестр и счета ведутся только по заказчикам`);
  const { roles: _roles, ...customer } = row;
  return customer;
}

/** The customer's trips of the period (approved and not), each billed, oldest first. */
export async function customerTrips(db: Db, companyId: number, customerId: number, from: string, to: string): Promise<BilledTrip[]> {
  const rows = await db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'td.driver_id')
    .leftJoin('payroll_lines as pl', 'pl.report_id', 'r.id')
    .select([
      'r.id as report_id',
      't.id as task_id',
      't.date',
      'r.ticket_number',
      'td.driver_id',
      'u.name as driver',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.unit',
      'r.quantity as reported',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      sql<number>`${sql.raw(DELIVERED_SQL)}`.as('delivered'),
      'pl.quantity as stored_quantity',
      't.rate',
      'r.review_status',
      'r.trip_uid',
    ])
    .where('t.company_id', '=', companyId)
    .where('t.customer_id', '=', customerId)
    .where('t.date', '>=', from)
    .where('t.date', '<=', to)
    .orderBy('t.date')
    .orderBy('r.id')
    .execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.report_id);
  const [stamps, vehicles, acceptances, billed] = await Promise.all([
    stampsOf(db.kysely, ids),
    driverVehicles(db.kysely, rows.map((r) => r.driver_id)),
    acceptancesOf(db, rows),
    db.kysely
      .selectFrom('invoice_trips as it')
      .innerJoin('invoices as i', 'i.id', 'it.invoice_id')
      .select(['it.report_id', 'i.id', 'i.number', 'i.year'])
      .where('i.state', '<>', 'corrected')
      .where('it.report_id', 'in', ids)
      .execute(),
  ]);
  const invoiceOf = new Map(billed.map((b) => [b.report_id, { id: b.id, number: b.number, year: b.year }]));
  return rows.map((r): BilledTrip => {
    const quantity = roundQuantity(Number(r.stored_quantity ?? r.delivered ?? 0));
    const amountKop = r.rate === null ? 0 : toKop(quantity * r.rate);
    const waits = waitsOf(timelineOf(stamps.get(r.report_id) ?? [], { loading: null, unloading: null }), null);
    const waiting = waits.loading_min === null && waits.unloading_min === null ? null : (waits.loading_min ?? 0) + (waits.unloading_min ?? 0);
    const acceptance = r.trip_uid ? acceptances.get(`${r.driver_id}:${r.trip_uid}`) : undefined;
    return {
      report_id: r.report_id,
      task_id: r.task_id,
      date: r.date,
      ticket_number: r.ticket_number,
      vehicle: vehicles.get(r.driver_id)?.plate ?? null,
      driver: r.driver,
      cargo: r.cargo,
      loading_place: r.loading_place,
      unloading_place: r.unloading_place,
      unit: r.unit,
      loaded: r.total_loading_quantity ?? r.reported,
      unloaded: r.total_unloading_quantity,
      quantity,
      price: r.rate,
      amount: fromKop(amountKop),
      amount_kop: amountKop,
      receiver: acceptance?.receiver_name ?? null,
      signed: acceptance?.kind === 'signed',
      refused: acceptance?.kind === 'refused',
      waiting_min: waiting,
      review_status: r.review_status,
      invoice: invoiceOf.get(r.report_id) ?? null,
    };
  });
}

/** The latest acceptance of each trip by its driver (per trip or per shift), keyed `driver:trip_uid`. */
async function acceptancesOf(db: Db, rows: readonly { trip_uid: string | null }[]) {
  const uids = [...new Set(rows.map((r) => r.trip_uid).filter((u): u is string => u !== null))];
  const by = new Map<string, { kind: 'signed' | 'refused'; receiver_name: string | null }>();
  if (uids.length === 0) return by;
  const found = await db.kysely
    .selectFrom('trip_acceptances as a')
    .innerJoin('trip_acceptance_trips as at', 'at.acceptance_id', 'a.id')
    .select(['a.driver_id', 'at.trip_uid', 'a.kind', 'a.receiver_name'])
    .where('at.trip_uid', 'in', uids)
    .orderBy('a.id')
    .execute();
  for (const a of found) by.set(`${a.driver_id}:${a.trip_uid}`, { kind: a.kind, receiver_name: a.receiver_name });
  return by;
}

function groups(trips: readonly BilledTrip[], keyOf: (t: BilledTrip) => string): StatementGroup[] {
  const by = new Map<string, { trips: number; quantity: number; kop: number }>();
  for (const t of trips) {
    const g = by.get(keyOf(t)) ?? { trips: 0, quantity: 0, kop: 0 };
    g.trips += 1;
    g.quantity += t.quantity;
    g.kop += t.amount_kop;
    by.set(keyOf(t), g);
  }
  return [...by].map(([key, g]) => ({ key, trips: g.trips, quantity: roundQuantity(g.quantity), amount: fromKop(g.kop) }));
}

export const cargoKey = (t: Pick<StatementTrip, 'cargo' | 'unit'>): string => `${t.cargo}, ${t.unit}`;

const wire = ({ amount_kop: _kop, ...trip }: BilledTrip): StatementTrip => trip;

/** The statement of a customer for a period: the approved trips with subtotals and the total, those under review apart. */
export async function buildStatement(db: Db, customer: CustomerRow, from: string, to: string): Promise<Statement & { billed: BilledTrip[] }> {
  const all = await customerTrips(db, customer.company_id, customer.id, from, to);
  const approved = all.filter((t) => t.review_status === 'approved');
  const totalKop = approved.reduce((s, t) => s + t.amount_kop, 0);
  return {
    company_id: customer.company_id,
    counterparty: { id: customer.id, name: customer.name, inn: customer.inn },
    from,
    to,
    trips: approved.map(wire),
    by_day: groups(approved, (t) => t.date),
    by_cargo: groups(approved, cargoKey),
    total: { trips: approved.length, quantity: roundQuantity(approved.reduce((s, t) => s + t.quantity, 0)), amount: fromKop(totalKop) },
    unpriced: approved.filter((t) => t.price === null).length,
    under_review: all.filter((t) => t.review_status !== 'approved').map(wire),
    billed: approved,
  };
}
