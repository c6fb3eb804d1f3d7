/** The driver's ПЭП confirmation on a step (src/parts/driver/driver-confirm.ts): the line he confirms and the body's part. */
import { describe, expect, it } from 'vitest';
import { confirmLine, readConfirmation } from '../../src/parts/driver/driver-confirm.ts';
import { tripStepBodySchema } from '../../contract/trips.ts';

describe('the driver’s confirmation on a step', () => {
  it('says what he confirms, with the mass as the step records it', () => {
    expect(confirmLine('loading_departed', 24.5, 'т')).toBe('Груз принят к перевозке: 24,5 т');
    expect(confirmLine('unloading_departed', null, 'т')).toBe('Груз сдан: количество не указано');
  });

  it('sends the confirmation only when asked and ticked, its remarks trimmed, and the contract takes it', () => {
    expect(readConfirmation(false, true, 'скол')).toEqual({ ok: true, value: {} });
    expect(readConfirmation(true, false, 'скол')).toEqual({ ok: true, value: {} });
    expect(readConfirmation(true, true, '   ')).toEqual({ ok: true, value: { driver_confirmation: { remarks: null } } });
    const read = readConfirmation(true, true, ' Борт помят ');
    expect(read).toEqual({ ok: true, value: { driver_confirmation: { remarks: 'Борт помят' } } });
    if (!read.ok) return;
    const body = { association_id: 1, at: '2026-11-26T07:35:00+03:00', loading_quantity: 19.6, ...read.value };
    expect(tripStepBodySchema.safeParse(body).success).toBe(true);
    expect(readConfirmation(true, true, 'я'.repeat(1001))).toEqual({ ok: false, error: 'Не длиннее 1000 символов' });
  });
});
