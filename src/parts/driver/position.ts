/**
 * One reading of the phone's position at a trip step (issue 32): only when the driver allowed it (the browser
 * asks him the first time), never in the background, never sent except with a step. A reading that does not
 * come in a few seconds is not waited for: the step goes without it.
 */
import type { Position } from '../../../contract/trips.ts';

/** How long a step waits for a position at most. */
export const POSITION_TIMEOUT_MS = 5_000;

export function readPosition(geolocation: Geolocation | undefined = globalThis.navigator?.geolocation): Promise<Position | null> {
  if (!geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    // A timer of our own too: some browsers never answer while their permission prompt stays open.
    const timer = setTimeout(() => resolve(null), POSITION_TIMEOUT_MS + 500);
    geolocation.getCurrentPosition(
      ({ coords }) => {
        clearTimeout(timer);
        resolve({ lat: coords.latitude, lon: coords.longitude, accuracy: Math.min(100_000, Math.max(0, coords.accuracy)) });
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
      { enableHighAccuracy: true, maximumAge: 30_000, timeout: POSITION_TIMEOUT_MS },
    );
  });
}
