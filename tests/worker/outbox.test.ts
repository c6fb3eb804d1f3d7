/**
 * The outbox's record life (docs/product.md §4, "Report outbox"): queued unsent, marked sent with a
 * time, resolved and deleted once its association leaves /tasks/assigned/, discarded with its photos,
 * surviving a re-opened database.
 */
import { describe, expect, it, vi } from 'vitest';
import { openEngineDb } from '../../worker/db.ts';
import { photo, photoTexts, queue, report, setup, T0 } from './outbox-doubles.ts';

describe('queueing a report', () => {
  it('stores a new item unsent, with a fresh idempotency key and the device time', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41, [photo('a')]));
    const record = await h.db.get('outbox', id);
    expect(record).toMatchObject({
      association_id: 41,
      quantity: 12.5,
      attempts: 0,
      nextAttemptAt: T0,
      sent: false,
      sentAt: null,
      resolved: false,
      lastError: null,
      userId: 7,
      completedAt: new Date(T0).toISOString(),
    });
    expect(record?.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(h.server.calls).toHaveLength(0);
    expect(h.outbox.snapshot()).toMatchObject({ pending: 1, items: [{ id, state: 'waiting', photoCount: 1 }] });
  });

  it('lets the queue show each item’s quantity and first photo, so two reports of one task can be told apart', async () => {
    const h = await setup();
    const withPhotos = await queue(h.outbox, report(41, [photo('first'), photo('second')]));
    const without = await queue(h.outbox, report(41));
    expect(h.outbox.snapshot().items.map((i) => [i.id, i.quantity, i.photoCount])).toEqual([
      [withPhotos, 12.5, 2],
      [without, 12.5, 0],
    ]);
    expect(await (await h.store.outbox.firstPhoto(withPhotos))?.text()).toBe('first');
    expect(await h.store.outbox.firstPhoto(without)).toBeNull();
    await h.outbox.discard(withPhotos);
    expect(await h.store.outbox.firstPhoto(withPhotos)).toBeNull();
  });

  it('gives every report its own idempotency key', async () => {
    const h = await setup();
    const a = await queue(h.outbox, report(41));
    const b = await queue(h.outbox, report(41));
    expect((await h.db.get('outbox', a))?.idempotencyKey).not.toBe((await h.db.get('outbox', b))?.idempotencyKey);
  });

  it('stores the compressed photos, not the originals', async () => {
    const h = await setup({ compress: async (p) => new Blob([`small ${await p.text()}`], { type: 'image/jpeg' }) });
    const id = await queue(h.outbox, report(41, [photo('one'), photo('two')]));
    expect(await photoTexts(h.db, id)).toEqual(['small one', 'small two']);
  });

  it('binds photos to their own record: two queued reports keep their own photos', async () => {
    const h = await setup();
    h.server.assigned = [41, 42];
    const first = await queue(h.outbox, report(41, [photo('41-a'), photo('41-b')]));
    const second = await queue(h.outbox, report(42, [photo('42-a')]));
    expect(await photoTexts(h.db, first)).toEqual(['41-a', '41-b']);
    expect(await photoTexts(h.db, second)).toEqual(['42-a']);
    await h.outbox.flush();
    const sent = await Promise.all(h.server.calls.map(async (c) => [c.association_id, await Promise.all(c.photos.map((p) => p.text()))]));
    expect(sent).toEqual([[41, ['41-a', '41-b']], [42, ['42-a']]]);
  });

  it('writes the record and its photos in strict transactions', async () => {
    const h = await setup();
    const spy = vi.spyOn(h.db, 'transaction');
    await queue(h.outbox, report(41, [photo('a')]));
    const writes = spy.mock.calls.filter((call) => call[1] === 'readwrite');
    expect(writes).toHaveLength(1);
    expect(writes[0]?.[2]).toEqual({ durability: 'strict' });
  });

  it('keeps records and photos when the database is closed and opened again', async () => {
    const h = await setup();
    const id = await queue(h.outbox, report(41, [photo('kept')]));
    h.db.close();
    const reopened = await openEngineDb(h.dbName);
    expect(await reopened.get('outbox', id)).toMatchObject({ association_id: 41, sent: false });
    expect(await photoTexts(reopened, id)).toEqual(['kept']);
    reopened.close();
  });

  it('refuses to queue without a signed-in user, and stores nothing', async () => {
    const h = await setup();
    h.user.id = null;
    const result = await h.outbox.queueReport(report(41));
    expect(result).toMatchObject({ ok: false, message: 'Войдите в систему, чтобы отправить отчёт' });
    expect(await h.db.count('outbox')).toBe(0);
  });
});

