/**
 * The service worker (vite-plugin-pwa, injectManifest): the app-shell precache, offline navigations,
 * the update handshake, background sync (the report outbox, then the driver's tasks), push notifications.
 * It never caches /api/ answers: the engine owns the data cache in IndexedDB.
 */
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { runBackgroundSync } from './background-sync.ts';
import { isAppNavigation, networkFirstNavigation } from './navigation.ts';
import { post, runOutboxSync } from './outbox-sync.ts';
import { focusOrOpen, notificationUrl, NOTIFICATION_TITLE, readPush } from './push.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

/** Background Sync and Periodic Background Sync events: Chromium only, absent from TypeScript's lib. */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}
declare global {
  interface ServiceWorkerGlobalScopeEventMap {
    sync: SyncEvent;
    periodicsync: SyncEvent;
  }
}

/** docs/product.md §9; register.ts registers the periodic sync under the same name. */
const SYNC_TAG = 'sync-tasks';
const SHELL_URL = '/index.html';
const ICON = '/icons/icon-192.png';

// Registered before the precache route on purpose: that route answers '/' from the cache (it maps '/' to
// index.html), and navigations must try the network first. Stopping propagation keeps the precache
// listener from answering the same event a second time.
self.addEventListener('fetch', (event) => {
  if (!isAppNavigation(event.request, self.location.origin)) return;
  event.stopImmediatePropagation();
  event.respondWith(
    networkFirstNavigation({
      network: async () => ((await event.preloadResponse) as Response | undefined) ?? fetch(event.request),
      shell: () => matchPrecache(SHELL_URL),
    }),
  );
});

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

self.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING') {
    void self.skipWaiting();
  }
});

self.addEventListener('activate', (event) => {
  // Navigation preload starts the page request while the worker boots, so network-first costs no extra wait.
  const preload = self.registration.navigationPreload?.enable().catch(() => undefined);
  event.waitUntil(Promise.all([self.clients.claim(), preload]));
});

/**
 * What the queue tells the driver (a report delivered after a wait, or given up after 10 refusals): the open
 * tabs show it as a toast (their engines hear it on the channel); with no tab open it becomes a notification,
 * so the driver hears it even with the app closed.
 */
async function showNotice(message: string): Promise<void> {
  post({ type: 'notice', message });
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  if (windows.length > 0) return;
  if (Notification.permission !== 'granted') {
    console.warn(message);
    return;
  }
  await self.registration
    .showNotification(NOTIFICATION_TITLE, { body: message, icon: ICON, badge: ICON, lang: 'ru', data: { url: '/current-tasks' } })
    .catch(() => undefined);
}

/** Reports first: the tasks fetched afterwards then already show the reported ones as done. */
async function syncAll(): Promise<void> {
  const shown: Promise<void>[] = [];
  await runOutboxSync({ notify: (message) => shown.push(showNotice(message)) });
  await Promise.all(shown);
  await runBackgroundSync();
}

function onSync(event: SyncEvent): void {
  if (event.tag === SYNC_TAG) event.waitUntil(syncAll());
}
self.addEventListener('periodicsync', onSync);
self.addEventListener('sync', onSync);

self.addEventListener('push', (event) => {
  const { body, url } = readPush(event.data);
  event.waitUntil(
    self.registration.showNotification(NOTIFICATION_TITLE, { body, icon: ICON, badge: ICON, lang: 'ru', data: { url } }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(notificationUrl(event.notification.data), self.location.origin).href;
  event.waitUntil(
    self.clients
      .matchAll({ type: 'window', includeUncontrolled: true })
      .then((windows) => focusOrOpen(target, windows, (url) => self.clients.openWindow(url))),
  );
});
