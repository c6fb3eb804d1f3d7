/** The multipart body of POST /reports/ (docs/product.md §5: a total is sent only when its flag equals 1). */
import { describe, expect, it } from 'vitest';
import { buildReportForm, photoName } from '../../worker/report-form.ts';
import type { OutboxRecord } from '../../worker/db.ts';

function record(over: Partial<OutboxRecord> = {}): OutboxRecord {
  return {
    id: 1,
    association_id: 41,
    quantity: 12.5,
    total_unloading_quantity: 30,
    total_loading_quantity: 40,
    flags: { unloadingIsBuyer: 0, loadingIsBuyer: 0 },
    photos: [],
    attempts: 0,
    nextAttemptAt: 0,
    sent: false,
    sentAt: null,
    resolved: false,
    idempotencyKey: 'k',
    completedAt: '2026-11-21T09:00:00.000Z',
    createdAt: 0,
    lastError: null,
    userId: 7,
    ...over,
  };
}

function fields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === 'string') out[key] = value;
  return out;
}

describe('buildReportForm', () => {
  it('writes numbers as plain decimals, never with an exponent the server would refuse', () => {
    const form = fields(buildReportForm(record({ quantity: 1e-7, total_loading_quantity: 2.5e-7, flags: { unloadingIsBuyer: 0, loadingIsBuyer: 1 } }), []));
    expect(form).toMatchObject({ quantity: '0.0000001', total_loading_quantity: '0.00000025' });
  });

  it('sends no totals when neither flag is 1', () => {
    expect(fields(buildReportForm(record(), []))).toEqual({
      association_id: '41',
      quantity: '12.5',
      unloading_is_buyer: '0',
      loading_is_buyer: '0',
      completed_at: '2026-11-21T09:00:00.000Z',
      trips: '1',
      // A record queued before trips existed: its one report finished the task.
      final: '1',
    });
  });

  it('sends the trips, the ticket number and whether it is the last trip', () => {
    const form = buildReportForm(record({ trips: 2, ticketNumber: 'А-17', final: false }), []);
    expect([form.get('trips'), form.get('ticket_number'), form.get('final')]).toEqual(['2', 'А-17', '0']);
    expect(buildReportForm(record({ final: true }), []).get('final')).toBe('1');
    expect(buildReportForm(record({ ticketNumber: null }), []).has('ticket_number')).toBe(false);
  });

  it('sends the unloading total only when its flag is 1', () => {
    const form = buildReportForm(record({ flags: { unloadingIsBuyer: 1, loadingIsBuyer: 0 } }), []);
    expect(form.get('total_unloading_quantity')).toBe('30');
    expect(form.has('total_loading_quantity')).toBe(false);
    expect(form.get('unloading_is_buyer')).toBe('1');
  });

  it('sends the loading total only when its flag is 1', () => {
    const form = buildReportForm(record({ flags: { unloadingIsBuyer: 0, loadingIsBuyer: 1 } }), []);
    expect(form.get('total_loading_quantity')).toBe('40');
    expect(form.has('total_unloading_quantity')).toBe(false);
  });

  it('leaves out what has no value, since multipart has no null', () => {
    const form = buildReportForm(
      record({ quantity: null, total_loading_quantity: null, flags: { unloadingIsBuyer: 1, loadingIsBuyer: 1 } }),
      [],
    );
    expect(form.has('quantity')).toBe(false);
    expect(form.has('total_loading_quantity')).toBe(false);
    expect(form.get('total_unloading_quantity')).toBe('30');
  });

  it('attaches every photo under "photos", in order, with a name', async () => {
    const photos = [new Blob(['a'], { type: 'image/jpeg' }), new Blob(['b'], { type: 'image/png' })];
    const sent = buildReportForm(record(), photos).getAll('photos');
    expect(sent).toHaveLength(2);
    expect(await Promise.all(sent.map((p) => (p as File).text()))).toEqual(['a', 'b']);
    expect(sent.map((p) => (p as File).name)).toEqual(['photo-1.jpg', 'photo-2.png']);
    expect(photoName(new Blob(['x']), 2)).toBe('photo-3.bin');
  });
});
