/**
 * The driver's current trip as the phone knows it (pure): read from the engine's outbox snapshot, where every
 * tapped step stays (sent or not) until its task leaves the driver's list (worker/trip-steps.ts). So the card shows
 * the next step offline, after a reload and after a dead battery, with nothing kept in the tab. A trip the server
 * holds unfinished that this phone never stamped (the driver changed phones, or its storage was cleared) comes from
 * the task's `open_trip` and is carried on rather than a new one started.
 */
import { DEFAULT_TRIP_SETTINGS, nextStep, TRIP_STEPS, type TripSettings, type TripStep } from '../../../contract/trips.ts';
import type { OpenTrip } from '../../../contract/entities.ts';
import type { OutboxItemState, OutboxItemView, OutboxTripStepView } from '../../engine/types.ts';

export interface StampView extends OutboxTripStepView {
  /** The outbox item's state: waiting, sending, sent, ... */
  state: OutboxItemState;
}

export interface TripView {
  uid: string;
  stamps: Partial<Record<TripStep, StampView>>;
  /** The last step stamped. */
  last: TripStep;
  /** All four steps are stamped. */
  done: boolean;
}

export interface AssociationTrips {
  /** The latest trip (finished or running), or null before the first tap. */
  current: TripView | null;
  /** The step the big button stamps, and the trip it belongs to (null: it starts a new trip). */
  next: { step: TripStep; uid: string | null };
  /** Trips of this task on the phone, finished ones. */
  finished: number;
}

export function tripsOf(items: readonly OutboxItemView[], associationId: number, open: OpenTrip | null = null): AssociationTrips {
  const trips = new Map<string, TripView>();
  for (const item of [...items].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id)) {
    const step = item.trip;
    if (!step || item.association_id !== associationId) continue;
    const trip = trips.get(step.uid) ?? { uid: step.uid, stamps: {}, last: step.step, done: false };
    trip.stamps[step.step] = { ...step, state: item.state };
    trips.set(step.uid, trip);
  }
  const fromServer = open && !trips.has(open.uid) ? serverTrip(open) : null;
  if (fromServer) {
    // Carried on only when it is later than anything this phone stamped on the task (an older one was left behind).
    const latestHere = Math.max(-Infinity, ...[...trips.values()].flatMap((t) => Object.values(t.stamps).map((s) => Date.parse(s.at))));
    const latestThere = Math.max(...Object.values(fromServer.stamps).map((s) => Date.parse(s.at)));
    if (latestThere > latestHere) trips.set(fromServer.uid, fromServer);
  }
  for (const trip of trips.values()) {
    const stamped = TRIP_STEPS.filter((s) => trip.stamps[s]);
    trip.last = stamped.at(-1) ?? 'loading_arrived';
    trip.done = nextStep(trip.last) === null;
  }
  const all = [...trips.values()];
  const current = all.at(-1) ?? null;
  const following = current ? nextStep(current.last) : null;
  return {
    current,
    next: current && following ? { step: following, uid: current.uid } : { step: 'loading_arrived', uid: null },
    finished: all.filter((t) => t.done).length,
  };
}

/** A trip the server holds unfinished, as stamps already sent (its times are the server's record of them). */
function serverTrip(open: OpenTrip): TripView | null {
  const stamps: Partial<Record<TripStep, StampView>> = {};
  for (const step of TRIP_STEPS) {
    const at = open.stamps[step];
    if (at) stamps[step] = { uid: open.uid, step, at, source: 'tap', position: null, holdUntil: null, acceptance: null, state: 'sent' };
  }
  return Object.keys(stamps).length > 0 ? { uid: open.uid, stamps, last: 'loading_arrived', done: false } : null;
}

/** The latest stamp that can still be taken back, with its step; null when none. */
export function undoable(trip: TripView | null, now: number): StampView | null {
  const stamp = trip ? trip.stamps[trip.last] : undefined;
  return stamp && stamp.holdUntil !== null && stamp.holdUntil > now && stamp.state !== 'sent' ? stamp : null;
}

/**
 * The company's trip settings as the driver's task carries them (`trip_settings`, when the server sends it);
 * the contract's defaults otherwise (no signature asked).
 */
export function tripSettingsOf(task: object): TripSettings {
  const given = (task as { trip_settings?: Partial<TripSettings> | null }).trip_settings;
  return { ...DEFAULT_TRIP_SETTINGS, ...(given ?? {}) };
}

/** The stamp's time moved to `hhmm` on the same day (the device's local time), ISO. */
export function correctedTime(at: string, hhmm: string): string | null {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) return null;
  const date = new Date(Date.parse(at));
  date.setHours(Number(match[1]), Number(match[2]), 0, 0);
  return date.toISOString();
}

/** A finished trip of the day as the per-shift acceptance lists it. */
export interface ShiftTrip {
  uid: string;
  association_id: number;
  /** Its last step's time («Выгружен»), ISO. */
  unloadedAt: string;
  /** Signed for (or the refusal recorded) once for the shift: the acceptance's outbox state; null while not. */
  accepted: OutboxItemState | null;
}

/**
 * The day's finished trips the phone knows (their last step stamped on `day`'s local date) without an acceptance
 * of their own, oldest first: those a per-shift acceptance already lists carry its state (worker/shift-acceptance.ts
 * keeps them and it on the phone for the day, also after their task ended).
 */
export function shiftTrips(items: readonly OutboxItemView[], day: Date): ShiftTrip[] {
  const sameDay = (iso: string) => new Date(Date.parse(iso)).toDateString() === day.toDateString();
  const acceptedBy = new Map<string, OutboxItemState>();
  for (const item of items) for (const uid of item.shiftAcceptance?.trip_uids ?? []) acceptedBy.set(uid, item.state);
  return items
    .filter((item) => item.trip?.step === 'unloading_departed' && item.trip.acceptance === null && sameDay(item.trip.at))
    .map((item) => {
      const trip = item.trip as OutboxTripStepView;
      return { uid: trip.uid, association_id: item.association_id, unloadedAt: trip.at, accepted: acceptedBy.get(trip.uid) ?? null };
    })
    .sort((a, b) => Date.parse(a.unloadedAt) - Date.parse(b.unloadedAt));
}
