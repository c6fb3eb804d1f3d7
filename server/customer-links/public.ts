/**
 * What the customer sees through a link (docs/customer-link.md): only trips of his company's tasks that name him as
 * the customer (`tasks.customer_id` = the link's counterparty, `tasks.company_id` = the link's company). Every
 * lookup here starts from the link: a trip, a photo or a signature of another customer is 404, never shown.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { driverVehicles } from '../registers/driver-vehicles.ts';
import { stampsOf } from '../trips/facts.ts';
import { deliveredOf } from '../../contract/report-checks.ts';
import { TRIP_STEPS, type TripStep } from '../../contract/trips.ts';
import { driverWaybill, waybillNumberOf } from '../../contract/waybill.ts';
import { publicTripState, type CustomerDispute, type PublicWaybill, type PublicTotals, type PublicTrip, type PublicTrips } from '../../contract/customer-links.ts';
import type { OpenLink } from './links.ts';
import { disputesOf } from './disputes.ts';

type Q = Kysely<Database>;

/** The longest period one page lists. */
export const PERIOD_MAX_DAYS = 93;
/** The most trips one page lists (the newest). */
export const TRIPS_MAX = 1000;

const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The link's trips, joined with what a customer's row shows. */
function scoped(db: Q, link: OpenLink) {
  return db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .select([
      'r.id',
      'r.driver_id',
      'r.trip_uid',
      'r.ticket_number',
      'r.quantity',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      'r.review_status',
      'r.completed_at',
      'td.task_id',
      'u.name as driver_name',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.unit',
    ])
    .where('t.company_id', '=', link.company_id)
    .where('t.customer_id', '=', link.counterparty_id);
}

type Row = Awaited<ReturnType<ReturnType<typeof scoped>['execute']>>[number];

/** The latest acceptance naming each trip (by its driver), batched. */
async function acceptances(db: Q, rows: readonly Row[]) {
  const uids = rows.map((r) => r.trip_uid).filter((u): u is string => u !== null);
  const byTrip = new Map<string, { id: number; driver_id: number; kind: 'signed' | 'refused'; receiver_name: string | null; refused_reason: string | null; signature_key: string | null }>();
  if (uids.length === 0) return byTrip;
  const found = await db
    .selectFrom('trip_acceptances as a')
    .innerJoin('trip_acceptance_trips as at', 'at.acceptance_id', 'a.id')
    .select(['a.id', 'a.driver_id', 'a.kind', 'a.receiver_name', 'a.refused_reason', 'a.signature_key', 'at.trip_uid'])
    .where('at.trip_uid', 'in', uids)
    .orderBy('a.id', 'asc')
    .execute();
  const driverOf = new Map(rows.map((r) => [r.trip_uid, r.driver_id]));
  for (const a of found) if (driverOf.get(a.trip_uid) === a.driver_id) byTrip.set(a.trip_uid, a);
  return byTrip;
}

/**
 * Each trip's electronic waybill as the driver's card reads it (`driverWaybill`: the accepted title, else the one
 * moved last among the live ones), batched; a trip without a title is absent.
 */
async function waybillStates(db: Q, ids: readonly number[]): Promise<Map<number, Omit<PublicWaybill, 'number'>>> {
  const byReport = new Map<number, Omit<PublicWaybill, 'number'>>();
  if (ids.length === 0) return byReport;
  const rows = await db
    .selectFrom('etrn_documents as d')
    .select(['d.report_id', 'd.title', 'd.state', 'd.uid', 'd.qr', 'd.updated_at'])
    .where('d.report_id', 'in', ids)
    .where('d.direction', '=', 'out')
    // A literal, so SQLite reads the live documents through their partial index (etrn_documents_live).
    .where(sql.ref('d.state'), '<>', sql.lit('annulled'))
    .execute();
  for (const id of ids) {
    const chosen = driverWaybill(rows.filter((d) => d.report_id === id), null);
    if (chosen) byReport.set(id, { state: chosen.state, uid: chosen.uid });
  }
  return byReport;
}