describe('where nothing is compressed', () => {
  it('the service worker\'s outbox (no compression) queues nothing and stores nothing', async () => {
    const h = await setup({ compress: null });
    const result = await h.outbox.queueReport(report(41, [photo('a')]));
    expect(result.ok).toBe(false);
    expect(await h.db.count('outbox')).toBe(0);
  });
});

describe('sending and resolving', () => {
  it('marks a sent item sent, with the time it was sent', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41));
    h.clock.now = T0 + 5_000;
    await h.outbox.flush();
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: true, sentAt: T0 + 5_000 });
    expect(h.server.reports.size).toBe(1);
    expect(h.outbox.snapshot()).toMatchObject({ pending: 0, items: [{ id, state: 'sent', sentAt: T0 + 5_000 }] });
  });

  it('resolves and deletes a sent item, with its photos, once its association is no longer assigned', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41, [photo('a')]));
    await h.outbox.flush();
    h.server.assigned = [99];
    const resolved = await h.outbox.resolve();
    expect(resolved).toMatchObject([{ id, resolved: true, sent: true }]);
    expect(await h.db.get('outbox', id)).toBeUndefined();
    expect(await h.db.count('photos')).toBe(0);
    expect(h.outbox.snapshot().items).toEqual([]);
  });

  it('resolves within the flush that sent it when the server already moved the association on', async () => {
    const h = await setup();
    h.server.assigned = [];
    const id = await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(h.server.reports.size).toBe(1);
    expect(await h.db.get('outbox', id)).toBeUndefined();
  });

  it('does not resolve a sent item whose association is still assigned', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41));
    await h.outbox.flush();
    expect(await h.outbox.resolve()).toEqual([]);
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: true });
  });

  it('does not resolve anything when the assigned list cannot be fetched', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41));
    await h.outbox.flush();
    h.server.assigned = null;
    expect(await h.outbox.resolve()).toEqual([]);
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: true });
  });

  it('never resolves an unsent item, even when its association is gone', async () => {
    const h = await setup();
    h.online.value = false;
    h.server.assigned = [];
    const id = await queue(h.outbox, report(41));
    await h.outbox.resolve();
    expect(await h.db.get('outbox', id)).toMatchObject({ sent: false });
  });
});

describe('discarding', () => {
  it('deletes the item and its photos, and leaves other items alone', async () => {
    const h = await setup();
    const gone = await queue(h.outbox, report(41, [photo('a'), photo('b')]));
    const kept = await queue(h.outbox, report(42, [photo('c')]));
    await h.outbox.discard(gone);
    expect(await h.db.get('outbox', gone)).toBeUndefined();
    expect(await photoTexts(h.db, gone)).toEqual([]);
    expect(await photoTexts(h.db, kept)).toEqual(['c']);
    expect(h.outbox.snapshot()).toMatchObject({ pending: 1, items: [{ id: kept }] });
  });

  it('is not undone by a late success of an upload already under way', async () => {
    const h = await setup();
    h.server.assigned = [41];
    const id = await queue(h.outbox, report(41, [photo('a')]));
    h.server.during = () => void h.outbox.discard(id);
    await h.outbox.flush();
    expect(await h.db.get('outbox', id)).toBeUndefined();
    expect(await h.db.count('photos')).toBe(0);
  });
});

describe('whose items', () => {
  it('sends and shows only the signed-in user\'s items', async () => {
    const h = await setup();
    const other = await queue(h.outbox, report(41));
    h.user.id = 8;
    h.server.assigned = [42];
    const mine = await queue(h.outbox, report(42));
    await h.outbox.flush();
    expect(h.server.calls.map((c) => c.association_id)).toEqual([42]);
    expect(await h.db.get('outbox', other)).toMatchObject({ sent: false });
    expect(h.outbox.snapshot().items.map((i) => i.id)).toEqual([mine]);
  });
});
