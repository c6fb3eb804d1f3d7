import type { FaultProxy } from './proxy.ts';
/**
 * Polling for the end-to-end suite: no fixed sleeps. `waitFor` retries a check until it answers something
 * truthy (a thrown error counts as "not yet"), and on time-out fails with the last reason it saw.
 */
export interface WaitOptions {
  timeout?: number;
  interval?: number;
  /** What was awaited, for the failure message. */
  message?: string;
}

export async function waitFor<T>(check: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeout = 20_000, interval = 100, message = 'condition' } = options;
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const reason = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`waitFor timed out after ${timeout} ms: ${message} (last: ${reason})`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/** Resolves once `read` answers `expected` (compared as JSON), else fails showing the last answer. */
export async function waitForValue<T>(read: () => T | Promise<T>, expected: T, options: WaitOptions = {}): Promise<void> {
  const want = JSON.stringify(expected);
  let seen = '';
  try {
    await waitFor(async () => {
      seen = JSON.stringify(await read());
      return seen === want;
    }, options);
  } catch {
    throw new Error(`${options.message ?? 'value'}: expected ${want}, last seen ${seen}`);
  }
}

/** Real time passing, for the one thing the suite must wait out: an access token's lifetime. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until the proxy has seen no new request for `quietMs` (at most `maxMs`). */
export async function waitQuiet(proxy: Pick<FaultProxy, 'requests'>, quietMs = 500, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let seen = proxy.requests.length;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await sleep(50);
    if (proxy.requests.length !== seen) {
      seen = proxy.requests.length;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) {
      return;
    }
  }
}
