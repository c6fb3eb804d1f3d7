/**
 * Loads (docs/reports-review.md): the automatic checks over a seeded month of 10 000 trips with 5 % planted
 * anomalies of every kind (recall and false flags), `GET /reports/` — a page of 50 with filters over that month —
 * against the same query run raw through better-sqlite3, «approve all clean» over a day of 400 trips, and what the
 * perceptual hash costs a photo upload (`POST /reports/` with it against the same upload without it).
 */
import { randomUUID } from 'node:crypto';
import { seededRandom } from '../tests/fixtures/random.ts';
import SQLite from 'better-sqlite3';
import sharp from 'sharp';
import { startTestServer } from '../tests/fixtures/server.ts';
import { makeCompany, makeUser, withAccessToken } from '../tests/fixtures/accounts.ts';
import { encodeForm, reportForm } from '../tests/fixtures/forms.ts';
import { addVehicle } from '../server/users/accounts.ts';
import { checkReport, DEFAULT_CHECK_THRESHOLDS, FLAG_CODES, type FlagCode, type ReportFacts } from '../contract/report-checks.ts';
import { perceptualHash } from '../server/reports/phash.ts';
import * as photos from '../server/reports/photos.ts';
import { figure, median, percentile, round, type Benchmark, type SectionResult } from './support.ts';

const TRIPS = 10_000;
const DRIVERS = 50;
const PLANTED_SHARE = 0.05;
const RUNS = 30;
const WORK_DAYS = 25;


const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** One clean trip's facts within every threshold, at `at` (ms), for a driver with a 20 т truck and a 200 т share. */
function cleanTrip(random: () => number, at: number, previous: number | null, deliveredBefore: number): ReportFacts {
  const quantity = Math.round((15 + random() * 5) * 10) / 10;
  const loading = Math.round((quantity + random() * 0.2) * 10) / 10;
  return {
    quantity,
    trips: 1,
    unit: 'т',
    vehicle_capacity: 20,
    total_loading_quantity: loading,
    total_unloading_quantity: Math.round(loading * (1 - random() * 0.015) * 10) / 10,
    completed_at: iso(at),
    received_at: iso(at + random() * 3_600_000),
    task_date: iso(at).slice(0, 10),
    previous_completed_at: previous === null ? null : iso(previous),
    share: 200,
    delivered_before: deliveredBefore,
    duplicate_photo_of: null,
    duplicate_ticket_of: null,
    ticket_number: null,
  };
}

/** What the checks compute: all flags but the customer's dispute, which a customer raises (docs/customer-link.md). */
type Checked = Exclude<FlagCode, 'customer_dispute'>;
const CHECKED = FLAG_CODES.filter((code): code is Checked => code !== 'customer_dispute');

/** The same trip made wrong in one way, so exactly that check should fire. */
function plant(code: Checked, f: ReportFacts, at: number): ReportFacts {
  switch (code) {
    case 'over_capacity':
      return { ...f, quantity: 23.5, total_loading_quantity: 23.5, total_unloading_quantity: 23.4 };
    case 'loading_unloading_mismatch':
      return { ...f, total_loading_quantity: 20, total_unloading_quantity: 19 };
    case 'duplicate_photo':
      return { ...f, duplicate_photo_of: { report_id: 1, distance: 4 } };
    case 'duplicate_ticket':
      return { ...f, ticket_number: 'Т-1', duplicate_ticket_of: { report_id: 1 } };
    case 'over_share':
      return { ...f, delivered_before: 215 };
    case 'fast_cycle':
      return { ...f, previous_completed_at: iso(at - 6 * 60_000) };
    case 'late_filing':
      return { ...f, received_at: iso(at + 30 * 3_600_000) };
    case 'time_out_of_range':
      return { ...f, completed_at: iso(Date.parse(f.received_at) + 2 * 3_600_000) };
    case 'far_from_place':
      return { ...f, trip: { ...stampedTrip(f), stamps: [{ step: 'loading_arrived', at: f.completed_at as string, received_at: f.received_at, distance_m: 2000, radius_m: 150, accuracy: 20 }] } };
    case 'no_acceptance':
      return { ...f, trip: { ...stampedTrip(f), acceptance_required: true, accepted: false } };
    case 'long_wait':
      return { ...f, trip: { ...stampedTrip(f), loading_wait_min: 95 } };
  }
}

