/**
 * Connects this tab to the engine (README.md, "Architecture"): a SharedWorker where the browser has one,
 * else a dedicated Worker running the same engine. The tab hands over what only it can know (device_id from
 * localStorage, the user agent), holds a Web Lock for its lifetime so the engine notices when it closes,
 * and feeds the engine's snapshots to the valtio store.
 */
import * as Comlink from 'comlink';
import { v4 as uuidv4 } from 'uuid';
import type { ClientErrorReport, EngineWrite, Snapshot, WorkerApi } from '../../worker/api.ts';
import { setEngine } from './engine.ts';
import { applySnapshot } from './store.ts';

const DEVICE_ID_KEY = 'device_id';

/** docs/product.md §3: a generated UUID that persists in local storage. */
export function deviceId(): string {
  try {
    const stored = localStorage.getItem(DEVICE_ID_KEY);
    if (stored) return stored;
    const created = uuidv4();
    localStorage.setItem(DEVICE_ID_KEY, created);
    return created;
  } catch {
    // Storage blocked (private mode in some WebViews): a per-session id still lets the server tell devices apart.
    return uuidv4();
  }
}

function openWorker(): Comlink.Remote<WorkerApi> {
  if (typeof window.SharedWorker === 'function') {
    const worker = new SharedWorker(new URL('../../worker/shared.ts', import.meta.url), { type: 'module', name: 'reis-engine' });
    return Comlink.wrap<WorkerApi>(worker.port);
  }
  const worker = new Worker(new URL('../../worker/dedicated.ts', import.meta.url), { type: 'module' });
  return Comlink.wrap<WorkerApi>(worker);
}

/**
 * Holds a lock until the tab goes away; answers its name once granted ('' where Web Locks are missing).
 * The engine asks for the same name only after this tab holds it: a request from the worker that
 * reached the lock manager first would be granted at once and drop a living tab.
 */
function holdTabLock(): Promise<string> {
  if (!('locks' in navigator) || !navigator.locks) return Promise.resolve('');
  const name = `reis-tab-${uuidv4()}`;
  return new Promise((granted) => {
    void navigator.locks.request(name, () => {
      granted(name);
      return new Promise<never>(() => undefined);
    });
  });
}

const reconnectListeners = new Set<() => void>();
const noticeListeners = new Set<(message: string) => void>();
let lastReconnectedAt: number | null | undefined;
let lastNoticeId: number | null = null;
const writeListeners = new Set<(writes: EngineWrite[]) => void>();
let lastWriteSeq: number | null = null;

/** Writes newer than the last one this tab saw (none on the first snapshot: nothing here is stale yet). */
function newWrites(snapshot: Snapshot): EngineWrite[] {
  const writes = snapshot.writes ?? [];
  const newest = writes.at(-1)?.seq ?? 0;
  const since = lastWriteSeq;
  lastWriteSeq = newest;
  if (since === null) return [];
  // The engine's counter starts again when the SharedWorker restarts: then every write it lists is new.
  return writes.filter((write) => newest < since || write.seq > since);
}

function receive(snapshot: Snapshot): void {
  applySnapshot(snapshot);
  const reconnectedAt = snapshot.network.reconnectedAt ?? null;
  // The first snapshot only sets the baseline: this tab has nothing stale yet.
  if (lastReconnectedAt !== undefined && reconnectedAt !== lastReconnectedAt) reconnectListeners.forEach((listener) => listener());
  lastReconnectedAt = reconnectedAt;
  const written = newWrites(snapshot);
  if (written.length > 0) writeListeners.forEach((listener) => listener(written));
  const notices = snapshot.notices ?? [];
  if (lastNoticeId === null) {
    // Notices from before this tab connected were already told in the tabs that were open then.
    lastNoticeId = notices.at(-1)?.id ?? 0;
    return;
  }
  for (const notice of notices) {
    if (notice.id > lastNoticeId) noticeListeners.forEach((listener) => listener(notice.message));
  }
  lastNoticeId = Math.max(lastNoticeId, notices.at(-1)?.id ?? 0);
}

