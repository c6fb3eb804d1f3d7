/**
 * A small in-memory sliding-window counter, one per app instance. It guards the login form and the
 * public client-error endpoint; behind several server instances each keeps its own count, which is
 * good enough for throttling (not for billing).
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  /** True while the key has used up its allowance in the current window. */
  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }

  /** Counts one event; answers false when this event is over the limit (and then it is not counted). */
  hit(key: string): boolean {
    const list = this.recent(key);
    if (list.length >= this.limit) return false;
    list.push(this.now());
    this.hits.set(key, list);
    if (this.hits.size > 10_000) this.sweep();
    return true;
  }

  /**
   * Counts one event before its outcome is known (a login's password check takes a while, and attempts in flight
   * together must not all pass the check before any is counted): its stamp, or null when the key is at its limit
   * (nothing counted). An event that turns out not to count is given back with `refund`.
   */
  take(key: string): number | null {
    const stamp = this.now();
    return this.hit(key) ? stamp : null;
  }

  /** Takes back one event counted by `take` (a no-op once it has left the window or the key was reset). */
  refund(key: string, stamp: number): void {
    const list = this.hits.get(key);
    const at = list?.indexOf(stamp) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.hits.delete(key);
  }

  /** Seconds until the oldest counted event leaves the window. */
  retryAfterSeconds(key: string): number {
    const oldest = this.recent(key)[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  // Keys that stopped sending would otherwise stay in memory for ever.
  private sweep(): void {
    for (const key of [...this.hits.keys()]) this.recent(key);
  }
}