/** The trip stamped as it happened, clean: what the trip's own checks are planted on. */
function stampedTrip(f: ReportFacts): NonNullable<ReportFacts['trip']> {
  return {
    loading_arrived_at: f.completed_at,
    previous_loading_arrived_at: null,
    stamps: [],
    loading_wait_min: 20,
    unloading_wait_min: 15,
    long_wait_minutes: 60,
    acceptance_required: false,
    finished: true,
    accepted: true,
  };
}

function checksFigures(): { figures: SectionResult['figures']; details: Record<string, unknown> } {
  const random = seededRandom(20261125);
  const start = Date.UTC(2026, 10, 1, 6);
  let planted = 0;
  let caught = 0;
  let clean = 0;
  let falseFlags = 0;
  const missed: Record<string, number> = {};
  const perDriver = new Map<number, { last: number | null; delivered: number }>();
  const started = performance.now();
  for (let i = 0; i < TRIPS; i += 1) {
    const driver = i % DRIVERS;
    const state = perDriver.get(driver) ?? { last: null, delivered: 0 };
    // A driver's trips 40–90 min apart through the month.
    const at = (state.last ?? start + driver * 60_000) + (40 + random() * 50) * 60_000;
    const facts = cleanTrip(random, at, state.last, state.delivered % 150);
    state.last = at;
    state.delivered += facts.quantity ?? 0;
    perDriver.set(driver, state);
    if (random() < PLANTED_SHARE) {
      const code = CHECKED[planted % CHECKED.length] as Checked;
      planted += 1;
      const codes = checkReport(plant(code, facts, at), DEFAULT_CHECK_THRESHOLDS).map((f) => f.code);
      if (codes.includes(code)) caught += 1;
      else missed[code] = (missed[code] ?? 0) + 1;
    } else {
      clean += 1;
      if (checkReport(facts, DEFAULT_CHECK_THRESHOLDS).length > 0) falseFlags += 1;
    }
  }
  const ms = performance.now() - started;
  const recall = planted === 0 ? 0 : (caught / planted) * 100;
  const falseRate = clean === 0 ? 0 : (falseFlags / clean) * 100;
  return {
    figures: [
      figure('planted anomalies caught', '%', round(recall, 2), 100, { goal: '100 %', met: recall === 100, note: `${caught} of ${planted}, ${FLAG_CODES.length} kinds` }),
      figure('clean trips flagged', '%', round(falseRate, 2), 1, { goal: '≤ 1 %', met: falseRate <= 1, note: `${falseFlags} of ${clean}` }),
      figure('checks per trip', 'µs', round((ms * 1000) / TRIPS, 1), null),
    ],
    details: { planted, caught, clean, falseFlags, missed },
  };
}