/** Called when the engine came back online or left offline mode: refetch what the tab shows. */
export function onReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Called with the writes made in any tab of this browser (or heard on the change feed) since the last snapshot. */
export function onWrites(listener: (writes: EngineWrite[]) => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/** Called with each new message the engine has for the user (e.g. a queued report refused for good). */
export function onEngineNotice(listener: (message: string) => void): () => void {
  noticeListeners.add(listener);
  return () => noticeListeners.delete(listener);
}

let connecting: Promise<Comlink.Remote<WorkerApi>> | null = null;
let thisTab: string | null = null;

/** This tab's name for the engine (its Web Lock): the alerts meant for it carry it. */
export function currentTabKey(): string | null {
  return thisTab;
}

/** Connects once per tab; later calls answer the same engine. */
export function connectEngine(): Promise<Comlink.Remote<WorkerApi>> {
  connecting ??= (async () => {
    const engine = openWorker();
    const lockName = await holdTabLock();
    await engine.connect(
      { deviceId: deviceId(), deviceInfo: navigator.userAgent, lockName },
      Comlink.proxy((snapshot: Snapshot) => receive(snapshot)),
    );
    setEngine(engine);
    // The end-to-end suite and the benchmarks drive the engine directly, as any script of this origin could.
    (globalThis as { __reisEngine?: unknown }).__reisEngine = engine;
    // Chromium does not always deliver 'online'/'offline' to a SharedWorker: the tabs pass them on.
    const networkChanged = () => void engine.networkChanged();
    window.addEventListener('online', networkChanged);
    window.addEventListener('offline', networkChanged);
    // docs/product.md §4: the report queue is flushed when the tab becomes visible (workers cannot see that).
    // Coming back to a tab also wakes the engine's server check in offline mode (flushNow does it first).
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void engine.flushNow();
    });
    window.addEventListener('focus', () => void engine.wake());
    // Alerts go to the tab the user last came to or worked in (worker/alerts.ts).
    thisTab = lockName;
    // A click or the window's focus always tells; typing tells at most every 2 s (a click came before it anyway).
    let toldAt = 0;
    const focused = () => {
      toldAt = Date.now();
      void engine.tabFocused(lockName);
    };
    if (document.hasFocus()) focused();
    window.addEventListener('focus', focused);
    document.addEventListener('pointerdown', focused, { capture: true, passive: true });
    document.addEventListener('keydown', () => Date.now() - toldAt > 2_000 && focused(), { capture: true, passive: true });
    return engine;
  })();
  return connecting;
}

function describe(value: unknown): { message: string; stack: string | null } {
  if (value instanceof Error) return { message: value.message || value.name, stack: value.stack ?? null };
  return { message: typeof value === 'string' ? value : JSON.stringify(value) ?? String(value), stack: null };
}

function report(fields: Pick<ClientErrorReport, 'message' | 'stack' | 'source' | 'lineno' | 'colno'>): void {
  const body: ClientErrorReport = {
    ...fields,
    userAgent: navigator.userAgent,
    url: location.href,
    time: new Date().toISOString(),
  };
  // Best effort: an error while reporting an error must not throw again.
  connectEngine()
    .then((engine) => engine.logClientError(body))
    .catch(() => undefined);
}

/** docs/product.md §8: uncaught errors and unhandled rejections of the tab are posted to the server. */
export function reportClientErrors(): void {
  window.addEventListener('error', (event) => {
    const { message, stack } = describe(event.error ?? event.message);
    report({ message: event.message || message, stack, source: event.filename || null, lineno: event.lineno ?? null, colno: event.colno ?? null });
  });
  window.addEventListener('unhandledrejection', (event) => {
    const { message, stack } = describe(event.reason);
    report({ message, stack, source: null, lineno: null, colno: null });
  });
}
