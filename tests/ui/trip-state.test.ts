import { describe, expect, it } from 'vitest';
import type { TripStep } from '../../contract/trips.ts';
import type { OutboxItemView } from '../../src/engine/types.ts';
import { correctedTime, tripSettingsOf, tripsOf, undoable } from '../../src/parts/driver/trip-state.ts';

let nextId = 1;
function item(uid: string, step: TripStep, createdAt: number, extra: Partial<OutboxItemView> = {}): OutboxItemView {
  return {
    id: nextId++,
    association_id: 41,
    state: 'sent',
    attempts: 0,
    nextAttemptAt: null,
    sentAt: createdAt,
    lastError: null,
    photoCount: 0,
    quantity: null,
    createdAt,
    progress: null,
    waited: false,
    trip: { uid, step, at: new Date(createdAt).toISOString(), source: 'tap', position: null, holdUntil: createdAt + 10_000, acceptance: null },
    ...extra,
  };
}

describe('the current trip read from the outbox', () => {
  it('carries on a trip the server holds unfinished that this phone never stamped (another phone, storage cleared)', () => {
    const open = { uid: 'srv', stamps: { loading_arrived: '2026-11-28T08:00:00.000Z', loading_departed: '2026-11-28T08:20:00.000Z' } };
    const fresh = tripsOf([], 41, open);
    expect(fresh.next).toEqual({ step: 'unloading_arrived', uid: 'srv' });
    expect(fresh.current?.stamps.loading_departed).toMatchObject({ at: '2026-11-28T08:20:00.000Z', state: 'sent', holdUntil: null });
    expect(undoable(fresh.current, Date.parse('2026-11-28T08:20:05.000Z'))).toBeNull();
    // This phone's own stamps of the same trip are the ones shown.
    const mine = tripsOf([item('srv', 'loading_arrived', Date.parse('2026-11-28T08:00:00.000Z'))], 41, open);
    expect(mine.next).toEqual({ step: 'loading_departed', uid: 'srv' });
    // A later trip on this phone wins over an older one left open on the server.
    const later = tripsOf([item('b', 'loading_arrived', Date.parse('2026-11-28T09:00:00.000Z'))], 41, open);
    expect(later.next).toEqual({ step: 'loading_departed', uid: 'b' });
    // An open trip newer than the phone's finished ones is carried on after them.
    const done = (['loading_arrived', 'loading_departed', 'unloading_arrived', 'unloading_departed'] as const).map((s, i) => item('a', s, Date.parse('2026-11-28T06:00:00.000Z') + i * 60_000));
    const after = tripsOf(done, 41, open);
    expect(after.next).toEqual({ step: 'unloading_arrived', uid: 'srv' });
    expect(after.finished).toBe(1);
  });

  it('before any tap: the next step starts a new trip', () => {
    expect(tripsOf([], 41)).toEqual({ current: null, next: { step: 'loading_arrived', uid: null }, finished: 0 });
  });

  it('a running trip: the next step is the one after its last', () => {
    const trips = tripsOf([item('a', 'loading_arrived', 1), item('a', 'loading_departed', 2), item('x', 'loading_arrived', 3, { association_id: 42 })], 41);
    expect(trips.next).toEqual({ step: 'unloading_arrived', uid: 'a' });
    expect(Object.keys(trips.current?.stamps ?? {})).toEqual(['loading_arrived', 'loading_departed']);
  });

  it('a finished trip stays shown, and the next tap starts another', () => {
    const steps: TripStep[] = ['loading_arrived', 'loading_departed', 'unloading_arrived', 'unloading_departed'];
    const trips = tripsOf(steps.map((s, i) => item('a', s, i + 1)), 41);
    expect(trips.current).toMatchObject({ uid: 'a', done: true, last: 'unloading_departed' });
    expect(trips.next).toEqual({ step: 'loading_arrived', uid: null });
    expect(trips.finished).toBe(1);
    const second = tripsOf([...steps.map((s, i) => item('a', s, i + 1)), item('b', 'loading_arrived', 9)], 41);
    expect(second).toMatchObject({ current: { uid: 'b' }, next: { step: 'loading_departed', uid: 'b' }, finished: 1 });
  });

  it('offers the undo of the last stamp only within its window and before it was sent', () => {
    const trips = tripsOf([item('a', 'loading_arrived', 1_000, { state: 'waiting' })], 41);
    expect(undoable(trips.current, 5_000)?.step).toBe('loading_arrived');
    expect(undoable(trips.current, 11_000)).toBeNull();
    expect(undoable(tripsOf([item('a', 'loading_arrived', 1_000)], 41).current, 5_000)).toBeNull();
  });

  it('reads the company settings from the task, the defaults otherwise', () => {
    expect(tripSettingsOf({}).acceptance_mode).toBe('none');
    expect(tripSettingsOf({ trip_settings: { acceptance_mode: 'per_trip' } })).toMatchObject({ acceptance_mode: 'per_trip', geofence_dwell_seconds: 60 });
  });

  it('a corrected time keeps the day of the stamp and takes the typed hours and minutes', () => {
    const at = new Date(2026, 10, 28, 10, 42, 17).toISOString();
    expect(correctedTime(at, '10:35')).toBe(new Date(2026, 10, 28, 10, 35, 0).toISOString());
    expect(correctedTime(at, '1035')).toBeNull();
  });
});
