/**
 * The statement of trips («Реестр рейсов», issue 34 §2; docs/statements.md): a customer's trips of a period, read
 * from the database once. A trip is a report on one of the company's tasks whose customer is this counterparty, in
 * the period by the task's date (as the statistics count it). Approved trips make the statement and its totals;
 * pending and disputed ones are listed apart. What is billed of a trip: the quantity its month's close stored
 * (payroll_lines), else what it delivered (docs/loads.md), × the task's price, rounded to the kopeck per trip —
 * the per-load revenue of the statistics (server/wages/statistics.ts), so the two agree to the kopeck. The trips are
 * read by the loads' one query (`selectLoads`, filtered to the customer). Where the customer's list has an hourly
 * line («час») for the trip's date, cargo and route, its waiting beyond the free period is billed too, apart.
 */
import type { Db } from '../db/connect.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import { billedMinutes, PARTY_COLUMNS, WAITING_KEY, waitingKop, type InvoiceParty, type Statement, type StatementGroup, type StatementTrip, type TripWaiting } from '../../contract/statements.ts';
import { resolvePrice } from '../../contract/prices.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { selectLoads } from '../wages/pay.ts';
import { customerLines, type LineRow } from '../prices/lines.ts';
import { stampsOf, timelineOf, waitsOf } from '../trips/facts.ts';
import { driverVehicles } from '../registers/driver-vehicles.ts';
import { badRequest, notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import type { AuthUser } from '../auth/guard.ts';

/** A trip with its amount and its billed waiting in kopecks (sums stay exact). */
export interface BilledTrip extends StatementTrip {
  amount_kop: number;
  waiting_kop: number;
}

export type CustomerRow = InvoiceParty & { id: number; company_id: number };

const customerRow = (db: Db, id: number) =>
  db.kysely.selectFrom('counterparties').select(['id', 'company_id', 'roles', ...PARTY_COLUMNS]).where('id', '=', id).executeTakeFirst();

/** The customer a link opened (its company and counterparty, checked when the link was made). */
export async function linkCustomer(db: Db, link: { company_id: number; counterparty_id: number }): Promise<CustomerRow> {
  const row = await customerRow(db, link.counterparty_id);
  if (!row || row.company_id !== link.company_id) throw notFound('Заказчик не найден');
  const { roles: _roles, ...customer } = row;
  return customer;
}

/** The counterparty the caller may bill: his company's (another company's: 404), with the role «Заказчик» (400). */
export async function customerOf(db: Db, user: AuthUser, id: number): Promise<CustomerRow> {
  const row = await customerRow(db, id);
  if (!row) throw notFound('Контрагент не найден');
  assertStaffSeesCompany(user, row.company_id, 'Контрагент не найден');
  const roles = JSON.parse(row.roles) as string[];
  if (!roles.includes('customer')) throw badRequest(`Контрагент «${row.name}» не заказчик: реестр и счета ведутся только по заказчикам`);
  const { roles: _roles, ...customer } = row;
  return customer;
}

/** The customer's trips of the period (approved and not), each billed, oldest first. */
export async function customerTrips(db: Db, companyId: number, customerId: number, from: string, to: string): Promise<BilledTrip[]> {
  // The loads' one query (server/wages/pay.ts): the same joins, delivered quantity and stored line as the pay.
  const rows = await selectLoads(db.kysely, { companyId, customerId, start_date: from, end_date: to, review: 'any' });
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.report_id);
  const [stamps, vehicles, acceptances, billed, lines] = await Promise.all([
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
    customerLines(db.kysely, customerId).then((all) => all.filter((l) => l.unit === 'час')),
  ]);
  const invoiceOf = new Map(billed.map((b) => [b.report_id, { id: b.id, number: b.number, year: b.year }]));
  return rows.map((r): BilledTrip => {
    const quantity = roundQuantity(r.stored?.quantity ?? r.quantity);
    const amountKop = r.task_rate === null ? 0 : toKop(quantity * r.task_rate);
    const waits = waitsOf(timelineOf(stamps.get(r.report_id) ?? [], { loading: null, unloading: null }), null);
    const waiting = waits.loading_min === null && waits.unloading_min === null ? null : (waits.loading_min ?? 0) + (waits.unloading_min ?? 0);
    const hourly = resolvePrice(lines, { cargo: r.cargo, loading_place_id: r.loading_place_id, unloading_place_id: r.unloading_place_id, unit: 'час', date: r.date });
    const acceptance = r.trip_uid ? acceptances.get(`${r.driver_id}:${r.trip_uid}`) : undefined;
    return {
      report_id: r.report_id,
      task_id: r.task_id,
      date: r.date,
      ticket_number: r.ticket_number,
      vehicle: vehicles.get(r.driver_id)?.plate ?? null,
      driver: r.driver_name,
      cargo: r.cargo,
      loading_place: r.loading_place,
      unloading_place: r.unloading_place,
      unit: r.unit,
      loaded: r.total_loading_quantity ?? r.reported,
      unloaded: r.total_unloading_quantity,
      quantity,
      price: r.task_rate,
      amount: fromKop(amountKop),
      amount_kop: amountKop,
      receiver: acceptance?.receiver_name ?? null,
      signed: acceptance?.kind === 'signed',
      refused: acceptance?.kind === 'refused',
      waiting_min: waiting,
      ...billedWaiting(hourly, waits.loading_min, waits.unloading_min),
      review_status: r.review_status,
      invoice: invoiceOf.get(r.report_id) ?? null,
    };
  });
}

