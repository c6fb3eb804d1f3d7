/**
 * Several uploads in flight within one flush (FLUSH_CONCURRENCY), never two of one association: per
 * association, reports go in the order they were made, each after the previous one was answered.
 */
import { describe, expect, it, vi } from 'vitest';
import { FLUSH_CONCURRENCY, type SendResult } from '../../worker/outbox.ts';
import type { OutboxRecord } from '../../worker/db.ts';
import { deferred, queue, report, setup, type Deferred } from './outbox-doubles.ts';

interface Call {
  association: number;
  key: string;
  answer: Deferred;
  result: SendResult;
}

/** A sender that records every call and answers only when the test releases it (any order, any delay). */
function controlledSender() {
  const calls: Call[] = [];
  const inFlight = new Set<Call>();
  let maxInFlight = 0;
  const overlaps: number[][] = [];
  const send = async (record: OutboxRecord): Promise<SendResult> => {
    const call: Call = { association: record.association_id, key: record.idempotencyKey, answer: deferred(), result: { ok: true, data: { id: calls.length + 1 } } };
    calls.push(call);
    inFlight.add(call);
    maxInFlight = Math.max(maxInFlight, inFlight.size);
    overlaps.push([...inFlight].map((c) => c.association));
    await call.answer.promise;
    inFlight.delete(call);
    return call.result;
  };
  /** Answers the oldest unanswered call of `association` (with `result`, a 201 by default). */
  const answer = (association: number, result?: SendResult) => {
    const call = [...inFlight].find((c) => c.association === association);
    if (!call) throw new Error(`nothing of ${association} in flight`);
    if (result) call.result = result;
    call.answer.resolve();
  };
  return {
    calls,
    inFlight: () => [...inFlight].map((c) => c.association).sort((a, b) => a - b),
    maxInFlight: () => maxInFlight,
    overlaps,
    send,
    answer,
  };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Queues reports for the given associations, one ms apart (queue order = age order); answers their keys. */
async function queueAll(h: Awaited<ReturnType<typeof setup>>, associations: number[]): Promise<string[]> {
  const keys: string[] = [];
  for (const association of associations) {
    const id = await queue(h.outbox, report(association));
    keys.push((await h.db.get('outbox', id))?.idempotencyKey ?? '');
    h.clock.now += 1;
  }
  return keys;
}

describe('uploads in flight at once', () => {
  it('two reports of one association are never in flight together, and go in queue order', async () => {
    const sender = controlledSender();
    const h = await setup({ sendReport: sender.send });
    h.server.assigned = [];
    const keys = await queueAll(h, [41, 41, 42, 41]);
    const flushed = h.outbox.flush();

    // The first upload of a batch goes alone, until the server has answered.
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41]));
    await settle();
    expect(sender.inFlight()).toEqual([41]);
    sender.answer(41);
    // Then 41's second report and 42's go together; 41's third waits for 41's second.
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41, 42]));
    sender.answer(42);
    await settle();
    expect(sender.inFlight()).toEqual([41]);
    sender.answer(41);
    await vi.waitFor(() => expect(sender.calls).toHaveLength(4));
    sender.answer(41);
    await flushed;

    for (const inFlight of sender.overlaps) expect(new Set(inFlight).size).toBe(inFlight.length);
    const of41 = sender.calls.filter((c) => c.association === 41).map((c) => c.key);
    expect(of41).toEqual([keys[0], keys[1], keys[3]]);
    expect(new Set(sender.calls.map((c) => c.key)).size).toBe(4);
    expect(await h.db.count('outbox')).toBe(0);
  });

  it(`reports of different associations overlap, at most ${FLUSH_CONCURRENCY} at once`, async () => {
    const sender = controlledSender();
    const h = await setup({ sendReport: sender.send });
    const associations = [41, 42, 43, 44, 45, 46, 47];
    h.server.assigned = [];
    await queueAll(h, associations);
    const flushed = h.outbox.flush();
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41]));
    sender.answer(41);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([42, 43, 44]));
    await settle();
    expect(sender.inFlight()).toEqual([42, 43, 44]);
    // Answered out of order: the freed slot goes to the oldest waiting report.
    sender.answer(43);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([42, 44, 45]));
    for (const association of [42, 44, 45]) sender.answer(association);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([46, 47]));
    sender.answer(46);
    sender.answer(47);
    await flushed;

    expect(sender.maxInFlight()).toBe(FLUSH_CONCURRENCY);
    expect(sender.calls.map((c) => c.association)).toEqual(associations);
    expect(await h.db.count('outbox')).toBe(0);
  });

  it("a refused report's newer ones of its association go after its answer, and it waits out its retry time alone", async () => {
    const sender = controlledSender();
    const h = await setup({ sendReport: sender.send });
    h.server.assigned = [];
    const keys = await queueAll(h, [42, 41, 42, 41, 42]);
    const flushed = h.outbox.flush();
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([42]));
    sender.answer(42);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41, 42]));
    sender.answer(41, { ok: false, network: false, status: 400, message: 'quantity: ожидается число' });
    // Refused is answered: 41's newer report goes now, beside 42's.
    await vi.waitFor(() => expect(sender.calls).toHaveLength(4));
    expect(sender.calls[3]?.key).toBe(keys[3]);
    expect(sender.inFlight()).toEqual([41, 42]);
    sender.answer(41);
    sender.answer(42);
    await vi.waitFor(() => expect(sender.calls).toHaveLength(5));
    sender.answer(42);
    await flushed;
    expect(sender.calls.map((c) => c.key)).toEqual([keys[0], keys[1], keys[2], keys[3], keys[4]]);
    const stored = await h.db.getAll('outbox');
    expect(stored.map((r) => [r.association_id, r.sent, r.attempts])).toEqual([[41, false, 1]]);

    // The refused one is not sent again before its retry time, then alone.
    await h.outbox.flush();
    expect(sender.calls).toHaveLength(5);
    h.clock.now += 60_000;
    const again = h.outbox.flush();
    await vi.waitFor(() => expect(sender.calls).toHaveLength(6));
    expect(sender.calls[5]?.key).toBe(keys[1]);
    sender.answer(41);
    await again;
    expect(await h.db.count('outbox')).toBe(0);
  });

  it('a network failure stops the batch; what is already in flight still lands, marked once', async () => {
    const sender = controlledSender();
    const h = await setup({ sendReport: sender.send });
    h.server.assigned = [];
    await queueAll(h, [41, 42, 43, 44, 45]);
    const flushed = h.outbox.flush();
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41]));
    sender.answer(41);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([42, 43, 44]));
    sender.answer(42, { ok: false, network: true, status: null, message: 'Network Error' });
    await settle();
    expect(sender.inFlight()).toEqual([43, 44]);
    sender.answer(43);
    sender.answer(44);
    await flushed;
    expect(sender.calls.map((c) => c.association)).toEqual([41, 42, 43, 44]);
    const stored = await h.db.getAll('outbox');
    expect(stored.map((r) => [r.association_id, r.sent, r.attempts]).sort()).toEqual([
      [42, false, 0],
      [45, false, 0],
    ]);
  });
});

describe('the records of a flush', () => {
  it('uploads answered together are marked sent in one strict transaction, all committed before the flush ends', async () => {
    const sender = controlledSender();
    const h = await setup({ sendReport: sender.send });
    h.server.assigned = [];
    await queueAll(h, [41, 42, 43, 44]);
    const spy = vi.spyOn(h.db, 'transaction');
    const flushed = h.outbox.flush();
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([41]));
    sender.answer(41);
    await vi.waitFor(() => expect(sender.inFlight()).toEqual([42, 43, 44]));
    const before = spy.mock.calls.filter(([, mode]) => mode === 'readwrite').length;
    for (const association of [42, 43, 44]) sender.answer(association);
    await flushed;
    const marks = spy.mock.calls.filter(([, mode]) => mode === 'readwrite').length - before;
    // Three marks in one transaction, then the resolve's delete of the four.
    expect(marks).toBe(2);
    expect(await h.db.count('outbox')).toBe(0);
  });
});
