/** The registers' cards as forms (src/parts/registers/register-form.ts): refusals under their fields, bodies, plates as typed. */
import { describe, expect, it } from 'vitest';
import {
  checkCounterparty,
  COUNTERPARTY_LABELS,
  emptyCounterparty,
  emptyPlace,
  emptyVehicle,
  PLACE_LABELS,
  placeBody,
  placeLabelled,
  plateHint,
  readPoint,
  VEHICLE_LABELS,
  vehicleBody,
} from '../../src/parts/registers/register-form.ts';

describe('placeLabelled', () => {
  it('puts a refusal under the field its Russian label names, without the label', () => {
    expect(placeLabelled('ИНН: неверная контрольная цифра', COUNTERPARTY_LABELS)).toEqual({ field: 'inn', message: 'Неверная контрольная цифра' });
    expect(placeLabelled('ОГРНИП: неверная контрольная цифра', COUNTERPARTY_LABELS).field).toBe('ogrn');
  });

  it('prefers the longest label: «Госномер прицепа» is the trailer, not the plate', () => {
    expect(placeLabelled('Госномер прицепа: ожидается вид АВ1234 77', VEHICLE_LABELS).field).toBe('trailer_plate');
    expect(placeLabelled('Госномер: машина А123ВС 77 уже есть в парке (№3)', VEHICLE_LABELS)).toEqual({
      field: 'plate',
      message: 'Машина А123ВС 77 уже есть в парке (№3)',
    });
  });

  it('leaves a refusal no field names to the form', () => {
    expect(placeLabelled('Нет доступа', PLACE_LABELS)).toEqual({ field: null, message: 'Нет доступа' });
  });
});

describe('counterparty card', () => {
  it('is checked by the server schema: a wrong check digit is refused under ИНН', async () => {
    const errors = await checkCounterparty({ ...emptyCounterparty(), name: 'ООО Гранит', inn: '7707083894' });
    expect(errors).toEqual({ inn: 'Неверная контрольная цифра' });
  });

  it('a valid ЮЛ passes; a name and a role are needed', async () => {
    expect(await checkCounterparty({ ...emptyCounterparty(), name: 'Сбербанк', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195' })).toEqual({});
    const errors = await checkCounterparty({ ...emptyCounterparty([]), inn: '7707083893' });
    expect(Object.keys(errors).sort()).toEqual(['name', 'roles']);
  });
});

describe('place card', () => {
  it('reads a pasted Yandex Maps link and says where it came from', () => {
    expect(readPoint('https://yandex.ru/maps/?ll=37.617300%2C55.755800&pt=37.6173,55.7558&z=16')).toMatchObject({ state: 'ok', lat: 55.7558, lon: 37.6173, source: 'yandex' });
    const built = placeBody({ ...emptyPlace('Карьер'), point: 'https://yandex.ru/maps/?pt=37.6173,55.7558&z=16' });
    expect(built).toMatchObject({ ok: true, body: { name: 'Карьер', lat: 55.7558, lon: 37.6173, radius_m: 150, counterparty_id: null } });
  });

  it('refuses a radius out of 30–2000 and an unreadable point under their fields', () => {
    const built = placeBody({ ...emptyPlace('Карьер'), point: 'где-то тут', radius_m: '10' });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(Object.keys(built.errors).sort()).toEqual(['point', 'radius_m']);
  });

  it('no point is allowed: lat and lon null', () => {
    expect(placeBody(emptyPlace('Склад'))).toMatchObject({ ok: true, body: { lat: null, lon: null } });
  });
});

describe('vehicle card', () => {
  it('shows the plate as it will be stored while it is typed (Latin look-alikes, spaces, case)', () => {
    expect(plateHint('a 123 bc 77', { foreign: false })).toEqual({ ok: true, text: 'Будет сохранён как А123ВС 77' });
    expect(plateHint('Z123ВС77', { foreign: false })?.ok).toBe(false);
    expect(plateHint('Z123ВС77', { foreign: true })).toEqual({ ok: true, text: 'Будет сохранён как Z123ВС77' });
  });

  it('capacity with a decimal comma; a wrong trailer plate refused under its field', () => {
    expect(vehicleBody({ ...emptyVehicle(), plate: 'А123ВС77', capacity_t: '22,5' })).toMatchObject({ ok: true, body: { capacity_t: 22.5, trailer_plate: null } });
    const built = vehicleBody({ ...emptyVehicle(), plate: 'А123ВС77', trailer_plate: 'XX' });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(Object.keys(built.errors)).toEqual(['trailer_plate']);
  });
});
