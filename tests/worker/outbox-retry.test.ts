/**
 * Failed sends (docs/product.md §4 and §9): retry after 2^attempts s; network errors do not count; after
 * 10 counted failures while online the item is given up — kept under «Не доставлено» with its photos, the driver told
 * why, to send again or delete; offline it is kept waiting.
 */
import { describe, expect, it } from 'vitest';
import { DELIVERED_NOTICE, MAX_ATTEMPTS, retryDelayMs } from '../../worker/outbox.ts';
import { photo, photoTexts, queue, report, setup, T0, type Harness } from './outbox-doubles.ts';

const refused = { status: 422, message: 'Количество должно быть положительным' };

/** Fails the item `times` times with `refused`, each time as soon as it is due. */
async function failTimes(h: Harness, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    h.server.script.push(refused);
    await h.outbox.flush();
    const record = (await h.db.getAll('outbox'))[0];
    if (record) h.clock.now = record.nextAttemptAt;
  }
}

describe('retry delay', () => {
  it('waits 2^attempts seconds after a counted failure before the next try', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41));
    h.server.script.push(refused);
    await h.outbox.flush();
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 1, nextAttemptAt: T0 + 2_000, lastError: refused.message, sent: false });
    expect(h.outbox.snapshot().items[0]).toMatchObject({ state: 'failed', lastError: refused.message, nextAttemptAt: T0 + 2_000 });

    h.clock.now = T0 + 1_999;
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);

    h.clock.now = T0 + 2_000;
    h.server.script.push(refused);
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(2);
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 2, nextAttemptAt: T0 + 2_000 + 4_000 });
  });

  it('is 2^attempts seconds', () => {
    expect([0, 1, 2, 5, 10].map(retryDelayMs)).toEqual([1_000, 2_000, 4_000, 32_000, 1_024_000]);
  });

  it('retries with the same idempotency key, so a repeat cannot make a second report', async () => {
    const h = await setup();
    h.server.assigned = [41];
    await queue(h.outbox, report(41));
    h.server.script.push('network');
    await h.outbox.flush();
    h.clock.now += retryDelayMs(0);
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(2);
    expect(h.server.calls[0]?.key).toBe(h.server.calls[1]?.key);
    expect(h.server.reports.size).toBe(1);
  });
});

describe('network errors', () => {
  it('do not count as attempts, and still wait 2^attempts seconds', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41));
    h.server.script.push('network');
    await h.outbox.flush();
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 0, lastError: null, nextAttemptAt: T0 + 1_000, sent: false });
    expect(h.outbox.snapshot().items[0]).toMatchObject({ state: 'retry', nextAttemptAt: T0 + 1_000 });
  });

  it('stop the batch: the next item is not tried on a dead network', async () => {
    const h = await setup();
    await queue(h.outbox, report(41));
    h.clock.now += 1;
    await queue(h.outbox, report(42));
    h.server.script.push('network');
    await h.outbox.flush();
    expect(h.server.calls.map((c) => c.association_id)).toEqual([41]);
  });

  it('never delete an item, however many there are', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41));
    for (let i = 0; i < MAX_ATTEMPTS + 5; i++) {
      h.server.script.push('network');
      await h.outbox.flush();
      h.clock.now += retryDelayMs(0);
    }
    expect(h.server.calls).toHaveLength(MAX_ATTEMPTS + 5);
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 0 });
    expect(h.notes).toEqual([]);
  });

  it('a failed counted send does not stop the batch', async () => {
    const h = await setup();
    h.server.assigned = [41, 42];
    await queue(h.outbox, report(41));
    h.clock.now += 1;
    await queue(h.outbox, report(42));
    h.server.script.push(refused);
    await h.outbox.flush();
    expect(h.server.calls.map((c) => c.association_id)).toEqual([41, 42]);
    expect(h.server.reports.size).toBe(1);
  });
});