async function toTrips(db: Q, link: OpenLink, token: string, rows: readonly Row[]): Promise<PublicTrip[]> {
  const ids = rows.map((r) => r.id);
  const [stamps, accepted, vehicles, photos, disputes, waybills] = await Promise.all([
    stampsOf(db, ids),
    acceptances(db, rows),
    driverVehicles(db, rows.map((r) => r.driver_id)),
    ids.length ? db.selectFrom('report_photos').select(['id', 'report_id']).where('report_id', 'in', ids).orderBy('id').execute() : Promise.resolve([]),
    disputesOf(db, ids, link.counterparty_id),
    waybillStates(db, ids),
  ]);
  const base = `/api/c/${token}`;
  return rows.map((r) => {
    const times = Object.fromEntries(TRIP_STEPS.map((s) => [s, null])) as Record<TripStep, string | null>;
    for (const s of stamps.get(r.id) ?? []) times[s.step] = s.at;
    if (TRIP_STEPS.every((s) => times[s] === null) && r.completed_at) times.unloading_departed = r.completed_at;
    const latest = [...TRIP_STEPS].reverse().find((s) => times[s] !== null) ?? null;
    const a = r.trip_uid ? accepted.get(r.trip_uid) : undefined;
    const delivered = deliveredOf({ quantity: r.quantity, total_unloading_quantity: r.total_unloading_quantity });
    return {
      id: r.id,
      date: r.date,
      ticket_number: r.ticket_number,
      vehicle_plate: vehicles.get(r.driver_id)?.plate ?? null,
      driver_name: r.driver_name,
      cargo: r.cargo,
      loading_place: r.loading_place,
      unloading_place: r.unloading_place,
      unit: r.unit,
      loaded: r.total_loading_quantity,
      unloaded: latest === 'unloading_departed' && delivered > 0 ? delivered : r.total_unloading_quantity,
      state: publicTripState(latest),
      times,
      receiver_name: a?.receiver_name ?? null,
      acceptance: a?.kind ?? 'none',
      refused_reason: a?.refused_reason ?? null,
      signature_url: a?.signature_key ? `${base}/signatures/${a.id}` : null,
      photo_urls: photos.filter((p) => p.report_id === r.id).map((p) => `${base}/photos/${p.id}`),
      pod_url: `${base}/trips/${r.id}/pod.pdf`,
      waybill_url: `${base}/trips/${r.id}/waybill.pdf`,
      waybill: { number: waybillNumberOf(r.task_id, r.id), ...(waybills.get(r.id) ?? { state: null, uid: null }) },
      review: r.review_status,
      disputes: disputes.get(r.id) ?? ([] as CustomerDispute[]),
    };
  });
}

function totalsOf(trips: readonly PublicTrip[]): PublicTotals {
  const units = new Map<string, { unit: string; loaded: number; unloaded: number }>();
  for (const t of trips) {
    const u = units.get(t.unit) ?? { unit: t.unit, loaded: 0, unloaded: 0 };
    u.loaded += t.loaded ?? 0;
    u.unloaded += t.unloaded ?? 0;
    units.set(t.unit, u);
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    trips: trips.length,
    delivered: trips.filter((t) => t.state === 'delivered').length,
    signed: trips.filter((t) => t.acceptance === 'signed').length,
    by_unit: [...units.values()].map((u) => ({ unit: u.unit, loaded: round(u.loaded), unloaded: round(u.unloaded) })),
  };
}

export async function publicTrips(db: Q, link: OpenLink, token: string, query: { from?: string | undefined; to?: string | undefined }): Promise<PublicTrips> {
  const today = localToday();
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -6);
  if (from > to) throw badRequest('from: начало периода позже его конца');
  if (addDays(from, PERIOD_MAX_DAYS - 1) < to) throw badRequest(`Период: не длиннее ${PERIOD_MAX_DAYS} дней`);
  const [names, rows, liveRows] = await Promise.all([
    db
      .selectFrom('counterparties as c')
      .innerJoin('companies as co', 'co.id', 'c.company_id')
      .select(['c.name as customer_name', 'co.name as carrier_name'])
      .where('c.id', '=', link.counterparty_id)
      .executeTakeFirstOrThrow(),
    scoped(db, link).where('t.date', '>=', from).where('t.date', '<=', to).orderBy('t.date', 'desc').orderBy('r.id', 'desc').limit(TRIPS_MAX).execute(),
    scoped(db, link).where('t.date', '=', today).orderBy('r.id', 'desc').execute(),
  ]);
  const [trips, live] = await Promise.all([toTrips(db, link, token, rows), toTrips(db, link, token, liveRows)]);
  return { ...names, expires_at: link.expires_at, today, from, to, live, trips, totals: totalsOf(trips) };
}

/** One of the link's trips; another customer's: 404. */
export async function publicTrip(db: Q, link: OpenLink, token: string, reportId: number): Promise<PublicTrip> {
  const row = await scoped(db, link).where('r.id', '=', reportId).executeTakeFirst();
  if (!row) throw notFound('Рейс не найден');
  const [trip] = await toTrips(db, link, token, [row]);
  return trip as PublicTrip;
}

/** A photo of one of the link's trips; another's: 404. */
export async function publicPhoto(db: Q, link: OpenLink, photoId: number) {
  const row = await db
    .selectFrom('report_photos as p')
    .innerJoin('reports as r', 'r.id', 'p.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['p.id', 'p.storage_key', 'p.mime'])
    .where('p.id', '=', photoId)
    .where('t.company_id', '=', link.company_id)
    .where('t.customer_id', '=', link.counterparty_id)
    .executeTakeFirst();
  if (!row) throw notFound('Фото не найдено');
  return row;
}

/** A signature naming one of the link's trips (by its driver); another's: 404. */
export async function publicSignature(db: Q, link: OpenLink, acceptanceId: number) {
  const row = await db
    .selectFrom('trip_acceptances as a')
    .innerJoin('trip_acceptance_trips as at', 'at.acceptance_id', 'a.id')
    .innerJoin('reports as r', (join) => join.onRef('r.trip_uid', '=', 'at.trip_uid').onRef('r.driver_id', '=', 'a.driver_id'))
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['a.id', 'a.signature_key'])
    .where('a.id', '=', acceptanceId)
    .where('t.company_id', '=', link.company_id)
    .where('t.customer_id', '=', link.counterparty_id)
    .executeTakeFirst();
  if (!row?.signature_key) throw notFound('Подпись не найдена');
  return { id: row.id, storage_key: row.signature_key };
}
