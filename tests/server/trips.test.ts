/**
 * The trip as it happens (docs/trips.md): steps stamped one by one, out of order, twice, after hours offline; the
 * checks on planted timelines; the per-shift acceptance; the trip settings; bad input answered 4xx in Russian.
 */
import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { describe, expect, it } from 'vitest';
import { recentStamps } from '../../server/trips/state.ts';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makePeople, makeUser, withAccessToken, type People } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { makePlace } from '../fixtures/registers.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { JPEG_8x6, PNG_8x6 } from '../fixtures/images.ts';
import type { TripStep } from '../../contract/trips.ts';

const QUARRY = { lat: 55.5, lon: 38.2 };
const SITE = { lat: 55.6, lon: 38.3 };
/** A point about 2 km north of the quarry. */
const FAR = { lat: 55.518, lon: 38.2 };

const minutes = (base: string, n: number) => new Date(Date.parse(base) + n * 60_000).toISOString();

describe.each(backends)('trips ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    p = await makePeople(server);
  });

  /** A task of the company with its places (the quarry and the site with points) and the driver on it. */
  async function assignment(driver = p.driver) {
    const task = await createTask(s, p.company, { date: dayFromToday(0) });
    const loading = await makePlace(s, p.company, QUARRY);
    const unloading = await makePlace(s, p.company, SITE);
    await s.db.kysely.updateTable('tasks').set({ loading_place_id: loading, unloading_place_id: unloading }).where('id', '=', task).execute();
    return { task, association: await addDriver(s, task, driver.id, { status: 'in_progress' }) };
  }

  const step = (tripUid: string, name: TripStep | string, body: Record<string, unknown>, token = p.driver.token) =>
    call(s, 'PUT', `/api/trips/${tripUid}/steps/${name}`, { token, body });

  /** The four steps of a trip at its quarry and site, `start` its loading arrival, with waits of `wait` minutes. */
  async function fullTrip(association: number, start: string, over: { wait?: number; token?: string; final?: 0 | 1 } = {}) {
    const uid = randomUUID();
    const wait = over.wait ?? 20;
    const token = over.token ?? p.driver.token;
    const at = { accuracy: 15 };
    expect((await step(uid, 'loading_arrived', { association_id: association, at: start, position: { ...QUARRY, ...at } }, token)).status).toBe(201);
    expect((await step(uid, 'loading_departed', { association_id: association, at: minutes(start, wait), position: { ...QUARRY, ...at }, loading_quantity: 20, ticket_number: `Т-${uid.slice(0, 6)}` }, token)).status).toBe(201);
    expect((await step(uid, 'unloading_arrived', { association_id: association, at: minutes(start, wait + 30), position: { ...SITE, ...at } }, token)).status).toBe(201);
    const last = await step(uid, 'unloading_departed', { association_id: association, at: minutes(start, wait + 45), position: { ...SITE, ...at }, unloading_quantity: 19.8, ...(over.final ? { final: 1 } : {}) }, token);
    expect(last.status).toBe(201);
    return { uid, report: last.body.report_id as number };
  }

  it('GET /tasks/assigned/ carries the driver’s unfinished trip, its stamps, for a phone that did not stamp it', async () => {
    // A driver of his own: his trips must not be another test's neighbours (their cycles read the driver's next trip).
    const driver = await withAccessToken(s, await makeUser(s, 'driver', p.company));
    const { task, association } = await assignment(driver);
    const openTrip = async () => {
      const page = (await call(s, 'GET', '/api/tasks/assigned/', { token: driver.token })).body as { items: { id: number; open_trip: unknown }[] };
      return page.items.find((t) => t.id === task)?.open_trip;
    };
    expect(await openTrip()).toBeNull();
    const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
    await fullTrip(association, start, { token: driver.token });
    // A finished trip is not open.
    expect(await openTrip()).toBeNull();
    const uid = randomUUID();
    await step(uid, 'loading_arrived', { association_id: association, at: minutes(start, 90) }, driver.token);
    await step(uid, 'loading_departed', { association_id: association, at: minutes(start, 100), loading_quantity: 20, ticket_number: 'Т-ОТКР' }, driver.token);
    expect(await openTrip()).toEqual({ uid, stamps: { loading_arrived: minutes(start, 90), loading_departed: minutes(start, 100) } });
    await step(uid, 'unloading_arrived', { association_id: association, at: minutes(start, 130) }, driver.token);
    await step(uid, 'unloading_departed', { association_id: association, at: minutes(start, 140), unloading_quantity: 20 }, driver.token);
    expect(await openTrip()).toBeNull();
  });

  const view = async (report: number) => (await call(s, 'GET', `/api/reports/${report}`, { token: p.manager.token })).body;
  const flagCodes = async (report: number) => ((await view(report)).flags as { code: string }[]).map((f) => f.code);

  it('stamps a trip step by step: one report, its timeline with distances, waits and quantities', async () => {
    const { association } = await assignment();
    const start = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const { uid, report } = await fullTrip(association, start, { wait: 25 });
    const trip = await view(report);
    expect(trip.trip_uid).toBe(uid);
    expect(trip.after_the_fact).toBe(false);
    expect(trip.review_status).toBe('pending');
    expect(trip.total_loading_quantity).toBe(20);
    expect(trip.quantity).toBe(20);
    expect(trip.total_unloading_quantity).toBe(19.8);
    expect(trip.timeline.loading_arrived).toMatchObject({ at: start, source: 'tap', distance_m: 0, position: { ...QUARRY, accuracy: 15 } });
    expect(trip.waits).toEqual({ loading_min: 25, unloading_min: 15, travel_min: 30, cycle_min: null });
    expect(trip.acceptance.kind).toBe('none');
    const rows = await s.db.kysely.selectFrom('reports').select('id').where('trip_uid', '=', uid).execute();
    expect(rows).toHaveLength(1);
    const association_ = await s.db.kysely.selectFrom('task_drivers').select(['loading_quantity', 'unloading_quantity']).where('id', '=', association).executeTakeFirstOrThrow();
    expect(association_).toEqual({ loading_quantity: 20, unloading_quantity: 19.8 });
  });

  it('a trip’s first step starts the driver’s accepted part: it goes in progress, as «Начать рейс» does, even offline', async () => {
    const task = await createTask(s, p.company, { date: dayFromToday(0) });
    const association = await addDriver(s, task, p.driver.id, { status: 'accepted' });
    const res = await step(randomUUID(), 'loading_arrived', { association_id: association, at: new Date().toISOString() });
    expect(res.status).toBe(201);
    const part = await s.db.kysely.selectFrom('task_drivers').select('status').where('id', '=', association).executeTakeFirstOrThrow();
    expect(part.status).toBe('in_progress');
    const row = await s.db.kysely.selectFrom('tasks').select('status').where('id', '=', task).executeTakeFirstOrThrow();
    expect(row.status).toBe('in_progress');
  });

  it('takes the steps out of order and each twice: one stamp per step, the repeat answered 200 replay, a correction moves the time', async () => {
    const { association } = await assignment();
    const uid = randomUUID();
    const t0 = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const unloadingArrived = { association_id: association, at: minutes(t0, 60) };
    const first = await step(uid, 'unloading_arrived', unloadingArrived);
    expect(first.status).toBe(201);
    expect(first.body.replay).toBe(false);
    expect((await step(uid, 'loading_arrived', { association_id: association, at: t0 })).status).toBe(201);
    expect((await step(uid, 'loading_departed', { association_id: association, at: minutes(t0, 20), loading_quantity: 18 })).status).toBe(201);
    const again = await step(uid, 'unloading_arrived', { ...unloadingArrived, at: minutes(t0, 61) });
    expect(again.status).toBe(200);
    expect(again.body.replay).toBe(true);
    expect(again.body.timeline.unloading_arrived.at).toBe(minutes(t0, 60));
    const loadAgain = await step(uid, 'loading_departed', { association_id: association, at: minutes(t0, 20), loading_quantity: 25 });
    expect(loadAgain.body.replay).toBe(true);
    const stamps = await s.db.kysely.selectFrom('trip_stamps').select(['step']).where('report_id', '=', first.body.report_id).execute();
    expect(stamps.map((r) => r.step).sort()).toEqual(['loading_arrived', 'loading_departed', 'unloading_arrived']);
    expect((await view(first.body.report_id)).total_loading_quantity).toBe(18);
    const corrected = await step(uid, 'unloading_arrived', { ...unloadingArrived, at: minutes(t0, 55), source: 'corrected' });
    expect(corrected.status).toBe(200);
    expect(corrected.body.replay).toBe(false);
    expect(corrected.body.timeline.unloading_arrived).toMatchObject({ at: minutes(t0, 55), source: 'corrected' });
    expect((await s.db.kysely.selectFrom('reports').select('id').where('trip_uid', '=', uid).execute())).toHaveLength(1);
  });

  it('a trip offline for hours is neither late nor fast; a 5-minute cycle is fast, two trips a minute apart on the server but 45 minutes apart in their timelines are not', async () => {
    const { association } = await assignment(p.driver2);
    const token = p.driver2.token;
    // 20 hours back: within the task day's one-day slack (time_out_of_range) at any hour — 30 hours back fell before
    // it in the first hours after midnight, and CI ran then.
    const early = new Date(Date.now() - 20 * 3_600_000).toISOString();
    const a = await fullTrip(association, early, { token });
    const b = await fullTrip(association, minutes(early, 45), { token });
    expect(await flagCodes(a.report)).toEqual([]);
    expect(await flagCodes(b.report)).toEqual([]);
    expect((await view(a.report)).waits.cycle_min).toBe(45);
    const c = await fullTrip(association, minutes(early, 50), { token });
    const flags = (await view(c.report)).flags as { code: string; detail: string }[];
    expect(flags.map((f) => f.code)).toEqual(['fast_cycle']);
    expect(flags[0]?.detail).toBe('5 мин от прибытия на погрузку в предыдущем рейсе до прибытия в этом (минимум 15 мин)');
  });

  it('flags a stamp 2 km from its place, a long wait, and a finished trip without the acceptance the company asks for', async () => {
    const put = await call(s, 'PUT', `/api/companies/${p.company}/trip-settings`, { token: p.admin.token, body: { acceptance_mode: 'per_trip', long_wait_minutes: 45, geofence_dwell_seconds: 60, no_data_minutes: 90 } });
    expect(put.status).toBe(200);
    try {
      const { association } = await assignment();
      // The driver's phone reads the setting with his tasks, and asks for the receiver's signature by it.
      const assigned = await call<{ items: { company_id: number; trip_settings?: { acceptance_mode: string } }[] }>(s, 'GET', '/api/tasks/assigned/', { token: p.driver.token });
      expect(assigned.body.items.length).toBeGreaterThan(0);
      expect(assigned.body.items.map((t) => t.trip_settings?.acceptance_mode)).toEqual(assigned.body.items.map(() => 'per_trip'));
      const uid = randomUUID();
      const t0 = new Date(Date.now() - 5 * 3_600_000).toISOString();
      await step(uid, 'loading_arrived', { association_id: association, at: t0, position: { ...FAR, accuracy: 30 } });
      await step(uid, 'loading_departed', { association_id: association, at: minutes(t0, 50), position: { ...QUARRY, accuracy: 10 } });
      await step(uid, 'unloading_arrived', { association_id: association, at: minutes(t0, 80), position: { ...SITE, accuracy: 10 } });
      const last = await step(uid, 'unloading_departed', { association_id: association, at: minutes(t0, 90), position: { ...SITE, accuracy: 10 } });
      const flags = (await view(last.body.report_id)).flags as { code: string; detail: string }[];
      expect(flags.map((f) => f.code)).toEqual(['far_from_place', 'no_acceptance', 'long_wait']);
      expect(flags[0]?.detail).toBe('Прибытие на погрузку в 2 км от места (радиус 150 м, точность 30 м)');
      expect(flags[2]?.detail).toBe('Простой на погрузке 50 мин (порог 45 мин)');

      // The acceptance with the trip's last step (signed, with its PNG) clears no_acceptance.
      const signed = randomUUID();
      const t1 = minutes(t0, 120);
      await step(signed, 'loading_arrived', { association_id: association, at: t1, position: { ...QUARRY, accuracy: 10 } });
      const form = new FormData();
      form.append('data', JSON.stringify({ association_id: association, at: minutes(t1, 60), acceptance: { kind: 'signed', receiver_name: 'Прораб Кузнецов', receiver_position: 'прораб', strokes: [[[1, 2, 0], [3, 4, 16]]] } }));
      form.append('photo', new Blob([JPEG_8x6], { type: 'image/jpeg' }), 'ticket.jpg');
      form.append('signature', new Blob([PNG_8x6], { type: 'image/png' }), 'signature.png');
      const { payload, headers } = await encodeForm(form);
      const res = await s.app.inject({ method: 'PUT', url: `/api/trips/${signed}/steps/unloading_departed`, payload, headers: { ...headers, authorization: `Bearer ${p.driver.token}` } });
      expect(res.statusCode).toBe(201);
      const trip = await view(res.json().report_id);
      expect(trip.flags.map((f: { code: string }) => f.code)).not.toContain('no_acceptance');
      expect(trip.acceptance).toMatchObject({ kind: 'signed', receiver_name: 'Прораб Кузнецов', receiver_position: 'прораб', scope: 'trip' });
      expect(trip.photos).toHaveLength(1);
      const image = await s.app.inject({ method: 'GET', url: trip.acceptance.signature_url, headers: { authorization: `Bearer ${p.manager.token}` } });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      const other = await s.app.inject({ method: 'GET', url: trip.acceptance.signature_url, headers: { authorization: `Bearer ${p.otherManager.token}` } });
      expect(other.statusCode).toBe(404);
    } finally {
      await s.db.kysely.updateTable('companies').set({ trip_settings: null }).where('id', '=', p.company).execute();
    }
  });

  it('a per-shift acceptance covers its listed trips, once per key', async () => {
    await call(s, 'PUT', `/api/companies/${p.company}/trip-settings`, { token: p.admin.token, body: { acceptance_mode: 'per_shift', long_wait_minutes: 60, geofence_dwell_seconds: 60, no_data_minutes: 90 } });
    try {
      const { association } = await assignment();
      const t0 = new Date(Date.now() - 8 * 3_600_000).toISOString();
      const a = await fullTrip(association, t0);
      const b = await fullTrip(association, minutes(t0, 120));
      expect(await flagCodes(a.report)).toContain('no_acceptance');
      const body = { key: randomUUID(), trip_uids: [a.uid, b.uid], at: minutes(t0, 300), acceptance: { kind: 'refused', reason: 'Получатель уехал с объекта' } };
      const first = await call(s, 'POST', '/api/trips/acceptance', { token: p.driver.token, body });
      expect(first.status).toBe(201);
      expect(first.body.report_ids).toEqual([a.report, b.report].sort((x, y) => x - y));
      const again = await call(s, 'POST', '/api/trips/acceptance', { token: p.driver.token, body });
      expect(again.status).toBe(200);
      expect(again.body.replay).toBe(true);
      expect(await s.db.kysely.selectFrom('trip_acceptances').select('id').where('key', '=', body.key).execute()).toHaveLength(1);
      expect(await flagCodes(a.report)).not.toContain('no_acceptance');
      expect((await view(b.report)).acceptance).toMatchObject({ kind: 'refused', refused_reason: 'Получатель уехал с объекта', scope: 'shift' });
      // Another driver cannot sign for these trips.
      const foreign = await call(s, 'POST', '/api/trips/acceptance', { token: p.driver2.token, body: { ...body, key: randomUUID() } });
      expect(foreign.status).toBe(403);
      expect(foreign.body.detail).toMatch(/другого водителя/);
    } finally {
      await s.db.kysely.updateTable('companies').set({ trip_settings: null }).where('id', '=', p.company).execute();
    }
  });

  it('a report filed by the one form is a trip entered after the fact, its time from completion', async () => {
    const { association } = await assignment();
    const completed = new Date(Date.now() - 3_600_000).toISOString();
    const form = new FormData();
    form.append('association_id', String(association));
    form.append('quantity', '20');
    form.append('completed_at', completed);
    const { payload, headers } = await encodeForm(form);
    const res = await s.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, authorization: `Bearer ${p.driver.token}`, 'idempotency-key': randomUUID() } });
    expect(res.statusCode).toBe(201);
    const trip = await view(res.json().id);
    expect(trip.after_the_fact).toBe(true);
    expect(trip.trip_uid).toBeNull();
    expect(trip.timeline.unloading_departed).toMatchObject({ at: completed, source: 'form' });
    expect(trip.timeline.loading_arrived).toBeNull();
  });

  it('the after-the-fact form stores its typed times in order, refuses them out of order or ahead with a Russian detail naming the field, and fast_cycle reads them', async () => {
    const { association } = await assignment();
    const file = async (times: Record<string, string>) => {
      const form = new FormData();
      form.append('association_id', String(association));
      form.append('quantity', '20');
      for (const [name, value] of Object.entries(times)) form.append(name, value);
      const { payload, headers } = await encodeForm(form);
      return s.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, authorization: `Bearer ${p.driver.token}`, 'idempotency-key': randomUUID() } });
    };
    // Ten days back: no other test's trip of this driver is near these times.
    const t0 = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const first = await file({ loading_arrived_at: t0, loading_departed_at: minutes(t0, 25), unloading_arrived_at: minutes(t0, 55), unloading_departed_at: minutes(t0, 70) });
    expect(first.statusCode, first.body).toBe(201);
    const trip = await view(first.json().id);
    expect(trip.after_the_fact).toBe(true);
    expect(trip.completed_at).toBe(minutes(t0, 70));
    expect(trip.timeline.loading_arrived).toMatchObject({ at: t0, source: 'form', position: null });
    expect(trip.timeline.unloading_departed).toMatchObject({ at: minutes(t0, 70), source: 'form' });
    expect(trip.waits).toMatchObject({ loading_min: 25, unloading_min: 15, travel_min: 30 });

    // Filed a minute apart, but its typed loading arrival is 8 minutes after the first's: fast, on the typed times.
    const fast = await file({ loading_arrived_at: minutes(t0, 8), unloading_departed_at: minutes(t0, 80) });
    expect(fast.statusCode, fast.body).toBe(201);
    const fastFlags = (await view(fast.json().id)).flags as { code: string; detail: string }[];
    expect(fastFlags.find((f) => f.code === 'fast_cycle')?.detail).toMatch(/^8 мин от прибытия на погрузку/);
    // Typed 3 hours later: not fast, though the completion times of the two forms are 10 minutes apart.
    const slow = await file({ loading_arrived_at: minutes(t0, 180), completed_at: minutes(t0, 240) });
    expect(slow.statusCode, slow.body).toBe(201);
    expect(await flagCodes(slow.json().id)).not.toContain('fast_cycle');

    const refused = [
      await file({ loading_arrived_at: minutes(t0, 30), loading_departed_at: minutes(t0, 10) }),
      await file({ loading_departed_at: minutes(t0, 30), unloading_departed_at: minutes(t0, 20) }),
      await file({ unloading_arrived_at: new Date(Date.now() + 3_600_000).toISOString() }),
      await file({ unloading_departed_at: minutes(t0, 60), completed_at: minutes(t0, 50) }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 400]);
    expect(refused.map((r) => r.json().detail)).toEqual([
      'loading_departed_at: раньше, чем «Прибытие на погрузку»',
      'unloading_departed_at: раньше, чем «Выезд с погрузки»',
      'unloading_arrived_at: время ещё не наступило',
      'completed_at: раньше, чем «Выезд с выгрузки»',
    ]);
    // Nothing of the refused forms was stored.
    const stored = await s.db.kysely.selectFrom('reports').select('id').where('association_id', '=', association).execute();
    expect(stored).toHaveLength(3);
  });

  it('refuses bad input with a Russian detail', async () => {
    const { association } = await assignment();
    const other = await assignment(p.driver2);
    const at = new Date().toISOString();
    const cases: [number, Awaited<ReturnType<typeof step>>][] = [
      [400, await step('not-a-uuid', 'loading_arrived', { association_id: association, at })],
      [400, await step(randomUUID(), 'lunch', { association_id: association, at })],
      [400, await step(randomUUID(), 'loading_arrived', { association_id: association, at, loading_quantity: 20 })],
      [400, await step(randomUUID(), 'loading_departed', { association_id: association, at, acceptance: { kind: 'refused', reason: 'не подписал' } })],
      [400, await step(randomUUID(), 'loading_arrived', { association_id: association, at: 'вчера' })],
      [403, await step(randomUUID(), 'loading_arrived', { association_id: other.association, at })],
    ];
    const uid = randomUUID();
    await step(uid, 'loading_arrived', { association_id: association, at });
    cases.push([409, await step(uid, 'loading_departed', { association_id: (await assignment()).association, at })]);
    cases.push([404, await step(uid, 'loading_departed', { association_id: other.association, at }, p.driver2.token)]);
    cases.push([403, await step(randomUUID(), 'loading_arrived', { association_id: association, at }, p.manager.token)]);
    for (const [status, res] of cases) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.detail).toMatch(/[а-яё]/i);
    }
  });

  it('shows each driver\'s state on the board: loading, loaded, unloading, free, and «no data» after no_data_minutes without a step', async () => {
    const people = await makePeople(s);
    const task = await createTask(s, people.company, { date: dayFromToday(0) });
    const association = await addDriver(s, task, people.driver.id, { status: 'in_progress' });
    const board = async () => {
      const res = await call(s, 'GET', `/api/dispatch/board?date=${dayFromToday(0)}`, { token: people.manager.token });
      expect(res.status).toBe(200);
      return (res.body.drivers as { id: number; trip_state: { state: string; since: string | null; trip_uid: string | null } }[]).find((d) => d.id === people.driver.id)?.trip_state;
    };
    expect(await board()).toEqual({ state: 'free', since: null, trip_uid: null });
    const uid = randomUUID();
    const t0 = new Date(Date.now() - 40 * 60_000).toISOString();
    const put = (name: TripStep, at: string) => step(uid, name, { association_id: association, at }, people.driver.token);
    await put('loading_arrived', t0);
    expect(await board()).toEqual({ state: 'loading', since: t0, trip_uid: uid });
    await put('loading_departed', minutes(t0, 10));
    expect((await board())?.state).toBe('loaded');
    await put('unloading_arrived', minutes(t0, 30));
    expect(await board()).toEqual({ state: 'unloading', since: minutes(t0, 30), trip_uid: uid });
    await put('unloading_departed', minutes(t0, 35));
    expect(await board()).toEqual({ state: 'free', since: minutes(t0, 35), trip_uid: uid });
    // A trip whose last step is older than no_data_minutes (90 by default) reads «нет данных».
    const silent = randomUUID();
    const old = new Date(Date.now() - 100 * 60_000).toISOString();
    const second = await addDriver(s, task, people.driver2.id, { status: 'in_progress' });
    await step(silent, 'loading_arrived', { association_id: second, at: old }, people.driver2.token);
    await step(silent, 'loading_departed', { association_id: second, at: minutes(old, 5) }, people.driver2.token);
    const res = await call(s, 'GET', `/api/dispatch/board?date=${dayFromToday(0)}`, { token: people.manager.token });
    expect(res.body.drivers.find((d: { id: number }) => d.id === people.driver2.id).trip_state).toEqual({ state: 'no_data', since: minutes(old, 5), trip_uid: silent });
  });

  it('reads the board\'s trip states from the stamps of the last days, not from every trip the drivers ever filed', async () => {
    if (s.db.dialect !== 'sqlite') return;
    const { sql: text, parameters } = recentStamps(s.db.kysely, [p.driver.id, p.driver2.id], new Date().toISOString()).compile();
    const { rows } = await s.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
    // The outer loop is a range of the stamps' (step, at) index; each stamp's report is reached by its key.
    expect(rows.map((r) => r.detail)).toEqual(['SEARCH s USING INDEX trip_stamps_step_at_idx (step=? AND at>?)', 'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)']);
  });

  it('keeps the trip settings on the company: staff and its drivers read them, admins change them', async () => {
    const read = await call(s, 'GET', `/api/companies/${p.company}/trip-settings`, { token: p.driver.token });
    expect(read.body).toEqual({ acceptance_mode: 'none', long_wait_minutes: 60, geofence_dwell_seconds: 60, no_data_minutes: 90, require_trip_sheet: false, driver_confirms: false });
    expect((await call(s, 'GET', `/api/companies/${p.company}/trip-settings`, { token: p.otherDriver.token })).status).toBe(404);
    const bad = await call(s, 'PUT', `/api/companies/${p.company}/trip-settings`, { token: p.admin.token, body: { acceptance_mode: 'always', long_wait_minutes: 60, geofence_dwell_seconds: 60, no_data_minutes: 90 } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/per_trip/);
  });
});
