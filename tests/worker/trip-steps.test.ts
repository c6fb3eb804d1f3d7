/**
 * Trip steps in the outbox (issue 32, worker/trip-steps.ts): one record per (trip, step), kept in IndexedDB, held
 * for the undo window, then delivered exactly once and in their trip's order, also after offline hours, a reload
 * (a new engine on the same database) and a server that answered 503 for a while.
 */
import { describe, expect, it, vi } from 'vitest';
import { TRIP_STEPS, type TripStep, type TripStepBody } from '../../contract/trips.ts';
import { retryDelayMs, TRIP_DELIVERED_NOTICE, UNDO_TOO_LATE } from '../../worker/outbox.ts';
import type { Outbox } from '../../worker/outbox.ts';
import { answeredId, outboxRequest } from '../../worker/trip-form.ts';
import { STEP_ORDER, TRIP_STEP_STORED_MARK, tripStepKey, UNDO_WINDOW_MS } from '../../worker/trip-steps.ts';
import { photo, photoTexts, setup, T0, type Harness } from './outbox-doubles.ts';

const at = (ms: number) => new Date(ms).toISOString();

function body(step: TripStep, now: number, extra: Partial<TripStepBody> = {}): TripStepBody {
  return { association_id: 41, at: at(now), source: 'tap', position: { lat: 55.75, lon: 37.62, accuracy: 12 }, ...extra };
}

/** Queues one step and answers the trip's uid, failing the test when it was not queued. */
async function stamp(h: Harness, uid: string | null, step: TripStep, extra: { photos?: Blob[]; signature?: Blob | null; body?: Partial<TripStepBody> } = {}, outbox: Outbox = h.outbox): Promise<string> {
  const result = await outbox.queueTripStep({ trip_uid: uid, step, body: body(step, h.clock.now, extra.body), photos: extra.photos ?? [], signature: extra.signature ?? null });
  if (!result.ok) throw new Error(`not queued: ${result.message}`);
  return result.data.trip_uid;
}

/** Taps through a whole trip, a minute apart; answers its uid. */
async function wholeTrip(h: Harness, outbox: Outbox = h.outbox): Promise<string> {
  let uid: string | null = null;
  for (const step of TRIP_STEPS) {
    uid = await stamp(h, uid, step, {}, outbox);
    h.clock.now += 60_000;
  }
  return uid as string;
}

const keysSent = (h: Harness) => h.server.calls.map((c) => c.key);

