/**
 * Automatic stamps while a trip runs and the app is open (issue 32): positions are watched only when the driver
 * has already allowed location (never asked for here), the screen is held awake (Screen Wake Lock) so the watch
 * goes on, and each fix goes through geofence.ts. An arrival is stamped by itself (source 'auto'); a departure
 * hands its time to the card, which opens the step's sheet with it (its facts are the driver's to type). A browser
 * gives a new fix only when the position changes (Chromium): a truck standing still inside the place gets no more,
 * so the dwell is completed on a timer (geofence.ts `dwellDue`) while the page is seen and the step unchanged.
 * Positions stay on the phone: only a stamp carries one.
 */
import { useEffect, useRef } from 'react';
import type { TripStep } from '../../../contract/trips.ts';
import { advanceGeofence, dwellDue, fenceOfStep, INITIAL_GEOFENCE, type AutoStamp, type Fence, type Fix } from './geofence.ts';

interface Options {
  /** Watch at all: a trip runs (or the task is under way) on this card. */
  active: boolean;
  next: TripStep;
  places: { loading: Fence | null; unloading: Fence | null };
  dwellSeconds: number;
  onStamp: (stamp: AutoStamp) => void;
}

async function locationAllowed(): Promise<boolean> {
  try {
    const status = await navigator.permissions.query({ name: 'geolocation' });
    return status.state === 'granted';
  } catch {
    return false;
  }
}

export function useTripWatch({ active, next, places, dwellSeconds, onStamp }: Options): void {
  const latest = useRef({ next, places, dwellSeconds, onStamp });
  // The watch reads the card's latest step and places, without starting again on every render.
  useEffect(() => {
    latest.current = { next, places, dwellSeconds, onStamp };
  });
  const state = useRef(INITIAL_GEOFENCE);
  const watchedStep = useRef<TripStep | null>(null);

  useEffect(() => {
    if (!active || !('geolocation' in navigator)) return;
    let watchId: number | null = null;
    let lock: WakeLockSentinel | null = null;
    let stopped = false;
    const holdScreen = async () => {
      if (stopped || document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return;
      try {
        lock = await navigator.wakeLock.request('screen');
      } catch {
        // Refused (battery saver, no permission): the watch still goes on while the screen is on.
      }
    };
    let dwellTimer: ReturnType<typeof setTimeout> | undefined;
    const apply = (fix: Fix) => {
      const { next: step, places: fences, dwellSeconds: dwell, onStamp: stamp } = latest.current;
      if (watchedStep.current !== step) {
        watchedStep.current = step;
        state.current = INITIAL_GEOFENCE;
      }
      const result = advanceGeofence(state.current, fix, step, fences, dwell);
      state.current = result.state;
      if (result.stamp) stamp(result.stamp);
      clearTimeout(dwellTimer);
      const due = fenceOfStep(step, fences).arrival ? dwellDue(result.state, dwell) : null;
      if (due) {
        dwellTimer = setTimeout(() => {
          if (!stopped && document.visibilityState === 'visible' && latest.current.next === step) apply(due);
        }, Math.max(0, due.at - Date.now()));
      }
    };
    // The browser lets the lock go when the page is hidden: taken again when it is shown.
    const onVisible = () => void holdScreen();
    void locationAllowed().then((allowed) => {
      if (!allowed || stopped) return;
      void holdScreen();
      document.addEventListener('visibilitychange', onVisible);
      watchId = navigator.geolocation.watchPosition(
        ({ coords, timestamp }) => apply({ lat: coords.latitude, lon: coords.longitude, accuracy: Math.min(100_000, coords.accuracy), at: timestamp }),
        () => undefined,
        { enableHighAccuracy: true, maximumAge: 10_000 },
      );
    });
    return () => {
      stopped = true;
      clearTimeout(dwellTimer);
      if (watchId !== null) navigator.geolocation.clearWatch(watchId);
      document.removeEventListener('visibilitychange', onVisible);
      void lock?.release().catch(() => undefined);
    };
  }, [active]);
}
