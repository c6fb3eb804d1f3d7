/**
 * Scores a stored report (docs/reports-review.md): gathers its facts from the database — the vehicle, the
 * driver's share and what they delivered before it, their previous trip, photos and ticket numbers of the
 * company's other reports in the last 60 days — runs the pure checks (contract/report-checks.ts) with the
 * company's thresholds and stores the flags on the report. Run after a report is stored or edited.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { checkReport, checkThresholdsSchema, DEFAULT_CHECK_THRESHOLDS, type CheckThresholds, type ReportFlag } from '../../contract/report-checks.ts';
import { bandNeighbours, bandSql, DUPLICATE_PHOTO_MAX_DISTANCE, hammingDistance, PHASH_BANDS } from './phash.ts';
import { deliveredSql, shareOf } from '../tasks/progress.ts';
import { driverVehicles } from '../registers/driver-vehicles.ts';
import type { TripCheckFacts, TypedCycleFacts } from '../../contract/report-checks.ts';
import { acceptanceOf, distanceFrom, neighbourArrival, placeSide, placesOfReport, positionOf, stampsOf, timelineOf, waitsOf } from '../trips/facts.ts';
import { companyTripSettings } from '../trips/settings.ts';
import { disputeFlags } from '../customer-links/dispute-flag.ts';
import { isPostgres } from '../db/dialect.ts';

type Q = Kysely<Database>;

/** How far back a photo or a ticket counts as a repeat. */
export const DUPLICATE_WINDOW_DAYS = 60;

/** The company's thresholds: its stored ones over the defaults (a damaged value falls back to the defaults). */
export async function companyThresholds(db: Q, companyId: number): Promise<CheckThresholds> {
  const row = await db.selectFrom('companies').select('check_thresholds').where('id', '=', companyId).executeTakeFirst();
  return thresholdsOf(row?.check_thresholds ?? null);
}

/** A company's stored thresholds (its `check_thresholds` text) over the defaults. */
function thresholdsOf(text: string | null): CheckThresholds {
  if (!text) return { ...DEFAULT_CHECK_THRESHOLDS };
  try {
    const stored = checkThresholdsSchema.partial().safeParse(JSON.parse(text));
    return stored.success ? { ...DEFAULT_CHECK_THRESHOLDS, ...stored.data } : { ...DEFAULT_CHECK_THRESHOLDS };
  } catch {
    return { ...DEFAULT_CHECK_THRESHOLDS };
  }
}

/**
 * How many days of hashed photos `recent_photo_hashes` holds (migration 039: its trigger prunes the older ones as a
 * photo is stored). A search whose window starts a day inside it (a clock's margin) is answered from it whole.
 */
export const RECENT_PHOTO_DAYS = 90;

/**
 * The photos since `since` that can be the same picture as one with `hash`: those with a hash band within 2 bits
 * of its (phash.ts: any photo within 8 bits has one). The search is bounded by what can be a duplicate
 * (docs/reports-review.md «Поиск повтора фото»): the window — a repeat counts for DUPLICATE_WINDOW_DAYS, and a
 * photo is never older than its report, so its own time bounds each index range — and the hash, ~0.04 % of the
 * window's photos. The bands are read from `recent_photo_hashes` (the last RECENT_PHOTO_DAYS days' photos, its
 * indexes the window's size: at three years the same probes into every photo's bands read a leaf page no cache
 * holds each, docs/scale.md); a window that starts before it (a rescore of a report older than ~a month) from
 * `report_photos`' own bands. One statement per band, each its own index's ranges: as one OR (or one UNION ALL)
 * PostgreSQL costs the 723 probes together against a scan of the table, or starts parallel workers for them.
 */
export function nearPhotos(db: Q, hash: string, since: string, now = Date.now()) {
  const recent = Date.parse(since) >= now - (RECENT_PHOTO_DAYS - 1) * 86_400_000;
  return Array.from({ length: PHASH_BANDS }, (_, i) =>
    (recent ? db.selectFrom('recent_photo_hashes as p') : db.selectFrom('report_photos as p'))
      .select(['p.phash', 'p.report_id'])
      .where(sql.raw(bandSql(i, 'p.phash')), 'in', bandNeighbours(hash, i))
      .where('p.created_at', '>=', since),
  );
}

/**
 * The bands' rows: on PostgreSQL each band's statement apart (in parallel, each its own index's ranges); on SQLite
 * one UNION ALL of them, each part still its own index's ranges (EXPLAIN QUERY PLAN), one statement instead of three.
 */
