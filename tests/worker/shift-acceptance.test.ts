/**
 * The per-shift acceptance in the outbox (issue 32, worker/shift-acceptance.ts): the receiver's one signature for
 * the day's finished trips, queued offline, kept in IndexedDB across a restart (a new engine on the same database)
 * and delivered exactly once by its key; the trips it lists stay known on the phone after their task left the list.
 */
import { describe, expect, it } from 'vitest';
import { TRIP_STEPS, type ShiftAcceptanceBody } from '../../contract/trips.ts';
import type { Outbox } from '../../worker/outbox.ts';
import { ACCEPTANCE_DELIVERED_NOTICE } from '../../worker/outbox.ts';
import { outboxRequest } from '../../worker/trip-form.ts';
import { newAcceptanceKey, SHIFT_KEEP_MS } from '../../worker/shift-acceptance.ts';
import { UNDO_WINDOW_MS } from '../../worker/trip-steps.ts';
import { photo, setup, type Harness } from './outbox-doubles.ts';

const at = (ms: number) => new Date(ms).toISOString();

/** Taps a whole trip on association 41, a minute apart; answers its uid. */
async function wholeTrip(h: Harness, final = false): Promise<string> {
  let uid: string | null = null;
  for (const step of TRIP_STEPS) {
    const body = { association_id: 41, at: at(h.clock.now), source: 'tap' as const, ...(final && step === 'unloading_departed' ? { final: 1 as const } : {}) };
    const result = await h.outbox.queueTripStep({ trip_uid: uid, step, body, photos: [], signature: null });
    if (!result.ok) throw new Error(result.message);
    uid = result.data.trip_uid;
    h.clock.now += 60_000;
  }
  return uid as string;
}

const signedFor = (tripUids: string[], now: number): ShiftAcceptanceBody => ({
  key: newAcceptanceKey(),
  trip_uids: tripUids,
  at: at(now),
  position: null,
  acceptance: { kind: 'signed', receiver_name: 'Петров И. С.', receiver_position: 'мастер участка' },
});

describe('the per-shift acceptance in the outbox', () => {
  it('queued offline, read again after a restart, sent once by its key as POST /trips/acceptance; its trips stay known after their task ended', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const first = await wholeTrip(h);
    const second = await wholeTrip(h, true);
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(8);

    // The last trip finished the task: it left the driver's list, but its finished trips stay for the signature.
    h.server.assigned = [];
    await h.outbox.resolve();
    const kept = h.outbox.snapshot().items.map((i) => [i.trip?.uid, i.trip?.step]);
    expect(kept).toEqual([
      [first, 'unloading_departed'],
      [second, 'unloading_departed'],
    ]);

    // At the end of the day, without a network: the receiver signs once for both.
    h.online.value = false;
    const body = signedFor([first, second], h.clock.now);
    const signature = new Blob(['png'], { type: 'image/png' });
    const queued = await h.outbox.queueShiftAcceptance({ body, signature });
    expect(queued).toMatchObject({ ok: true, data: { key: body.key } });
    // Tapped twice: the trips are signed for already.
    expect(await h.outbox.queueShiftAcceptance({ body: signedFor([first], h.clock.now), signature })).toMatchObject({ ok: false, message: 'Рейс уже подписан' });
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(8);

    // The tab was closed: a new engine reads the same database; both engines flush once the network is back.
    const restarted: Outbox = h.engine();
    await restarted.reload();
    expect(restarted.snapshot().items.at(-1)?.shiftAcceptance).toEqual({ key: body.key, trip_uids: [first, second], kind: 'signed', at: body.at });
    h.online.value = true;
    await Promise.all([restarted.flush(), h.outbox.flush()]);
    const sent = h.server.calls.slice(8);
    expect(sent.map((c) => c.key)).toEqual([body.key]);
    expect(h.notes).toContain(ACCEPTANCE_DELIVERED_NOTICE);

    // What went: the body with its key, and the signature as drawn.
    const stored = (await h.store.outbox.all()).find((r) => r.acceptance);
    const request = outboxRequest(stored!, [signature]);
    expect(request).toMatchObject({ method: 'POST', path: 'trips/acceptance' });
    expect(JSON.parse(request.form.get('data') as string)).toEqual(body);
    expect(request.form.get('signature')).toBeInstanceOf(Blob);

    // Later flushes and restarts do not send it again; a day on, the trips and the acceptance leave the phone.
    await h.engine().flush({ everything: true });
    expect(h.server.calls).toHaveLength(9);
    await restarted.resolve();
    expect(restarted.snapshot().items.map((i) => i.state)).toEqual(['sent', 'sent', 'sent']);
    h.clock.now += SHIFT_KEEP_MS;
    await restarted.resolve();
    expect(restarted.snapshot().items).toEqual([]);
  });

  it('a repeat after a send whose answer was lost goes with the same key, so the server keeps one acceptance', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const uid = await wholeTrip(h);
    h.clock.now += UNDO_WINDOW_MS;
    await h.outbox.flush();
    const body = { ...signedFor([uid], h.clock.now), acceptance: { kind: 'refused' as const, reason: 'Получатель уехал с объекта' } };
    // The refusal has no signature; a signature with it is refused on the phone.
    expect(await h.outbox.queueShiftAcceptance({ body, signature: photo('x') })).toMatchObject({ ok: false });
    await h.outbox.queueShiftAcceptance({ body, signature: null });
    h.server.script.push('network');
    await h.outbox.flush();
    h.clock.now += 60_000;
    await h.engine().flush();
    const keys = h.server.calls.slice(4).map((c) => c.key);
    expect(keys).toEqual([body.key, body.key]);
    expect(h.server.reports.size).toBe(5);
  });
});
