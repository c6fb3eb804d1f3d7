/**
 * The real browser primitives behind worker/ports.ts, and the start-up shared by both entries
 * (shared.ts, dedicated.ts). Only the entries import this file; everything else takes ports.
 */
import type { ClientErrorReport, Snapshot, WorkerApi } from './api.ts';
import { createEngine, type EngineDeps } from './engine.ts';
import { openEngineStore } from './idb-store.ts';
import { loadImageLibraries } from './images.ts';
import { createOutbox } from './outbox.ts';
import { browserClock, createLocalLocks, type Channel, type Locks, type NetworkStatus } from './ports.ts';

export function browserLocks(scope: WorkerGlobalScope): Locks {
  const locks = scope.navigator.locks as LockManager | undefined;
  if (!locks) return createLocalLocks();
  return { request: (name, fn) => locks.request(name, fn) as Promise<never> };
}

export function broadcastChannel<M>(name: string): Channel<M> | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(name);
  return {
    postMessage: (message) => channel.postMessage(message),
    subscribe(listener) {
      const handler = (event: MessageEvent) => listener(event.data as M);
      channel.addEventListener('message', handler);
      return () => channel.removeEventListener('message', handler);
    },
  };
}

/** Network Information API: in Chromium's workers too, not in the WebWorker lib types. */
interface Connection extends EventTarget {
  effectiveType?: string;
}

export function workerNetwork(scope: WorkerGlobalScope): NetworkStatus {
  const connection = (scope.navigator as WorkerNavigator & { connection?: Connection }).connection;
  const hinted = new Set<() => void>();
  return {
    online: () => scope.navigator.onLine,
    effectiveType: () => connection?.effectiveType ?? null,
    notify: () => hinted.forEach((listener) => listener()),
    subscribe(listener) {
      hinted.add(listener);
      scope.addEventListener('online', listener);
      scope.addEventListener('offline', listener);
      connection?.addEventListener('change', listener);
      return () => {
        hinted.delete(listener);
        scope.removeEventListener('online', listener);
        scope.removeEventListener('offline', listener);
        connection?.removeEventListener('change', listener);
      };
    },
  };
}

/** The worker's own uncaught errors go where the tabs' go (docs/product.md §7, "Client errors"). */
export function installErrorReporting(scope: WorkerGlobalScope, report: (error: ClientErrorReport) => Promise<void>): void {
  const send = (message: string, stack: string | null, source: string | null, lineno: number | null, colno: number | null) => {
    const body: ClientErrorReport = {
      message,
      stack,
      source,
      lineno,
      colno,
      userAgent: scope.navigator.userAgent,
      url: scope.location.href,
      time: new Date().toISOString(),
    };
    report(body).catch(() => undefined);
  };
  scope.addEventListener('error', (event: ErrorEvent) => {
    const error: unknown = event.error;
    send(event.message || String(error), error instanceof Error ? (error.stack ?? null) : null, event.filename || null, event.lineno ?? null, event.colno ?? null);
  });
  scope.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    const message = reason instanceof Error ? reason.message : String(reason);
    send(`Unhandled rejection: ${message}`, reason instanceof Error ? (reason.stack ?? null) : null, null, null, null);
  });
}

/** Opens the database and builds the engine with the real primitives of `scope`. */
export async function startEngine(
  scope: WorkerGlobalScope,
  mode: Snapshot['mode'],
  extra: Pick<EngineDeps, 'channel' | 'outbox'> = {},
): Promise<WorkerApi> {
  // The photo libraries now, not on the first photo: that one may come with the server down (images.ts).
  loadImageLibraries().catch((error: unknown) => console.warn('photo compression did not load', error));
  const store = await openEngineStore();
  const engine = createEngine({
    mode,
    store,
    baseURL: new URL('/api/', scope.location.origin).href,
    clock: browserClock,
    locks: browserLocks(scope),
    network: workerNetwork(scope),
    outbox: createOutbox,
    feedFetch: (url, init) => scope.fetch(url, init),
    ...extra,
  });
  installErrorReporting(scope, (error) => engine.api.logClientError(error));
  return engine.api;
}

/** An API that answers as soon as the engine is ready; Comlink is exposed before the database opens. */
export function deferredApi(ready: Promise<WorkerApi>): WorkerApi {
  ready.catch((error: unknown) => console.error('engine failed to start', error));
  return {
    connect: async (tab, onSnapshot) => (await ready).connect(tab, onSnapshot),
    logClientError: async (error) => (await ready).logClientError(error),
    networkChanged: async () => (await ready).networkChanged(),
    tabFocused: async (tab) => (await ready).tabFocused(tab),
    alertsSeen: async (path) => (await ready).alertsSeen(path),
    wake: async () => (await ready).wake(),
    startup: async () => (await ready).startup(),
    login: async (username, password, push) => (await ready).login(username, password, push),
    register: async (payload) => (await ready).register(payload),
    logout: async () => (await ready).logout(),
    fetchProfile: async () => (await ready).fetchProfile(),
    get: async (path, params) => (await ready).get(path, params),
    send: async (method, path, body, params) => (await ready).send(method, path, body, params),
    sendForm: async (method, path, fields, files, fileField) => (await ready).sendForm(method, path, fields, files, fileField),
    download: async (path, params) => (await ready).download(path, params),
    queueReport: async (report) => (await ready).queueReport(report),
    queueTripStep: async (step) => (await ready).queueTripStep(step),
    queueShiftAcceptance: async (input) => (await ready).queueShiftAcceptance(input),
    undoTripStep: async (uid, step) => (await ready).undoTripStep(uid, step),
    queueOdometer: async (reading) => (await ready).queueOdometer(reading),
    correctTripStep: async (uid, step, at) => (await ready).correctTripStep(uid, step, at),
    placeTripStep: async (uid, step, position) => (await ready).placeTripStep(uid, step, position),
    flushNow: async () => (await ready).flushNow(),
    discard: async (id) => (await ready).discard(id),
    resend: async (id) => (await ready).resend(id),
    compressPreview: async (photo) => (await ready).compressPreview(photo),
    outboxPhoto: async (id) => (await ready).outboxPhoto(id),
  };
}