/**
 * The waiting time an hourly line bills (docs/statements.md «Waiting time»): at loading and at unloading each, the
 * minutes beyond the line's free period; price × minutes / 60 rounded half up to the kopeck. No line: nothing.
 */
export function billedWaiting(
  line: Pick<LineRow, 'id' | 'price_kop' | 'free_minutes'> | null,
  loadingMin: number | null,
  unloadingMin: number | null,
): { waiting: TripWaiting | null; waiting_kop: number } {
  if (line === null) return { waiting: null, waiting_kop: 0 };
  const free = line.free_minutes ?? 0;
  const minutes = billedMinutes(loadingMin, free) + billedMinutes(unloadingMin, free);
  const kop = waitingKop(Number(line.price_kop), minutes);
  return {
    waiting: { line_id: line.id, free_minutes: free, price: fromKop(Number(line.price_kop)), billed_min: minutes, hours: roundQuantity(minutes / 60), amount: fromKop(kop) },
    waiting_kop: kop,
  };
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

/** Groups adding carriage and waiting: `quantityOf`/`kopOf` say what a trip adds to its group (null: not in it). */
function groups(trips: readonly BilledTrip[], keyOf: (t: BilledTrip) => string, quantityOf = (t: BilledTrip) => t.quantity, kopOf = (t: BilledTrip) => t.amount_kop): StatementGroup[] {
  const by = new Map<string, { trips: number; quantity: number; kop: number }>();
  for (const t of trips) {
    const g = by.get(keyOf(t)) ?? { trips: 0, quantity: 0, kop: 0 };
    g.trips += 1;
    g.quantity += quantityOf(t);
    g.kop += kopOf(t);
    by.set(keyOf(t), g);
  }
  return [...by].map(([key, g]) => ({ key, trips: g.trips, quantity: roundQuantity(g.quantity), amount: fromKop(g.kop) }));
}

export const cargoKey = (t: Pick<StatementTrip, 'cargo' | 'unit'>): string => `${t.cargo}, ${t.unit}`;

const wire = ({ amount_kop: _kop, waiting_kop: _waiting, ...trip }: BilledTrip): StatementTrip => trip;

/** The statement of a customer for a period: the approved trips with subtotals and the total, those under review apart. */
export async function buildStatement(db: Db, customer: CustomerRow, from: string, to: string): Promise<Statement & { billed: BilledTrip[] }> {
  const all = await customerTrips(db, customer.company_id, customer.id, from, to);
  const approved = all.filter((t) => t.review_status === 'approved');
  const carriageKop = approved.reduce((s, t) => s + t.amount_kop, 0);
  const waited = approved.filter((t) => t.waiting_kop > 0);
  const waitingKopTotal = waited.reduce((s, t) => s + t.waiting_kop, 0);
  return {
    company_id: customer.company_id,
    counterparty: { id: customer.id, name: customer.name, inn: customer.inn },
    from,
    to,
    trips: approved.map(wire),
    by_day: groups(approved, (t) => t.date, undefined, (t) => t.amount_kop + t.waiting_kop),
    by_cargo: [...groups(approved, cargoKey), ...groups(waited, () => WAITING_KEY, (t) => t.waiting?.hours ?? 0, (t) => t.waiting_kop)],
    total: {
      trips: approved.length,
      quantity: roundQuantity(approved.reduce((s, t) => s + t.quantity, 0)),
      carriage: fromKop(carriageKop),
      waiting: fromKop(waitingKopTotal),
      waiting_hours: roundQuantity(waited.reduce((s, t) => s + (t.waiting?.hours ?? 0), 0)),
      amount: fromKop(carriageKop + waitingKopTotal),
    },
    unpriced: approved.filter((t) => t.price === null).length,
    under_review: all.filter((t) => t.review_status !== 'approved').map(wire),
    billed: approved,
  };
}