/** A month (25 working days, 400 trips a day) of reports straight into SQLite for one company, 10 tasks and 50 drivers a day, 5 % flagged, all pending. */
function seedMonth(file: string, company: number, drivers: number[]): void {
  const db = new SQLite(file);
  const random = seededRandom(7);
  const start = Date.UTC(2026, 10, 1, 6);
  const insertTask = db.prepare(
    `insert into tasks (company_id, created_by, date, cargo, loading_place, unloading_place, planned_quantity, unit, status, rate, comment, max_drivers, created_at, updated_at)
     values (?, null, ?, ?, 'Карьер «Лесной»', ?, 2000, 'т', 'in_progress', 450, null, null, ?, ?)`,
  );
  const insertAssoc = db.prepare(
    `insert into task_drivers (task_id, driver_id, quantity, status, loading_quantity, unloading_quantity, transport_rate, order_index, accepted_at, created_at) values (?, ?, null, 'in_progress', null, null, null, 0, ?, ?)`,
  );
  const insertReport = db.prepare(
    `insert into reports (association_id, driver_id, quantity, total_loading_quantity, total_unloading_quantity, loading_is_buyer, unloading_is_buyer, idempotency_key, completed_at, created_at, updated_at, trips, ticket_number, final, review_status, flags)
     values (?, ?, ?, ?, ?, 1, 1, null, ?, ?, ?, 1, ?, 0, 'pending', ?)`,
  );
  const cargo = ['Щебень гранитный 5–20', 'Песок мытый', 'ПГС', 'Грунт растительный', 'Щебень известняковый 20–40'];
  db.transaction(() => {
    const associations: { id: number; driver: number; date: string }[] = [];
    for (let day = 0; day < WORK_DAYS; day += 1) {
      const date = iso(start + day * DAY).slice(0, 10);
      for (let t = 0; t < 10; t += 1) {
        const task = Number(insertTask.run(company, date, cargo[t % cargo.length], `Объект ${t + 1}`, iso(start), iso(start)).lastInsertRowid);
        for (let d = 0; d < 5; d += 1) {
          const driver = drivers[(t * 5 + d) % drivers.length] as number;
          associations.push({ id: Number(insertAssoc.run(task, driver, iso(start), iso(start)).lastInsertRowid), driver, date });
        }
      }
    }
    for (let i = 0; i < TRIPS; i += 1) {
      const a = associations[Math.floor((i / TRIPS) * associations.length)] as { id: number; driver: number; date: string };
      const at = Date.parse(`${a.date}T06:00:00Z`) + random() * 12 * 3_600_000;
      const q = Math.round((15 + random() * 5) * 10) / 10;
      const flagged = random() < PLANTED_SHARE;
      const flags = flagged ? JSON.stringify([{ code: 'over_capacity', detail: `${q} т` }]) : '[]';
      insertReport.run(a.id, a.driver, q, q, q, iso(at), iso(at + 600_000), iso(at + 600_000), `Т-${i}`, flags);
    }
  })();
  db.close();
}

