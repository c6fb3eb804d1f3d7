/**
 * The browser primitives the engine uses, each behind a small interface, so Vitest drives the same engine
 * code with doubles (tests/worker/doubles.ts) and Chromium with the real thing (worker/platform.ts).
 */

/** Time. Tests pass a manual clock; the browser passes Date.now and the global timers. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Date.now and the global timers (the engines' and the service worker's clock). */
export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as number),
};

/**
 * Web Locks (navigator.locks). The callback's promise holds the lock; `request` answers what the
 * callback answered, once the lock is released again.
 */
export interface Locks {
  request<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** A BroadcastChannel between the engines of one origin (dedicated-worker mode). */
export interface Channel<M> {
  postMessage(message: M): void;
  /** Answers the unsubscribe function. */
  subscribe(listener: (message: M) => void): () => void;
}

/** navigator.onLine, navigator.connection.effectiveType and the online/offline events. */
export interface NetworkStatus {
  online(): boolean;
  effectiveType(): string | null;
  /** Calls back on online, offline and connection changes; answers the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * A tab saw 'online' or 'offline': tell the subscribers as if the worker had seen it. Chromium does not
   * always deliver those events to a SharedWorker, whose navigator.onLine still changes.
   */
  notify?(): void;
}

/** The effective types on which a GET falls back to the cache after the slow-network time-out. */
export function isSlowConnection(effectiveType: string | null): boolean {
  return effectiveType === '2g' || effectiveType === 'slow-2g';
}

/**
 * Web Locks within one JavaScript realm: FIFO per name. The engine falls back to it where
 * navigator.locks is missing (single-flight then holds within one engine only); tests share one
 * instance between several engines as the double of the browser's lock manager.
 */
export function createLocalLocks(): Locks & { held(name: string): boolean } {
  const tails = new Map<string, Promise<unknown>>();
  const holding = new Set<string>();
  return {
    request<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(async () => {
        holding.add(name);
        try {
          return await fn();
        } finally {
          holding.delete(name);
        }
      });
      const tail = run.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
    held: (name) => holding.has(name),
  };
}
