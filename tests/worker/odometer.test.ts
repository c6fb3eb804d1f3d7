/**
 * The driver's odometer readings in the outbox (worker/odometer.ts; issue 33 §2): queued offline with the dashboard's
 * photo, read again after a reload, sent once per (sheet, start|end) as the multipart PUT the server takes; a second
 * reading of the same kind is refused in Russian before anything is stored.
 */
import { describe, expect, it } from 'vitest';
import { outboxRequest } from '../../worker/trip-form.ts';
import { photo, setup, T0 } from './outbox-doubles.ts';

const at = new Date(T0).toISOString();

describe('odometer readings in the outbox', () => {
  it('queued offline survive a reload, go once each with the photo, and are not queued twice', async () => {
    const h = await setup();
    h.online.value = false;
    const start = await h.outbox.queueOdometer({ sheet_id: 12, which: 'start', value: 120_400, at, photo: photo('dashboard.jpg') });
    expect(start.ok).toBe(true);
    const again = await h.outbox.queueOdometer({ sheet_id: 12, which: 'start', value: 120_401, at, photo: null });
    expect(again).toMatchObject({ ok: false, message: 'Показание при выезде уже записано' });
    const below = await h.outbox.queueOdometer({ sheet_id: 12, which: 'end', value: 120_000, at, photo: null });
    expect(below).toMatchObject({ ok: false, message: 'Меньше, чем при выезде (120400 км)' });
    await h.outbox.flush();
    expect(h.server.calls).toHaveLength(0);

    const reloaded = h.engine();
    await reloaded.reload();
    expect(reloaded.snapshot().items.map((i) => i.odometer)).toEqual([{ sheet_id: 12, which: 'start', value: 120_400, at }]);
    h.online.value = true;
    await reloaded.flush();
    await Promise.all([reloaded.flush(), h.outbox.flush()]);
    expect(h.server.calls.map((c) => [c.key, c.photos.length])).toEqual([['odometer:12:start', 1]]);
    expect(reloaded.snapshot().items[0]?.state).toBe('sent');
    // Delivered, it still stops a second reading of the same kind.
    expect((await reloaded.queueOdometer({ sheet_id: 12, which: 'start', value: 120_400, at, photo: null })).ok).toBe(false);
  });

  it('is sent as PUT /trip-sheets/{id}/odometer/{which} with the JSON in `data` and the photo as `photo`', async () => {
    const form = outboxRequest(
      { association_id: 0, quantity: null, total_unloading_quantity: null, total_loading_quantity: null, flags: { unloadingIsBuyer: 0, loadingIsBuyer: 0 }, photos: [1], attempts: 0, nextAttemptAt: 0, sent: false, sentAt: null, resolved: false, idempotencyKey: 'odometer:5:end', completedAt: at, createdAt: T0, lastError: null, userId: 7, odometer: { sheetId: 5, which: 'end', value: 120_612, at } },
      [new Blob(['x'], { type: 'image/jpeg' })],
    );
    expect(form.method).toBe('PUT');
    expect(form.path).toBe('trip-sheets/5/odometer/end');
    expect(JSON.parse(String(form.form.get('data')))).toEqual({ value: 120_612, at });
    expect(form.form.getAll('photo')).toHaveLength(1);
  });
});