export const loads: Benchmark = {
  id: 'loads',
  title: `Loads: the checks over ${TRIPS.toLocaleString('ru-RU')} trips, the review list, approve-clean, the photo hash`,
  async run(): Promise<SectionResult> {
    const checks = checksFigures();
    const server = await startTestServer({ listen: false });
    try {
      const company = await makeCompany(server, 'Бенчмарк рейсов');
      const manager = await withAccessToken(server, await makeUser(server, 'manager', company));
      const drivers = await Promise.all(Array.from({ length: DRIVERS }, (_, i) => makeUser(server, 'driver', company, { name: `Водитель ${i + 1}` })));
      const file = `${server.config.dataDir}/reis.sqlite`;
      seedMonth(file, company, drivers.map((d) => d.id));

      // A page of 50 with filters: three weeks, pending, searched by cargo.
      const url = `/api/reports/?date_from=2026-11-03&date_to=2026-11-23&review=pending&search=${encodeURIComponent('щебень')}&limit=50`;
      const first = await server.app.inject({ method: 'GET', url, headers: manager.auth });
      if (first.statusCode !== 200) throw new Error(`list answered ${first.statusCode}: ${first.body}`);
      const total = (first.json() as { total: number }).total;
      const timed = async (fn: () => unknown | Promise<unknown>) => {
        for (let i = 0; i < 3; i += 1) await fn();
        const times: number[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          const t0 = performance.now();
          await fn();
          times.push(performance.now() - t0);
        }
        return times;
      };
      const ours = await timed(() => server.app.inject({ method: 'GET', url, headers: manager.auth }));
      const raw = new SQLite(file, { readonly: true });
      const like = ['%щебень%', '%Щебень%', '%ЩЕБЕНЬ%'];
      const cols = ['r.ticket_number', 't.cargo', 't.loading_place', 't.unloading_place', 'u.name'];
      const search = cols.flatMap((c) => like.map(() => `${c} like ?`)).join(' or ');
      const args = [company, '2026-11-03', '2026-11-23', ...cols.flatMap(() => like)];
      const from = `from reports r join task_drivers td on td.id = r.association_id join tasks t on t.id = td.task_id left join users u on u.id = r.driver_id
        where t.company_id = ? and t.date >= ? and t.date <= ? and r.review_status = 'pending' and (${search})`;
      const page = raw.prepare(`select r.*, u.name, t.id as task_id, t.date, t.cargo, t.loading_place, t.unloading_place, t.unit ${from} order by r.created_at desc, r.id desc limit 50`);
      const count = raw.prepare(`select count(*) as n ${from}`);
      const pending = raw.prepare(`select count(*) as n from reports r join task_drivers td on td.id = r.association_id join tasks t on t.id = td.task_id where t.company_id = ? and r.review_status = 'pending'`);
      const photosOf = (ids: number[]) => raw.prepare(`select * from report_photos where report_id in (${ids.map(() => '?').join(',') || 'null'})`).all(...ids);
      const baseline = await timed(() => {
        const rows = page.all(...args) as { id: number }[];
        count.get(...args);
        pending.get(company);
        photosOf(rows.map((r) => r.id));
      });
      raw.close();

      // Approve-clean over one day of the month (400 trips).
      const day = '2026-11-10';
      const before = await server.db.kysely
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .innerJoin('tasks as t', 't.id', 'td.task_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('t.date', '=', day)
        .executeTakeFirstOrThrow();
      const t0 = performance.now();
      const approved = await server.app.inject({ method: 'POST', url: '/api/reports/review/approve-clean', headers: manager.auth, payload: { date_from: day, date_to: day } });
      const approveMs = performance.now() - t0;
      const approvedCount = (approved.json() as { approved: number }).approved;

      // The photo hash: its cost per photo, and POST /reports/ with it against the same upload without it.
      const photo = await sharp({ create: { width: 1024, height: 768, channels: 3, background: { r: 120, g: 130, b: 140 } } })
        .composite([{ input: Buffer.from(`<svg width="1024" height="768"><rect x="200" y="150" width="600" height="400" fill="#eee"/><text x="260" y="300" font-size="60">Талон 4711</text></svg>`) }])
        .jpeg({ quality: 70 })
        .toBuffer();
      const hashTimes = await timed(() => perceptualHash(photo));
      const driver = await withAccessToken(server, drivers[0]!);
      await addVehicle(server.db.kysely, drivers[0]!.id, { vehicle_number: 'А1', vehicle_brand: 'КАМАЗ', vehicle_capacity: 20 }, true);
      const association = await server.db.kysely.selectFrom('task_drivers').select('id').where('driver_id', '=', drivers[0]!.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
      const upload = async () => {
        const { payload, headers } = await encodeForm(reportForm({ association_id: association.id, quantity: '18', loading_is_buyer: '0', unloading_is_buyer: '0' }, [{ data: photo, filename: 'p.jpg' }]));
        const res = await server.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, ...driver.auth, 'idempotency-key': randomUUID() } });
        if (res.statusCode !== 201) throw new Error(`upload ${res.statusCode}: ${res.body}`);
      };
      const withHash = await timed(upload);
      // The same upload with the hash turned off (inspectPhoto's hash replaced for this run).
      const original = photos.hashPhoto.impl;
      photos.hashPhoto.impl = async () => null;
      const withoutHash = await timed(upload);
      photos.hashPhoto.impl = original;
      const uploadRatio = median(withHash) / median(withoutHash);

      return {
        ours: 'the checks (pure), GET /reports/ through the app, approve-clean, an upload with the photo hash',
        baseline: 'the goal; the same query raw through better-sqlite3; —; the same upload without the hash',
        figures: [
          ...checks.figures,
          figure(`GET /reports/ page of 50 (of ${total}), median`, 'ms', round(median(ours), 2), round(median(baseline), 2), {
            goal: '≤ 3×',
            met: median(ours) <= 3 * median(baseline),
            note: `p95 ${round(percentile(ours, 95), 2)} vs ${round(percentile(baseline, 95), 2)} ms; ${TRIPS} reports seeded`,
          }),
          figure(`approve-clean over a day (${before.n} trips, ${approvedCount} approved)`, 'ms', round(approveMs, 1), null),
          figure('perceptual hash per 1024×768 photo, median', 'ms', round(median(hashTimes), 2), null),
          figure('POST /reports/ with one photo, median', 'ms', round(median(withHash), 2), round(median(withoutHash), 2), {
            goal: '≤ 1.2×',
            met: uploadRatio <= 1.2,
            note: 'with the hash ÷ without it',
          }),
        ],
        details: { checks: checks.details, listMs: ours, rawMs: baseline, hashMs: hashTimes },
      };
    } finally {
      await server.close();
    }
  },
};
