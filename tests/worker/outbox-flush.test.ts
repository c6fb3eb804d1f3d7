/**
 * Flushing (docs/product.md §4 and §9): one flush at a time within an engine and across engines (the
 * 'outbox-flush' lock), one batch at a time, every 60 s and on 'online', progress while sending, and snapshot
 * pushes throttled while a flush changes something per item.
 */
import { describe, expect, it, vi } from 'vitest';
import { FLUSH_CONCURRENCY, FLUSH_INTERVAL_MS, FLUSH_LOCK, retryDelayMs, } from '../../worker/outbox.ts';
import type { Locks } from '../../worker/ports.ts';
import { OUTBOX_PUSH_INTERVAL_MS, throttlePushes } from '../../worker/outbox-view.ts';
import { createManualClock } from './doubles.ts';
import { deferred, noLocks, photo, photoTexts, queue, report, setup } from './outbox-doubles.ts';

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

describe('one flush at a time', () => {
  it('within one engine: two concurrent flushes send each item once', async () => {
    const h = await setup({ locks: noLocks });
    h.server.assigned = [41, 42, 43];
    for (const id of [41, 42, 43]) await queue(h.outbox, report(id));
    await Promise.all([h.outbox.flush(), h.outbox.flush()]);
    expect(h.server.calls).toHaveLength(3);
    expect(h.server.sendsPerKey()).toEqual([1, 1, 1]);
    // One batch's uploads at most (a few at once, outbox-concurrency.test.ts), never a second batch's too.
    expect(h.server.maxInFlight).toBeLessThanOrEqual(FLUSH_CONCURRENCY);
  });

  it('across engines on one database (tabs, dedicated workers, the service worker): each item sent once', async () => {
    const h = await setup();
    h.server.assigned = [41, 42, 43];
    for (const id of [41, 42, 43]) await queue(h.outbox, report(id));
    const engines = [h.outbox, h.engine(), h.engine()];
    await Promise.all(engines.map((e) => e.flush()));
    expect(h.server.calls).toHaveLength(3);
    expect(h.server.sendsPerKey()).toEqual([1, 1, 1]);
    // One batch's uploads at most (a few at once, outbox-concurrency.test.ts), never a second batch's too.
    expect(h.server.maxInFlight).toBeLessThanOrEqual(FLUSH_CONCURRENCY);
  });

  it('takes the Web Lock named outbox-flush', async () => {
    const names: string[] = [];
    const spyLocks: Locks = { request: (name, fn) => (names.push(name), fn()) };
    const h = await setup({ locks: spyLocks });
    await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(names).toEqual([FLUSH_LOCK]);
    expect(FLUSH_LOCK).toBe('outbox-flush');
  });
});

describe('one batch at a time', () => {
  it('sends a batch oldest first, the first item alone, and what came during it in the next batch', async () => {
    const h = await setup();
    h.server.assigned = [41, 42, 43];
    await queue(h.outbox, report(41));
    h.clock.now += 1;
    await queue(h.outbox, report(42));
    h.server.hold = deferred();
    const first = h.outbox.flush();
    await settle();
    expect(h.server.calls.map((c) => c.association_id)).toEqual([41]);

    h.clock.now += 1;
    await queue(h.outbox, report(43));
    const second = h.outbox.flush();
    await settle();
    expect(h.server.calls.map((c) => c.association_id)).toEqual([41]);

    const hold = h.server.hold;
    h.server.hold = null;
    hold.resolve();
    await Promise.all([first, second]);
    expect(h.server.calls.map((c) => c.association_id)).toEqual([41, 42, 43]);
    expect(h.server.maxInFlight).toBe(1);
    expect(h.server.sendsPerKey()).toEqual([1, 1, 1]);
  });

  it('shows the flush and the item being sent, with its upload progress', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41, [photo('a')]));
    h.server.hold = deferred();
    h.server.during = (onProgress) => onProgress(0.5);
    const done = h.outbox.flush();
    await settle();
    expect(h.outbox.snapshot()).toMatchObject({ flushing: true, pending: 1, items: [{ id, state: 'sending', progress: 0.5 }] });
    h.server.hold.resolve();
    await done;
    expect(h.outbox.snapshot()).toMatchObject({ flushing: false, pending: 0, items: [{ id, state: 'sent', progress: null }] });
  });
});