describe('trip steps in the outbox', () => {
  it('keeps the same order of steps as the contract', () => {
    expect([...STEP_ORDER]).toEqual([...TRIP_STEPS]);
  });

  it('a tap\'s step (no photos) goes to the device in one transaction: no read before it, no read after it', async () => {
    const h = await setup();
    const all = vi.spyOn(h.store.outbox, 'all');
    const write = vi.spyOn(h.store.outbox, 'write');
    const uid = await stamp(h, null, 'loading_arrived');
    expect(all).not.toHaveBeenCalled();
    expect(write).not.toHaveBeenCalled();
    // The view the tabs are told of is the queue as committed, the new step in it.
    expect(h.outbox.snapshot().items.map((i) => i.trip?.uid)).toEqual([uid]);
    // Checked in that same transaction: the same step again is refused, and nothing more is stored.
    const again = await h.outbox.queueTripStep({ trip_uid: uid, step: 'loading_arrived', body: body('loading_arrived', h.clock.now), photos: [], signature: null });
    expect(again).toMatchObject({ ok: false, message: 'Эта отметка уже сделана' });
    all.mockRestore();
    expect(await h.store.outbox.all()).toHaveLength(1);
  });

  it('marks the moment its transaction completed with the step\'s key (what bench trip-step-tap reads), a refused one not', async () => {
    performance.clearMarks(TRIP_STEP_STORED_MARK);
    const h = await setup();
    const uid = await stamp(h, null, 'loading_arrived');
    await h.outbox.queueTripStep({ trip_uid: uid, step: 'loading_arrived', body: body('loading_arrived', h.clock.now), photos: [], signature: null });
    const marks = performance.getEntriesByName(TRIP_STEP_STORED_MARK, 'mark') as PerformanceMark[];
    expect(marks.map((m) => m.detail as unknown)).toEqual([tripStepKey(uid, 'loading_arrived')]);
    performance.clearMarks(TRIP_STEP_STORED_MARK);
  });

  it('queued offline, read again after a reload, delivered once each and in their order', async () => {
    const h = await setup();
    h.server.assigned = [41];
    h.online.value = false;
    const first = await wholeTrip(h);
    const second = await wholeTrip(h);
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(0);
    expect(h.outbox.snapshot().pending).toBe(8);

    // The tab was closed (or the battery died): a new engine reads the same database.
    const reloaded = h.engine();
    await reloaded.reload();
    expect(reloaded.snapshot().items.map((i) => i.trip?.step)).toEqual([...TRIP_STEPS, ...TRIP_STEPS]);
    expect(reloaded.snapshot().items[0]?.trip).toMatchObject({ uid: first, at: at(T0), source: 'tap', position: { lat: 55.75, lon: 37.62, accuracy: 12 } });

    h.online.value = true;
    await reloaded.flush();
    await Promise.all([reloaded.flush(), h.outbox.flush()]);
    expect(keysSent(h)).toEqual([...TRIP_STEPS.map((s) => `${first}:${s}`), ...TRIP_STEPS.map((s) => `${second}:${s}`)]);
    expect(h.server.sendsPerKey().every((n) => n === 1)).toBe(true);
    expect(reloaded.snapshot().items.every((i) => i.state === 'sent')).toBe(true);
    // One notice per trip that waited, not one per step.
    expect(h.notes.filter((n) => n === TRIP_DELIVERED_NOTICE)).toHaveLength(2);
  });

  it('is not sent during its undo window, even when the driver asks to send everything', async () => {
    const h = await setup();
    h.server.assigned = [41];
    await stamp(h, null, 'loading_arrived');
    await h.outbox.flush({ everything: true });
    expect(h.server.calls).toHaveLength(0);
    expect(h.outbox.snapshot().items[0]?.trip?.holdUntil).toBe(T0 + UNDO_WINDOW_MS);
    h.clock.now = T0 + UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);
  });

  it('is sent by the schedule once its window is over', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const stop = h.outbox.start(h.network);
    await stamp(h, null, 'loading_arrived');
    await h.outbox.flush();
    const timer = h.timers.find((t) => !t.interval && !t.cleared && t.ms === UNDO_WINDOW_MS);
    expect(timer).toBeDefined();
    h.clock.now = T0 + UNDO_WINDOW_MS;
    timer?.fn();
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);
    stop();
  });

  it('an undo within the window takes the step and its photos out; after it, the step stays', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived');
    h.clock.now += 60_000;
    await stamp(h, uid, 'loading_departed', { photos: [photo('ticket')], body: { ticket_number: '№ 15', loading_quantity: 20 } });
    expect(await h.db.count('photos')).toBe(1);

    // Only the trip's last step can be taken back.
    const early = await h.outbox.undoTripStep(uid, 'loading_arrived');
    expect(early).toMatchObject({ ok: false, message: 'Сначала отмените более позднюю отметку' });

    h.clock.now += UNDO_WINDOW_MS - 1;
    expect(await h.outbox.undoTripStep(uid, 'loading_departed')).toEqual({ ok: true, data: null });
    expect(await h.db.count('photos')).toBe(0);
    expect(h.outbox.snapshot().items.map((i) => i.trip?.step)).toEqual(['loading_arrived']);

    // The first step's window is long over: it is sent, and it stays.
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    expect(await h.outbox.undoTripStep(uid, 'loading_arrived')).toMatchObject({ ok: false, message: UNDO_TOO_LATE });

    // Taken back, the step can be tapped again (the trip goes on from where it is).
    await stamp(h, uid, 'loading_departed', { body: { loading_quantity: 21 } });
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`, `${uid}:loading_departed`]);
  });

  it('after a 503 the later step waits for the earlier one, then both go once, in order', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived');
    await stamp(h, uid, 'loading_departed');
    h.clock.now += UNDO_WINDOW_MS;
    h.server.script.push({ ok: false, network: false, status: 503, message: 'Сервер перезапускается', unreachable: true });
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    // The earlier step's retry is not due yet: the later one, due, does not pass it.
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);

    h.clock.now += retryDelayMs(0);
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`, `${uid}:loading_arrived`, `${uid}:loading_departed`]);
    expect(h.server.reports.size).toBe(2);
    // A 503 is not the server's verdict on the step: no attempt counted.
    expect((await h.db.getAll('outbox')).every((r) => r.sent && r.attempts === 0)).toBe(true);
  });

  it('a later step is held while an earlier one is refused (a counted failure)', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived');
    await stamp(h, uid, 'loading_departed');
    h.clock.now += UNDO_WINDOW_MS;
    h.server.script.push({ status: 422, message: 'Задание завершено' });
    await h.outbox.flush({ everything: true });
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    await h.outbox.flush({ everything: true });
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`, `${uid}:loading_arrived`, `${uid}:loading_departed`]);
  });

  it('refuses a step out of order, twice, or for another task', async () => {
    const h = await setup();
    const refused = (uid: string | null, step: TripStep, extra: Partial<TripStepBody> = {}) =>
      h.outbox.queueTripStep({ trip_uid: uid, step, body: body(step, h.clock.now, extra), photos: [], signature: null });
    expect(await refused(null, 'loading_departed')).toMatchObject({ ok: false, message: 'Рейс начинается с отметки «Прибыл на погрузку»' });
    const uid = await stamp(h, null, 'loading_arrived');
    expect(await refused(uid, 'loading_arrived')).toMatchObject({ ok: false, message: 'Эта отметка уже сделана' });
    expect(await refused(uid, 'unloading_arrived')).toMatchObject({ ok: false, message: 'Сначала сделайте предыдущую отметку рейса' });
    expect(await refused(uid, 'loading_departed', { association_id: 42 })).toMatchObject({ ok: false, message: 'Рейс относится к другому заданию' });
    expect(await h.db.count('outbox')).toBe(1);
  });

  it('stores the photos compressed and the signature as drawn, and sends them as their parts', async () => {
    const compressed: string[] = [];
    const h = await setup({ compress: async (p) => (compressed.push(await p.text()), new Blob([`small ${await p.text()}`], { type: 'image/jpeg' })) });
    let uid = await stamp(h, null, 'loading_arrived');
    for (const step of ['loading_departed', 'unloading_arrived'] as const) uid = await stamp(h, uid, step);
    const signature = new Blob(['png'], { type: 'image/png' });
    const acceptance = { kind: 'signed' as const, receiver_name: 'Иванов И. И.', receiver_position: 'кладовщик', strokes: [[[1, 2, 0]]] as [number, number, number][][] };
    await stamp(h, uid, 'unloading_departed', { photos: [photo('unloaded')], signature, body: { unloading_quantity: 19.5, acceptance } });
    expect(compressed).toEqual(['unloaded']);
    const record = (await h.db.getAll('outbox')).find((r) => r.trip?.step === 'unloading_departed');
    expect(record?.idempotencyKey).toBe(`${uid}:unloading_departed`);
    expect(await photoTexts(h.db, record?.id as number)).toEqual(['small unloaded', 'png']);

    const loaded = await h.store.outbox.read(record?.id as number);
    const request = outboxRequest(loaded?.record as NonNullable<typeof record>, loaded?.photos ?? []);
    expect(request.method).toBe('PUT');
    expect(request.path).toBe(`trips/${uid}/steps/unloading_departed`);
    expect(JSON.parse(request.form.get('data') as string)).toMatchObject({ association_id: 41, unloading_quantity: 19.5, acceptance });
    expect(await Promise.all(request.form.getAll('photo').map((p) => (p as Blob).text()))).toEqual(['small unloaded']);
    expect(await (request.form.get('signature') as Blob).text()).toBe('png');
    expect(answeredId({ report_id: 9, trip_uid: uid })).toBe(9);
  });
});

describe('a trip step in the snapshot', () => {
  it('waits (not «retry») during its undo window, and carries its step, time and place', async () => {
    const h = await setup();
    await stamp(h, null, 'loading_arrived');
    const [item] = h.outbox.snapshot().items;
    expect(item).toMatchObject({ state: 'waiting', trip: { step: 'loading_arrived', at: at(T0), source: 'tap', holdUntil: T0 + UNDO_WINDOW_MS, acceptance: null } });
  });
});

describe('a corrected step time', () => {
  it('before delivery: the one record changes, and goes once with the corrected time', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived');
    expect(await h.outbox.correctTripStep(uid, 'loading_arrived', at(T0 - 5 * 60_000))).toEqual({ ok: true, data: null });
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    const [record] = await h.db.getAll('outbox');
    expect(record?.trip?.body).toMatchObject({ at: at(T0 - 5 * 60_000), source: 'corrected' });
  });

  it('after delivery: the step goes again as a correction, its data without the files', async () => {
    const h = await setup();
    h.server.assigned = [41];
    let uid = await stamp(h, null, 'loading_arrived');
    uid = await stamp(h, uid, 'loading_departed', { photos: [photo('ticket')], body: { loading_quantity: 20 } });
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(await h.outbox.correctTripStep(uid, 'loading_departed', at(T0 + 60_000))).toEqual({ ok: true, data: null });
    expect(h.outbox.snapshot().pending).toBe(1);
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`, `${uid}:loading_departed`, `${uid}:loading_departed`]);
    const record = (await h.db.getAll('outbox')).find((r) => r.trip?.step === 'loading_departed');
    expect(record).toMatchObject({ sent: true, trip: { correction: true, body: { at: at(T0 + 60_000), source: 'corrected', loading_quantity: 20 } } });
    const loaded = await h.store.outbox.read(record?.id as number);
    const request = outboxRequest(loaded?.record as NonNullable<typeof record>, loaded?.photos ?? []);
    expect(request.form.getAll('photo')).toEqual([]);
    expect(JSON.parse(request.form.get('data') as string)).toMatchObject({ source: 'corrected', at: at(T0 + 60_000) });
  });
});

describe('the position read after the tap', () => {
  it('joins the step while it is held: the step was on the device at the tap, and goes once with its position', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived', { body: { position: null } });
    // On the device at once, before any position came.
    expect((await h.db.getAll('outbox')).map((r) => r.trip?.body.position)).toEqual([null]);
    const position = { lat: 55.75, lon: 37.61, accuracy: 12 };
    expect(await h.outbox.placeTripStep(uid, 'loading_arrived', position)).toEqual({ ok: true, data: null });
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    const [record] = await h.db.getAll('outbox');
    expect(record?.trip?.body).toMatchObject({ at: at(T0), source: 'tap', position });
  });

  it('too late once the step is sent: it stays as it went, nothing sent again', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await stamp(h, null, 'loading_arrived', { body: { position: null } });
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    const late = await h.outbox.placeTripStep(uid, 'loading_arrived', { lat: 1, lon: 2, accuracy: 3 });
    expect(late.ok).toBe(false);
    await h.outbox.flush();
    expect(keysSent(h)).toEqual([`${uid}:loading_arrived`]);
    expect((await h.db.getAll('outbox'))[0]?.trip?.body.position).toBeNull();
  });
});