export function bandStatements(db: Q, bands: ReturnType<typeof nearPhotos>) {
  if (isPostgres(db)) return bands;
  const [first, ...rest] = bands;
  return first ? [rest.reduce((all, q) => all.unionAll(q), first)] : [];
}

async function nearRows(db: Q, bands: ReturnType<typeof nearPhotos>) {
  return (await Promise.all(bandStatements(db, bands).map((q) => q.execute()))).flat();
}

/**
 * The nearest photo of another report of the company within the window, if one is the same picture. The photos
 * near in hash are read from the bands' indexes and measured here; only those within the threshold (most often
 * none) are looked up for their report's company and time. Not bounded by driver nor place: a photo re-used by
 * another driver of the company, or for another route, is the repeat the check is for.
 */
async function duplicatePhoto(db: Q, reportId: number, companyId: number, since: string, known?: readonly (string | null)[]): Promise<{ report_id: number; distance: number } | null> {
  const mine = known
    ? known.flatMap((phash) => (phash === null ? [] : [{ phash }]))
    : await db.selectFrom('report_photos').select('phash').where('report_id', '=', reportId).where('phash', 'is not', null).execute();
  if (mine.length === 0) return null;
  const near = await Promise.all(mine.map((own) => nearRows(db, nearPhotos(db, own.phash as string, since))));
  const closest = new Map<number, number>();
  mine.forEach((own, k) => {
    for (const other of near[k] ?? []) {
      if (other.report_id === reportId || other.phash === null) continue;
      const distance = hammingDistance(own.phash as string, other.phash);
      if (distance <= DUPLICATE_PHOTO_MAX_DISTANCE && distance < (closest.get(other.report_id) ?? Infinity)) closest.set(other.report_id, distance);
    }
  });
  if (closest.size === 0) return null;
  const theirs = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select('r.id')
    .where('r.id', 'in', [...closest.keys()])
    .where('t.company_id', '=', companyId)
    .where('r.created_at', '>=', since)
    .execute();
  let best: { report_id: number; distance: number } | null = null;
  for (const { id } of theirs) {
    const distance = closest.get(id) as number;
    if (!best || distance < best.distance || (distance === best.distance && id < best.report_id)) best = { report_id: id, distance };
  }
  return best;
}

/**
 * The company's first other report within the window with the same ticket (by its stored key, trimmed and upper
 * case: ticket.ts): the index of keys and times reads only the reports with that key since the window's start.
 */
