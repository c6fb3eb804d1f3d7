/**
 * The engine's end of the live change feed: one stream per browser of GET /api/events/, read with
 * fetch (EventSource cannot send the bearer header). Each event names an API path that changed; the engine
 * lists it as a write from elsewhere, so every open tab refetches what it shows of that area. `reset` (the
 * server could not replay what a reconnect missed) refetches everything on screen.
 *
 * One per browser: the stream is held under the Web Lock `event-stream` — in SharedWorker mode by the one
 * engine, in fallback mode by one tab's engine, which relays what it hears to the others over BroadcastChannel
 * (the engine does that); when that tab closes its lock is released and the next engine takes over.
 *
 * Reconnects with Last-Event-ID after 1 s, doubling to 8 s while it fails; at once when the network comes
 * back or the engine asks (a tab in front). A stream silent for 60 s (the server beats every 25 s) is dead:
 * dropped and opened again. A stream that opens is proof the server answers: the engine leaves offline mode.
 */
import type { Clock, Locks, NetworkStatus } from './ports.ts';
import { isStaffAlert, type StaffAlert } from '../contract/alerts.ts';

export const FEED_LOCK = 'event-stream';
const FIRST_RETRY_MS = 1_000;
/** The longest wait between attempts: a dispatcher sees the server back within this (plus a request). */
const MAX_RETRY_MS = 8_000;
const SILENCE_MS = 60_000;

/** One server-sent event (the text between two blank lines): its id, type and data (null: a comment only). */
export function parseEventBlock(block: string): { id: string | null; event: string; data: string | null } {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('id:')) id = line.slice(3).trim();
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  return { id, event, data: data.length > 0 ? data.join('\n') : null };
}

export type FeedFetch = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<Response>;

export interface FeedDeps {
  /** Absolute '/api/' URL. */
  baseURL: string;
  fetch: FeedFetch;
  clock: Clock;
  locks: Locks;
  network: NetworkStatus;
  accessToken(): Promise<string | null>;
  /** The shared refresh after a 401; answers the new token or null. */
  refreshAccess(failedToken: string | null): Promise<string | null>;
  signedIn(): boolean;
  onChange(path: string, method?: string): void;
  /** An alert for the dispatcher (contract/alerts.ts): not a change, nothing to refetch. */
  onAlert?(alert: StaffAlert): void;
  onReset(): void;
  onOpen(): void;
  /** The stream's state changed: open, or down (a failed attempt, or an open stream that ended). */
  onState?(connected: boolean): void;
}

export interface Feed {
  /** Re-reads the conditions (signed in, online) and reconnects now if it was waiting. */
  nudge(): void;
  stop(): void;
  /** Whether this engine holds the browser's stream and it is open (for tests and the snapshot). */
  connected(): boolean;
}

export function createFeed(deps: FeedDeps): Feed {
  const { clock } = deps;
  let stopped = false;
  let open = false;
  let lastId: string | null = null;
  let current: AbortController | null = null;
  let wakeUp: (() => void) | null = null;
  let retryMs = FIRST_RETRY_MS;

  /** Waits `ms`, or less if nudged. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = clock.setTimeout(() => {
        wakeUp = null;
        resolve();
      }, ms);
      wakeUp = () => {
        clock.clearTimeout(timer);
        wakeUp = null;
        resolve();
      };
    });
  }

  function dispatch(block: string): void {
    const parsed = parseEventBlock(block);
    if (parsed.id !== null) lastId = parsed.id;
    if (parsed.event === 'reset') deps.onReset();
    if (parsed.event === 'alert' && parsed.data !== null) {
      try {
        const alert: unknown = JSON.parse(parsed.data);
        if (isStaffAlert(alert)) deps.onAlert?.(alert);
      } catch {
        // Not ours: ignored.
      }
      return;
    }
    if (parsed.event !== 'message' || parsed.data === null) return;
    try {
      const { path, method } = JSON.parse(parsed.data) as { path?: unknown; method?: unknown };
      if (typeof path === 'string') deps.onChange(path, typeof method === 'string' ? method : undefined);
    } catch {
      // Not ours: ignored.
    }
  }

  /** One connection, read to its end; answers whether it opened. */
  async function connectOnce(): Promise<boolean> {
    const abort = new AbortController();
    current = abort;
    let token = await deps.accessToken();
    const headers = (t: string | null): Record<string, string> => ({
      accept: 'text/event-stream',
      ...(t ? { authorization: `Bearer ${t}` } : {}),
      ...(lastId ? { 'last-event-id': lastId } : {}),
    });
    let res = await deps.fetch(`${deps.baseURL}events/`, { headers: headers(token), signal: abort.signal });
    if (res.status === 401) {
      await res.body?.cancel().catch(() => undefined);
      token = await deps.refreshAccess(token);
      if (!token) return false;
      res = await deps.fetch(`${deps.baseURL}events/`, { headers: headers(token), signal: abort.signal });
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      return false;
    }
    open = true;
    retryMs = FIRST_RETRY_MS;
    deps.onOpen();
    deps.onState?.(true);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let silence = clock.setTimeout(() => abort.abort(), SILENCE_MS);
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        clock.clearTimeout(silence);
        silence = clock.setTimeout(() => abort.abort(), SILENCE_MS);
        buffer += value.replace(/\r\n/g, '\n');
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          dispatch(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } finally {
      clock.clearTimeout(silence);
      open = false;
      reader.releaseLock();
    }
    return true;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      if (!deps.signedIn() || !deps.network.online()) {
        await pause(MAX_RETRY_MS);
        continue;
      }
      let opened = false;
      try {
        opened = await connectOnce();
      } catch {
        // A dead network, an abort, a server gone mid-stream: try again below.
      }
      current = null;
      if (stopped) break;
      deps.onState?.(false);
      // A stream that ran and ended (a restart, a token's end) comes back soon; failures back off.
      await pause(opened ? FIRST_RETRY_MS : retryMs);
      if (!opened) retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    }
  }

  const unsubscribe = deps.network.subscribe(() => feed.nudge());
  void deps.locks.request(FEED_LOCK, loop).catch((error: unknown) => console.warn('change feed stopped', error));

  const feed: Feed = {
    nudge() {
      if (current && !deps.signedIn()) current.abort();
      if (!open) retryMs = FIRST_RETRY_MS;
      wakeUp?.();
    },
    stop() {
      stopped = true;
      unsubscribe();
      current?.abort();
      wakeUp?.();
    },
    connected: () => open,
  };
  return feed;
}
