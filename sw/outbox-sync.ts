/**
 * The service worker's share of the report outbox: on 'sync' / 'periodicsync' ('sync-tasks') it sends every
 * unsent item, with the same outbox code the engines run (worker/outbox.ts), under the same 'outbox-flush' Web
 * Lock, so it can never send an item a tab's engine is sending. The engine reads each item again after the lock
 * is granted and skips what is sent.
 *
 * It never refreshes tokens (the engine owns refresh and rotation): a 401 is treated like a network error, so
 * it does not count as an attempt; the item waits for a tab, or for the next sync after the engine refreshed.
 */
import { CHANNEL_NAME, type CrossTabMessage } from '../worker/cross-tab.ts';
import { associationIdsOf } from '../worker/assigned-ids.ts';
import { DB_NAME, KV, openEngineDb, type EngineDb, type OpenEvents, type OutboxRecord } from '../worker/db.ts';
import { createIdbStore } from '../worker/idb-store.ts';
import { createOutbox, type SendResult } from '../worker/outbox.ts';
import { browserClock, type Locks } from '../worker/ports.ts';
import type { EngineStore } from '../worker/store.ts';
import { IDEMPOTENCY_HEADER } from '../worker/report-form.ts';
import { answeredId, outboxRequest } from '../worker/trip-form.ts';
import { SERVER_UNREACHABLE, serverUnreachable } from '../worker/unreachable.ts';
import { ASSIGNED_PATH, readClaims } from './background-sync.ts';

/** docs/product.md §9: API time-out 10 s (the engine's axios uses the same for uploads). */
const FETCH_TIMEOUT_MS = 10_000;

export type OutboxSyncOutcome = 'flushed' | 'no-locks' | 'offline' | 'no-token' | 'not-driver' | 'expired' | 'failed';

export interface OutboxSyncDeps {
  openDb: (events?: OpenEvents) => Promise<EngineDb>;
  fetch: typeof fetch;
  /** Where the API lives, without a trailing slash. */
  apiBase: string;
  now: () => number;
  online: () => boolean;
  /** navigator.locks; null where there is none: then only the tabs' engines flush (no exclusion, no send). */
  locks: Locks | null;
  /** Tells the driver about an item given up after 10 refusals (a notification, where permitted). */
  notify: (message: string) => void;
  /** Tells the engines that the queue changed in IndexedDB, so their outbox views re-read it. */
  announce: () => void;
}

function defaults(): OutboxSyncDeps {
  const locks = typeof navigator !== 'undefined' ? (navigator.locks as LockManager | undefined) : undefined;
  return {
    openDb: (events) => openEngineDb(DB_NAME, events),
    fetch: (input, init) => fetch(input, init),
    apiBase: '/api',
    now: () => Date.now(),
    online: () => typeof navigator === 'undefined' || navigator.onLine,
    locks: locks ? { request: (name, fn) => locks.request(name, fn) as Promise<never> } : null,
    // Open tabs show it (their engines relay it); with none open it is only logged.
    notify: (message) => {
      console.warn(message);
      post({ type: 'notice', message });
    },
    announce: () => post({ type: 'outbox' }),
  };
}

const SIGNED_OUT: SendResult = { ok: false, network: true, status: null, message: 'Сессия сменилась' };

/** The server's detail, if the body is `{"detail": "..."}`. */
/** Tells the open tabs' engines (a notice, a changed queue); nobody hears it when no tab is open. */
export function post(message: CrossTabMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.postMessage(message);
  channel.close();
}

async function detailOf(response: Response): Promise<string | null> {
  try {
    const body: unknown = await response.json();
    const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
    return typeof detail === 'string' && detail.trim() !== '' ? detail : null;
  } catch {
    return null;
  }
}