export function ticketRepeat(db: Q, ticketKey: string, reportId: number, companyId: number, since: string) {
  return db
    .selectFrom('reports as o')
    .innerJoin('task_drivers as td', 'td.id', 'o.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select('o.id')
    .where('t.company_id', '=', companyId)
    .where('o.id', '<>', reportId)
    .where('o.ticket_key', '=', ticketKey)
    .where('o.created_at', '>=', since)
    .orderBy('o.id');
}

/**
 * What the caller that has just stored the report knows, so scoring need not read it back: `photoHashes`, every
 * photo of the report with its hash (null: not hashed); `created`, the report was stored by this call (no customer
 * has disputed it yet).
 */
export interface ScoreHints {
  photoHashes?: readonly (string | null)[];
  created?: boolean;
}

export async function scoreReport(db: Q, reportId: number, hints: ScoreHints = {}): Promise<ReportFlag[]> {
  // The report with the facts that are one row each — what the driver delivered on the part before it, his
  // previous completion, the task's live drivers, the company's thresholds — in one read.
  const r = await db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('companies as c', 'c.id', 't.company_id')
    .select([
      sql<number>`(select coalesce(sum(${sql.raw(deliveredSql('b'))}), 0) from reports b where b.association_id = r.association_id and b.id < r.id)`.as('delivered_before'),
      sql<string | null>`(select max(p.completed_at) from reports p where p.driver_id = r.driver_id and p.id <> r.id and p.completed_at < r.completed_at)`.as('previous_at'),
      sql<number>`(select count(*) from task_drivers l where l.task_id = t.id and l.status <> 'cancelled')`.as('live'),
      'c.check_thresholds',
      'r.id',
      'r.driver_id',
      'r.association_id',
      'r.quantity',
      'r.trips',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      'r.completed_at',
      'r.created_at',
      'r.ticket_number',
      'r.ticket_key',
      'r.trip_uid',
      'r.after_the_fact',
      't.id as task_id',
      't.unit',
      't.date',
      't.company_id',
      't.planned_quantity',
      'td.planned_quantity as share',
    ])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
  if (!r) return [];
  const since = new Date(Date.parse(r.created_at) - DUPLICATE_WINDOW_DAYS * 86_400_000).toISOString();
  const thresholds = thresholdsOf(r.check_thresholds);
  const [vehicle, ticket, photo, trip, typed] = await Promise.all([
    // The fleet vehicle on the driver's card, else the current one of his own list (registers/driver-vehicles.ts).
    driverVehicles(db, [r.driver_id]).then((v) => v.get(r.driver_id)),
    r.ticket_key ? ticketRepeat(db, r.ticket_key, r.id, r.company_id, since).executeTakeFirst() : Promise.resolve(undefined),
    duplicatePhoto(db, r.id, r.company_id, since, hints.photoHashes),
    r.after_the_fact ? Promise.resolve(null) : tripCheckFacts(db, r),
    r.after_the_fact ? typedCycle(db, r) : Promise.resolve(null),
  ]);
  const checked = checkReport(
    {
      quantity: r.quantity,
      trips: r.trips,
      unit: r.unit,
      vehicle_capacity: vehicle?.capacity ?? null,
      total_loading_quantity: r.total_loading_quantity,
      total_unloading_quantity: r.total_unloading_quantity,
      completed_at: r.completed_at,
      received_at: r.created_at,
      task_date: r.date,
      previous_completed_at: r.previous_at ?? null,
      share: shareOf(r.planned_quantity, r.share, Number(r.live)),
      delivered_before: Number(r.delivered_before),
      duplicate_photo_of: photo,
      duplicate_ticket_of: ticket ? { report_id: ticket.id } : null,
      ticket_number: r.ticket_number,
      trip,
      typed_cycle: typed,
    },
    thresholds,
  );
  // The customer's unanswered dispute (docs/customer-link.md) is a flag no check computes: kept through every rescore.
  const flags = hints.created ? checked : [...checked, ...(await disputeFlags(db, r.id))];
  await db.updateTable('reports').set({ flags: JSON.stringify(flags) }).where('id', '=', r.id).execute();
  return flags;
}

/**
 * A trip entered after the fact with its loading arrival typed (docs/trips.md): its cycle is read from the loading
 * arrivals, as a stamped trip's; null when that time was not typed (the completion times are compared then).
 */
async function typedCycle(db: Q, r: { id: number; driver_id: number }): Promise<TypedCycleFacts | null> {
  const own = await db.selectFrom('trip_stamps').select('at').where('report_id', '=', r.id).where('step', '=', 'loading_arrived').executeTakeFirst();
  if (!own) return null;
  const previous = await neighbourArrival(db, r.driver_id, r.id, own.at, 'previous');
  return { loading_arrived_at: own.at, previous_loading_arrived_at: previous?.at ?? null };
}

/** What the checks read of a trip stamped as it happened (docs/trips.md): its stamps, waits, cycle and acceptance. */
async function tripCheckFacts(db: Q, r: { id: number; driver_id: number; trip_uid: string | null; company_id: number }): Promise<TripCheckFacts> {
  const [stamps, places, settings, acceptance] = await Promise.all([
    stampsOf(db, [r.id]).then((m) => m.get(r.id) ?? []),
    placesOfReport(db, r.id),
    companyTripSettings(db, r.company_id),
    acceptanceOf(db, r.trip_uid, r.driver_id),
  ]);
  const timeline = timelineOf(stamps, places);
  const arrived = timeline.loading_arrived?.at ?? null;
  const previous = arrived ? await neighbourArrival(db, r.driver_id, r.id, arrived, 'previous') : undefined;
  const waits = waitsOf(timeline, null);
  return {
    loading_arrived_at: arrived,
    previous_loading_arrived_at: previous?.at ?? null,
    stamps: stamps.map((s) => {
      const place = places[placeSide(s.step)];
      return { step: s.step, at: s.at, received_at: s.received_at, distance_m: distanceFrom(positionOf(s), place), radius_m: place?.radius_m ?? null, accuracy: s.accuracy };
    }),
    loading_wait_min: waits.loading_min,
    unloading_wait_min: waits.unloading_min,
    long_wait_minutes: settings.long_wait_minutes,
    acceptance_required: settings.acceptance_mode !== 'none',
    finished: timeline.unloading_departed !== null,
    accepted: acceptance.kind !== 'none',
  };
}