describe('giving up', () => {
  it('after 10 counted failures while online: out of the queue into «Не доставлено», with its photos, the driver told why', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41, [photo('a'), photo('b')]));
    await failTimes(h, MAX_ATTEMPTS - 1);
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: MAX_ATTEMPTS - 1 });
    expect(h.notes).toEqual([]);

    await failTimes(h, 1);
    expect(h.server.calls).toHaveLength(MAX_ATTEMPTS);
    expect(await h.db.get('outbox', id)).toMatchObject({ givenUp: true, sent: false, attempts: MAX_ATTEMPTS, lastError: refused.message });
    expect(await photoTexts(h.db, id)).toEqual(['a', 'b']);
    expect(h.notes).toHaveLength(1);
    expect(h.notes[0]).toContain(refused.message);
    expect(h.notes[0]).toContain('«Не доставлено»');
    expect(h.outbox.snapshot()).toMatchObject({ pending: 0, undelivered: 1, items: [{ id, state: 'undelivered', lastError: refused.message }] });

    // Never tried again by itself, however long it waits.
    h.clock.now += 24 * 3600 * 1000;
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(MAX_ATTEMPTS);

    // Sent again by the driver: back in the queue with its attempts from zero, and it goes.
    await h.outbox.resend(id);
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(MAX_ATTEMPTS + 1);
    expect(h.server.reports.size).toBe(1);
    // Delivered (and resolved, its task having left the driver's list): no longer undelivered.
    expect(h.outbox.snapshot().undelivered ?? 0).toBe(0);
  });

  it('keeps the item when the tenth failure comes while offline, and gives up on the next one online', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41));
    await failTimes(h, MAX_ATTEMPTS - 1);
    h.server.during = () => (h.online.value = false);
    await failTimes(h, 1);
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: MAX_ATTEMPTS, sent: false });
    expect(h.notes).toEqual([]);

    h.server.during = null;
    h.online.value = true;
    await failTimes(h, 1);
    expect(await h.db.get('outbox', id)).toMatchObject({ givenUp: true });
    expect(h.notes).toHaveLength(1);
  });

  it('sends nothing while offline', async () => {
    const h = await setup();
    h.online.value = false;
    const id = await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(0);
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 0, sent: false });
  });
});

describe('«Отчёт отправлен»', () => {
  it('is told when a report that had to wait arrives, not when one goes at once', async () => {
    const h = await setup();
    await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(h.server.reports.size).toBe(1);
    expect(h.notes).toEqual([]);

    await queue(h.outbox, report(42));
    h.server.script.push('network');
    await h.outbox.flush();
    h.clock.now += retryDelayMs(0);
    await h.outbox.flush();
    expect(h.server.reports.size).toBe(2);
    expect(h.notes).toEqual([DELIVERED_NOTICE]);
  });

  it('is told for a report queued with no network, however soon the network returns; the view says it waited', async () => {
    const h = await setup();
    h.online.value = false;
    await queue(h.outbox, report(43));
    expect(h.outbox.snapshot().items[0]).toMatchObject({ state: 'waiting', waited: true });
    // Back a second later: nothing failed and nothing was put off, yet the driver saw it wait.
    h.online.value = true;
    h.clock.now += 1_000;
    await h.outbox.flush();
    expect(h.server.reports.size).toBe(1);
    expect(h.notes).toEqual([DELIVERED_NOTICE]);
  });

  it('a report queued while sending is possible is not marked as waited', async () => {
    const h = await setup();
    await queue(h.outbox, report(44));
    expect(h.outbox.snapshot().items[0]?.waited).toBe(false);
  });
});

describe('«Отправить сейчас»', () => {
  it('sends every unsent item at once, also one waiting out its retry delay; a plain flush waits', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41));
    h.server.script.push(refused);
    await h.outbox.flush();
    expect(await h.db.get('outbox', id)).toMatchObject({ attempts: 1, nextAttemptAt: T0 + 2_000 });

    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(1);
    await h.outbox.flush({ everything: true });
    expect(h.server.calls).toHaveLength(2);
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: true });
  });
});