describe('scheduling', () => {
  it('flushes at start, every 60 s and when the network comes back', async () => {
    const h = await setup();
    h.server.assigned = [41, 42, 43];
    h.outbox.start(h.network);
    const tick = h.timers.find((timer) => timer.interval);
    expect(tick?.ms).toBe(FLUSH_INTERVAL_MS);
    expect(FLUSH_INTERVAL_MS).toBe(60_000);

    h.online.value = false;
    await queue(h.outbox, report(41));
    await settle();
    expect(h.server.calls).toHaveLength(0);

    h.online.value = true;
    h.network.changed();
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(1));

    h.online.value = false;
    await queue(h.outbox, report(42));
    h.online.value = true;
    tick?.fn();
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(2));

    await queue(h.outbox, report(43));
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(3));
  });

  it('a failed send is tried again when its delay is over, not at the next 60 s tick; never while offline', async () => {
    const h = await setup();
    h.server.assigned = [41];
    h.outbox.start(h.network);
    const timeouts = () => h.timers.filter((timer) => !timer.interval);
    h.online.value = false;
    await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(timeouts()).toHaveLength(0);

    h.online.value = true;
    h.server.script.push('network');
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);
    expect(timeouts().at(-1)?.ms).toBe(retryDelayMs(0));

    h.clock.now += retryDelayMs(0);
    timeouts().at(-1)?.fn();
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(2));
    expect(h.server.reports.size).toBe(1);
  });

  it('triggerFlush sends what is due without the caller awaiting it', async () => {
    const h = await setup();
    h.server.assigned = [41];
    await queue(h.outbox, report(41));
    h.outbox.triggerFlush();
    await vi.waitFor(() => expect(h.server.calls).toHaveLength(1));
  });
});

describe('snapshot pushes while flushing', () => {
  it('go out at once after a quiet spell, then at most one per interval, keeping the "stored" flag', () => {
    const clock = createManualClock();
    const pushes: boolean[] = [];
    const throttle = throttlePushes(clock, (stored) => pushes.push(stored));

    throttle.change(true);
    expect(pushes).toEqual([true]);

    // A flush of small reports: an item sent (stored), the next one sending (view only), its progress…
    throttle.change(false);
    throttle.change(true);
    throttle.change(false);
    expect(pushes).toEqual([true]);
    clock.advance(OUTBOX_PUSH_INTERVAL_MS - 1);
    expect(pushes).toEqual([true]);
    clock.advance(1);
    expect(pushes).toEqual([true, true]);

    throttle.change(false);
    clock.advance(OUTBOX_PUSH_INTERVAL_MS);
    expect(pushes).toEqual([true, true, false]);

    clock.advance(10 * OUTBOX_PUSH_INTERVAL_MS);
    throttle.change(false);
    expect(pushes).toEqual([true, true, false, false]);
    throttle.change(true);
    throttle.cancel();
    clock.advance(OUTBOX_PUSH_INTERVAL_MS);
    expect(pushes).toEqual([true, true, false, false]);
  });

  it('a batch reads the whole queue as often for 6 items as for 1, never once per item', async () => {
    const reads = async (count: number) => {
      const h = await setup();
      h.server.assigned = [41, 42, 43, 44, 45, 46];
      for (let i = 0; i < count; i++) await queue(h.outbox, report(41 + i));
      const spy = vi.spyOn(h.db, 'transaction');
      await h.outbox.flush();
      expect(h.server.calls).toHaveLength(count);
      // A read of the whole queue is a read-only transaction on the outbox store alone (getAll).
      return spy.mock.calls.filter(([stores, mode]) => stores === 'outbox' && mode !== 'readwrite').length;
    };
    expect(await reads(6)).toBe(await reads(1));
  });

  it('the outbox tells of every change, and marks as stored only what it wrote to IndexedDB', async () => {
    const kinds: boolean[] = [];
    const h = await setup({ onChange: (stored) => kinds.push(stored) });
    h.server.assigned = [41];
    await queue(h.outbox, report(41));
    expect(kinds).toEqual([true]);
    kinds.length = 0;
    h.server.during = (onProgress) => onProgress(0.5);
    h.server.assigned = [];
    await h.outbox.flush();
    // flush start, sending, progress: view only; the sent mark and the resolve: stored; flush end: view only.
    expect(kinds).toEqual([false, false, false, true, true, false]);
  });
});

describe('a delivered report on the device', () => {
  it('keeps only its first photo (the thumbnail) once the server has it, while its task goes on', async () => {
    const h = await setup({ locks: noLocks });
    // The association stays assigned: a trip of a task carried in many trips.
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41, [photo('a'), photo('b'), photo('c')], { final: false }));
    expect(await photoTexts(h.db, id)).toHaveLength(3);
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);
    expect(await photoTexts(h.db, id)).toHaveLength(1);
    const stored = await h.db.get('outbox', id);
    expect(stored).toMatchObject({ sent: true, photos: [expect.any(Number)] });
    // Every photo went to the server first.
    expect(h.server.calls[0]?.photos).toHaveLength(3);
  });
});
