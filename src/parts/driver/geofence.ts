/**
 * Automatic stamps from watched positions (issue 32), pure: a sequence of position fixes and the trip's next step
 * give the stamps the phone makes by itself. Entering the place's radius and staying `dwellSeconds` stamps the
 * arrival (at the time of entry); leaving the radius for sure (farther than the radius plus the fix's accuracy)
 * stamps the departure (at the last fix inside). Fixes too vague for the place (accuracy over twice its radius) say
 * nothing either way; a gap with no fixes longer than the dwell (the page was hidden) starts the dwell again.
 */
import { distanceMeters } from '../../../contract/geo.ts';
import type { Position, TripStep } from '../../../contract/trips.ts';

export interface Fix extends Position {
  /** epoch ms */
  at: number;
}

export interface Fence {
  lat: number;
  lon: number;
  radius_m: number;
}

export interface AutoStamp {
  step: TripStep;
  at: number;
  position: Position;
}

/** What the watcher carries from one fix to the next. */
export interface GeofenceState {
  /** The first fix of the current stay inside the next step's place, or null. */
  enteredWith: Fix | null;
  /** The last fix inside the place being left (departure steps), or null. */
  lastInside: Fix | null;
  lastFixAt: number | null;
}

export const INITIAL_GEOFENCE: GeofenceState = { enteredWith: null, lastInside: null, lastFixAt: null };

/** Which place a step is stamped at, and whether it is an arrival there. */
export function fenceOfStep(step: TripStep, places: { loading: Fence | null; unloading: Fence | null }): { fence: Fence | null; arrival: boolean } {
  switch (step) {
    case 'loading_arrived':
      return { fence: places.loading, arrival: true };
    case 'loading_departed':
      return { fence: places.loading, arrival: false };
    case 'unloading_arrived':
      return { fence: places.unloading, arrival: true };
    case 'unloading_departed':
      return { fence: places.unloading, arrival: false };
  }
}

const position = ({ lat, lon, accuracy }: Fix): Position => ({ lat, lon, accuracy });

/**
 * One fix: the new state and, when it completes one, the automatic stamp of `step` (the trip's next step). After a
 * stamp the caller moves to the following step and starts from INITIAL_GEOFENCE.
 */
export function advanceGeofence(
  state: GeofenceState,
  fix: Fix,
  step: TripStep,
  places: { loading: Fence | null; unloading: Fence | null },
  dwellSeconds: number,
): { state: GeofenceState; stamp: AutoStamp | null } {
  const { fence, arrival } = fenceOfStep(step, places);
  if (!fence) return { state: { ...state, lastFixAt: fix.at }, stamp: null };
  const distance = distanceMeters(fix, fence);
  const vague = fix.accuracy > fence.radius_m * 2;
  const inside = !vague && distance <= fence.radius_m;
  const surelyOutside = distance > fence.radius_m + fix.accuracy;
  const gap = state.lastFixAt !== null && fix.at - state.lastFixAt > dwellSeconds * 1000;

  if (arrival) {
    if (vague) return { state: { ...state, lastFixAt: fix.at }, stamp: null };
    if (!inside) return { state: { ...INITIAL_GEOFENCE, lastFixAt: fix.at }, stamp: null };
    const enteredWith = state.enteredWith && !gap ? state.enteredWith : fix;
    if (fix.at - enteredWith.at >= dwellSeconds * 1000) {
      return { state: INITIAL_GEOFENCE, stamp: { step, at: enteredWith.at, position: position(enteredWith) } };
    }
    return { state: { enteredWith, lastInside: fix, lastFixAt: fix.at }, stamp: null };
  }
  if (inside) return { state: { ...state, lastInside: fix, lastFixAt: fix.at }, stamp: null };
  if (surelyOutside && !vague && state.lastInside) {
    return { state: INITIAL_GEOFENCE, stamp: { step, at: state.lastInside.at, position: position(state.lastInside) } };
  }
  return { state: { ...state, lastFixAt: fix.at }, stamp: null };
}

/**
 * A stay inside an arrival's place with no fix since (a phone standing still may be given no new position): the fix
 * that stands for «still here» when the dwell is over — the last fix inside, at the entry's time plus the dwell —,
 * or null when no stay is under way. Fed to advanceGeofence at its time, it stamps the arrival at the entry.
 */
export function dwellDue(state: GeofenceState, dwellSeconds: number): Fix | null {
  if (!state.enteredWith || !state.lastInside) return null;
  return { ...state.lastInside, at: state.enteredWith.at + dwellSeconds * 1000 };
}

/** A whole sequence (tests, and a replay): the stamps it makes, each moving to the following step. */
export function stampsOf(fixes: readonly Fix[], from: TripStep, places: { loading: Fence | null; unloading: Fence | null }, dwellSeconds: number, next: (step: TripStep) => TripStep | null): AutoStamp[] {
  const stamps: AutoStamp[] = [];
  let step: TripStep | null = from;
  let state = INITIAL_GEOFENCE;
  for (const fix of fixes) {
    if (step === null) break;
    const result = advanceGeofence(state, fix, step, places, dwellSeconds);
    state = result.state;
    if (result.stamp) {
      stamps.push(result.stamp);
      step = next(step);
    }
  }
  return stamps;
}