/** Never throws (a background event gains nothing from a rejection); the answer says what happened. */
export async function runOutboxSync(overrides: Partial<OutboxSyncDeps> = {}): Promise<OutboxSyncOutcome> {
  const deps = { ...defaults(), ...overrides };
  const locks = deps.locks;
  if (!locks) return 'no-locks';
  if (!deps.online()) return 'offline';
  let store: EngineStore | null = null;
  try {
    // One connection for the flush (the outbox reads and writes between requests), opened again if it is lost.
    const open = createIdbStore(DB_NAME, (_name, events) => deps.openDb(events));
    store = open;
    const token = await open.kv.get(KV.token);
    if (typeof token !== 'string' || token === '') return 'no-token';
    const claims = readClaims(token);
    const userId = Number(claims?.sub);
    if (!claims || !Number.isInteger(userId)) return 'no-token';
    if (claims.role !== undefined && claims.role !== 'driver') return 'not-driver';
    // An expired token would only earn 401s; the engine refreshes it when the app opens.
    if (claims.exp !== undefined && claims.exp * 1000 <= deps.now()) return 'expired';

    /** The token as stored now (the engine may have rotated it); null when another user signed in or out. */
    async function currentToken(): Promise<string | null> {
      const stored = await open.kv.get(KV.token);
      if (typeof stored !== 'string' || stored === '') return null;
      return Number(readClaims(stored)?.sub) === userId ? stored : null;
    }

    async function sendReport(record: OutboxRecord, photos: Blob[]): Promise<SendResult> {
      const bearer = await currentToken();
      if (!bearer) return SIGNED_OUT;
      let response: Response;
      // A report's POST /reports/, or a trip step's PUT /trips/{uid}/steps/{step} (worker/trip-form.ts).
      const request = outboxRequest(record, photos);
      try {
        response = await deps.fetch(`${deps.apiBase}/${request.path}`, {
          method: request.method,
          headers: { authorization: `Bearer ${bearer}`, accept: 'application/json', [IDEMPOTENCY_HEADER]: record.idempotencyKey },
          body: request.form,
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, network: true, status: null, message: String(error) };
      }
      if (response.status === 401) return { ok: false, network: true, status: 401, message: 'Требуется вход' };
      if (response.ok) {
        // The server stored it (201, or 200 for a repeated key); an unreadable body changes nothing.
        const body: unknown = await response.json().catch(() => null);
        return { ok: true, data: { id: answeredId(body) } };
      }
      const detail = await detailOf(response);
      // A busy or unreachable server (503 during a restart, a proxy's 502 page) did not refuse it: not an attempt.
      const unreachable = serverUnreachable(response.status, detail !== null);
      const message = detail ?? (unreachable ? SERVER_UNREACHABLE : `Ошибка сервера (код ${response.status})`);
      return { ok: false, network: false, unreachable, status: response.status, message };
    }

    async function assignedAssociationIds(): Promise<number[] | null> {
      const bearer = await currentToken();
      if (!bearer) return null;
      try {
        const response = await deps.fetch(`${deps.apiBase}/${ASSIGNED_PATH}`, {
          headers: { authorization: `Bearer ${bearer}`, accept: 'application/json' },
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
        return response.ok ? associationIdsOf(await response.json()) : null;
      } catch {
        return null;
      }
    }

    const outbox = createOutbox({
      store: open.outbox,
      clock: { ...browserClock, now: deps.now },
      isOnline: deps.online,
      userId: () => userId,
      locks,
      sendReport,
      assignedAssociationIds,
      onChange: () => undefined,
      notify: deps.notify,
      // The service worker only sends what the engines queued (already compressed there).
      compress: null,
      // A sync event is the moment to try: an item that failed a second ago is not held for its retry time.
      everythingDue: true,
    });
    const before = JSON.stringify(await open.outbox.all());
    await outbox.flush();
    if (JSON.stringify(await open.outbox.all()) !== before) deps.announce();
    return 'flushed';
  } catch (error) {
    console.warn('outbox sync failed', error);
    return 'failed';
  } finally {
    store?.close();
  }
}
