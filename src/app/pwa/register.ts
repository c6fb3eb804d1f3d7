/**
 * Registers the service worker (production builds only: the dev server has none) and publishes whether a
 * new version is ready, for UpdatePrompt. Periodic and one-off background sync are Chromium features:
 * where they are missing or refused, nothing else changes.
 */
import { proxy } from 'valtio';
import { Workbox } from 'workbox-window';
import { applyUpdate as applyUpdateTo, watchForUpdate } from './update-watch.ts';

/** The tag sw/sw.ts listens for (docs/product.md §9). */
const SYNC_TAG = 'sync-tasks';
const PERIODIC_MIN_INTERVAL_MS = 15 * 60 * 1000;
/** Dispatchers keep one tab open all day; the browser alone would look for a new version only on navigations. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export const pwaState = proxy({ updateReady: false });

let registration: ServiceWorkerRegistration | null = null;

interface SyncManagerLike {
  register(tag: string, options?: { minInterval: number }): Promise<void>;
}
type SyncCapable = ServiceWorkerRegistration & { periodicSync?: SyncManagerLike; sync?: SyncManagerLike };

async function registerPeriodicSync(reg: SyncCapable): Promise<void> {
  if (!('periodicSync' in reg) || !reg.periodicSync) return;
  try {
    await reg.periodicSync.register(SYNC_TAG, { minInterval: PERIODIC_MIN_INTERVAL_MS });
  } catch {
    // Refused unless the app is installed and the browser grants the permission: the tabs' own sync remains.
  }
}

function checkForUpdatesPeriodically(reg: ServiceWorkerRegistration): void {
  setInterval(() => {
    if (document.visibilityState !== 'visible' || !navigator.onLine) return;
    reg.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
}

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || registration) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  workbox
    .register()
    .then(async (reg) => {
      if (!reg) return;
      registration = reg;
      watchForUpdate(reg, navigator.serviceWorker, () => {
        pwaState.updateReady = true;
      });
      checkForUpdatesPeriodically(reg);
      await registerPeriodicSync(reg);
    })
    .catch((error: unknown) => console.warn('service worker registration failed', error));
}

/** Switches to the new version: the waiting worker takes over, then the page reloads. */
export function applyUpdate(): void {
  if (!('serviceWorker' in navigator)) {
    window.location.reload();
    return;
  }
  applyUpdateTo(registration, navigator.serviceWorker, () => window.location.reload());
}

/** Asks for a one-off 'sync-tasks' event, e.g. after a report was queued offline; false where unsupported. */
export async function requestBackgroundSync(): Promise<boolean> {
  const reg = registration as SyncCapable | null;
  if (!reg?.sync) return false;
  try {
    await reg.sync.register(SYNC_TAG);
    return true;
  } catch {
    return false;
  }
}
