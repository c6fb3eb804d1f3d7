/** The trip sheet's record dialog as a form (src/screens/trip-sheets/sheet-form.ts). */
import { describe, expect, it } from 'vitest';
import type { TripSheet } from '../../contract/trip-sheets.ts';
import { clockOf, isoAt, parseClock, sheetBody, sheetValues } from '../../src/screens/trip-sheets/sheet-form.ts';

const sheet: TripSheet = {
  id: 1,
  company_id: 1,
  number: 4,
  year: 2026,
  date: '2026-11-27',
  vehicle: { id: 1, plate: 'А123ВС 77', make: 'КАМАЗ', model: null, body_type: null, ownership: null, trailer_plate: null },
  driver: { id: 2, name: 'Пётр Соколов', license_number: '77 12 345678', license_issued: null },
  pre_medical: null,
  pre_technical: null,
  post_medical: null,
  departure_at: null,
  return_at: null,
  odometer_start: 120_000,
  odometer_end: null,
  odometer_start_photo: false,
  odometer_end_photo: false,
  distance_km: null,
  missing: [],
  can_delete: false,
  created_at: '',
  updated_at: '',
};

describe('trip sheet form', () => {
  it('reads ЧЧ:ММ as typed and refuses what is no time', () => {
    expect(parseClock('7:05')).toBe('07:05');
    expect(parseClock('0705')).toBe('07:05');
    expect(parseClock('07.05')).toBe('07:05');
    expect(parseClock('24:00')).toBeNull();
    expect(parseClock('7 ч')).toBeNull();
  });

  it('sends the sheet’s date at the typed time with this browser’s offset, and reads it back the same', () => {
    const iso = isoAt('2026-11-27', '07:05');
    expect(iso).toMatch(/^2026-11-27T07:05:00[+-]\d{2}:\d{2}$/);
    expect(new Date(iso).getHours()).toBe(7);
    expect(clockOf(iso)).toBe('07:05');
  });

  it('sends only what changed: a check with its time and name, a cleared field as null; the driver’s reading untouched', () => {
    const values = { ...sheetValues(sheet), pre_medical_time: '6:40', pre_medical_name: ' Сидорова А. В. ', odometer_end: '120 412' };
    const built = sheetBody(sheet, values);
    expect(built).toEqual({ ok: true, body: { pre_medical: { at: isoAt('2026-11-27', '06:40'), name: 'Сидорова А. В.' }, odometer_end: 120_412 } });
    expect(sheetBody(sheet, { ...sheetValues(sheet), odometer_start: '' })).toEqual({ ok: true, body: { odometer_start: null } });
  });

  it('names the field a refusal belongs to', () => {
    const built = sheetBody(sheet, { ...sheetValues(sheet), pre_technical_name: 'Кузнецов', post_medical_time: '25:00', odometer_end: '12,5' });
    expect(built).toEqual({ ok: false, errors: { pre_technical_time: 'Укажите время', post_medical_time: 'Время — ЧЧ:ММ, например 07:05', odometer_end: 'Показание — целое число километров' } });
  });
});
