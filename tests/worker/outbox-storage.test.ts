/**
 * The report outbox and the engine when the device's storage fails under them (worker/store.ts): a full disk is
 * a Russian message and costs no queued report; a deleted database is said, with what was lost, and the engine
 * goes on.
 */
import { deleteDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeResetNotice } from '../../worker/outbox-api.ts';
import { createOutbox, NO_SPACE_MESSAGE } from '../../worker/outbox.ts';
import { fillDisk, makeEngine, serveAuth } from './harness.ts';
import { photo, queue, report, setup } from './outbox-doubles.ts';

const undo: (() => void)[] = [];
afterEach(() => undo.splice(0).forEach((fn) => fn()));

describe('a full device', () => {
  it('a report that does not fit is refused in Russian; the one queued before stays and is sent', async () => {
    const h = await setup();
    h.server.assigned = [41, 42];
    h.online.value = false;
    const queued = await queue(h.outbox, report(41, [photo('a')]));
    undo.push(fillDisk('photos'));

    expect(await h.outbox.queueReport(report(42, [photo('b')]))).toEqual({ ok: false, message: NO_SPACE_MESSAGE, status: null, network: false });
    expect(h.outbox.snapshot().items.map((item) => item.id)).toEqual([queued]);
    expect(await h.db.count('outbox')).toBe(1);

    h.online.value = true;
    await h.outbox.flush();
    expect(h.server.calls.map((call) => call.association_id)).toEqual([41]);
    expect(await h.db.get('outbox', queued)).toMatchObject({ sent: true });
  });

  it('a delivered report whose mark does not fit stays queued, and the next flush sends it again under its key (stored once)', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41, [photo('a'), photo('b')]));
    undo.push(fillDisk('outbox'));
    await expect(h.outbox.flush()).rejects.toMatchObject({ kind: 'quota' });
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: false });
    expect(await h.db.count('photos')).toBe(2);

    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(2);
    expect(h.server.sendsPerKey()).toEqual([2]);
    expect(h.server.reports.size).toBe(1);
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: true });
  });
});

describe('the database deleted under the engine', () => {
  it('the engine says how many unsent reports were lost, and queues again', async () => {
    const { api, server, clock, db, network, connectTab } = await makeEngine({ outbox: createOutbox, compress: async (blob) => blob });
    serveAuth(server, clock);
    await api.login('driver@demo.local', 'demo12345');
    network.setOnline(false);
    const tab = await connectTab();
    expect(await api.queueReport(report(41, [photo('a')]))).toMatchObject({ ok: true });
    // The outbox's pushes are throttled on the engine's clock.
    clock.advance(1_000);
    await vi.waitFor(() => expect(tab.latest()?.outbox.pending).toBe(1));

    // The test's own connection would block the deletion: only the engine's is left open.
    db.close();
    await deleteDB(db.name);

    const again = await api.queueReport(report(42, []));
    expect(again).toMatchObject({ ok: true });
    clock.advance(1_000);
    await vi.waitFor(() => expect(tab.latest()?.notices?.map((n) => n.message)).toEqual([storeResetNotice(1)]));
    await vi.waitFor(() => expect(tab.latest()?.outbox.items.map((item) => item.association_id)).toEqual([42]));
  });
});
