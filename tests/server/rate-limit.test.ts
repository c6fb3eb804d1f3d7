/** The in-memory limiter behind the login throttle and the client-error limit, on a fake clock. */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../server/rate-limit.ts';

describe('RateLimiter', () => {
  it('blocks at the limit and frees a slot as the oldest event leaves the window', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(3, 60_000, () => now);
    expect([limiter.hit('a'), limiter.hit('a')]).toEqual([true, true]);
    now += 30_000;
    expect(limiter.hit('a')).toBe(true);
    expect(limiter.isBlocked('a')).toBe(true);
    expect(limiter.hit('a')).toBe(false);
    expect(limiter.retryAfterSeconds('a')).toBe(30);
    // Another key has its own allowance.
    expect(limiter.hit('b')).toBe(true);
    now += 30_001;
    // The first two events are out of the window; the third is still in it.
    expect(limiter.isBlocked('a')).toBe(false);
    expect([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')]).toEqual([true, true, false]);
  });

  it('forgets a key on reset', () => {
    const limiter = new RateLimiter(1, 60_000);
    limiter.hit('k');
    expect(limiter.isBlocked('k')).toBe(true);
    limiter.reset('k');
    expect(limiter.isBlocked('k')).toBe(false);
    expect(limiter.retryAfterSeconds('k')).toBe(0);
  });

  it('counts an event at take, before its outcome, and gives it back on refund', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(2, 60_000, () => now);
    const first = limiter.take('k');
    now += 1;
    const second = limiter.take('k');
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    // Both in flight: a third is refused before either outcome is known.
    expect(limiter.take('k')).toBeNull();
    limiter.refund('k', second!);
    expect(limiter.isBlocked('k')).toBe(false);
    // A refund of a stamp no longer held changes nothing.
    limiter.refund('k', second!);
    expect(limiter.take('k')).not.toBeNull();
    expect(limiter.isBlocked('k')).toBe(true);
  });
});
