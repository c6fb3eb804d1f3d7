/**
 * Test doubles for the engine's browser primitives (worker/ports.ts) and for the network (an axios
 * adapter that answers like a server, with a log of every request it saw).
 */
import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import type { Channel, Clock, NetworkStatus } from '../../worker/ports.ts';

export { createLocalLocks as createFifoLocks } from '../../worker/ports.ts';

/** A clock that moves only when the test says so. */
export function createManualClock(start = Date.UTC(2026, 10, 21, 9, 0, 0)) {
  let now = start;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void; every: number | null }>();
  const clock: Clock & { advance(ms: number): void; pending(): number; set(ms: number): void } = {
    now: () => now,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn, every: null });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id as number),
    setInterval(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn, every: ms });
      return id;
    },
    clearInterval: (id) => void timers.delete(id as number),
    /** Runs every timer due up to now + ms, in time order. */
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        const [id, timer] = due;
        now = timer.at;
        if (timer.every === null) timers.delete(id);
        else timer.at += timer.every;
        timer.fn();
      }
      now = target;
    },
    /** One-off timers waiting (intervals not counted). */
    pending: () => [...timers.values()].filter((t) => t.every === null).length,
    set(ms) {
      now = ms;
    },
  };
  return clock;
}

export function createNetwork(online = true, effectiveType: string | null = '4g') {
  const listeners = new Set<() => void>();
  const network: NetworkStatus & {
    setOnline(value: boolean): void;
    setType(value: string | null): void;
    /** Changes navigator.onLine without an event, as Chromium may do in a SharedWorker. */
    setOnlineSilently(value: boolean): void;
  } = {
    online: () => online,
    effectiveType: () => effectiveType,
    notify: () => listeners.forEach((listener) => listener()),
    setOnlineSilently(value) {
      online = value;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setOnline(value) {
      online = value;
      listeners.forEach((listener) => listener());
    },
    setType(value) {
      effectiveType = value;
      listeners.forEach((listener) => listener());
    },
  };
  return network;
}

/** BroadcastChannel double: every channel of one hub hears the others (never itself), asynchronously. */
export function createChannelHub<M>() {
  const members = new Set<Set<(message: M) => void>>();
  return {
    channel(): Channel<M> {
      const own = new Set<(message: M) => void>();
      members.add(own);
      return {
        postMessage(message) {
          const copy = structuredClone(message);
          for (const member of members) {
            if (member !== own) member.forEach((listener) => queueMicrotask(() => listener(copy)));
          }
        },
        subscribe(listener) {
          own.add(listener);
          return () => own.delete(listener);
        },
      };
    },
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string>;
  /** The raw axios config (e.g. to drive onUploadProgress). */
  config: InternalAxiosRequestConfig;
}

export type Reply = { status: number; data?: unknown; headers?: Record<string, string> };
export type Handler = (request: SeenRequest) => Reply | Promise<Reply>;

/** Makes the adapter fail as a browser would without a response (axios' own shape). */
export function networkFailure(code = 'ERR_NETWORK', message = 'Network Error'): Error {
  return new AxiosError(message, code);
}

/**
 * A server behind an axios adapter: routes 'METHOD path' → handler. A handler may throw
 * (networkFailure()) or answer a promise it resolves later. Unrouted requests answer 404.
 */
export function createFakeServer() {
  const routes = new Map<string, Handler>();
  const log: SeenRequest[] = [];
  const adapter: AxiosAdapter = async (config: InternalAxiosRequestConfig) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(AxiosHeaders.from(config.headers).toJSON())) {
      if (typeof value === 'string') headers[name.toLowerCase()] = value;
    }
    const request: SeenRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      path: config.url ?? '',
      params: (config.params ?? {}) as Record<string, unknown>,
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      headers,
      config,
    };
    log.push(request);
    const handler = routes.get(`${request.method} ${request.path}`);
    let reply: Reply;
    try {
      reply = handler ? await handler(request) : { status: 404, data: { detail: 'Не найдено' } };
    } catch (error) {
      if (error instanceof AxiosError) {
        error.config = config;
      }
      throw error;
    }
    const response: AxiosResponse = {
      data: reply.data ?? '',
      status: reply.status,
      statusText: String(reply.status),
      headers: new AxiosHeaders(reply.headers ?? {}),
      config,
      request: {},
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  return {
    adapter,
    log,
    on(route: string, handler: Handler) {
      routes.set(route, handler);
    },
    count: (route: string) => log.filter((r) => `${r.method} ${r.path}` === route).length,
  };
}

export type FakeServer = ReturnType<typeof createFakeServer>;

/** A promise the test resolves when it wants (a slow server). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT: the engine only reads `exp` (jwt-decode); the server is a double. */
export function makeJwt(expSeconds: number, sub = '7', nonce = ''): string {
  return `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub, exp: expSeconds, nonce })}.signature`;
}

/** Lets pending IndexedDB work, microtasks and snapshot pushes run (`rounds` macrotasks). */
export async function settle(rounds = 2): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
