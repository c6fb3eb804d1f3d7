/**
 * Trip sheets (contract/trip-sheets.ts, server/trip-sheets/sheets.ts, docs/trip-sheets.md): a vehicle's day numbered
 * per company per year without gaps, the staff's checks, the driver's odometer once per reading, the sheet's own
 * consistency refused in Russian, another company's sheet never seen.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import type { TripSheet } from '../../contract/trip-sheets.ts';
import type { Page } from '../../contract/entities.ts';
import { encodeForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';

describe.each(backends)('trip sheets ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let manager: SignedInUser;
  let driver: SignedInUser;
  let otherDriver: SignedInUser;
  let foreignManager: SignedInUser;
  let vehicle: number;
  let vehicle2: number;
  let foreignVehicle: number;
  let companyId: number;

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  const newVehicle = async (token: string, plate: string) => {
    const made = await call<{ id: number }>(s, 'POST', '/api/vehicles/', { token, body: { plate, make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'own', capacity_t: 20 } });
    expect(made.status).toBe(201);
    return made.body.id;
  };

  beforeAll(async () => {
    const company = await makeCompany(s);
    companyId = company;
    const other = await makeCompany(s);
    manager = await withAccessToken(s, await makeUser(s, 'manager', company));
    driver = await withAccessToken(s, await makeUser(s, 'driver', company));
    otherDriver = await withAccessToken(s, await makeUser(s, 'driver', company));
    foreignManager = await withAccessToken(s, await makeUser(s, 'manager', other));
    await s.db.kysely.updateTable('users').set({ license_number: '77 12 345678' }).where('id', '=', driver.id).execute();
    vehicle = await newVehicle(manager.token, 'А123ВС77');
    vehicle2 = await newVehicle(manager.token, 'В456ОР77');
    foreignVehicle = await newVehicle(foreignManager.token, 'Е789КХ99');
  });

  it('opens a vehicle’s day numbered 1, 2 in the year; the same vehicle’s day again is 409; another company’s vehicle or a driver is 400', async () => {
    const first = await call<TripSheet>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: driver.id, date: '2026-11-27' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ number: 1, year: 2026, date: '2026-11-27', vehicle: { plate: 'А123ВС 77', make: 'КАМАЗ' }, driver: { license_number: '77 12 345678' } });
    expect(first.body.missing).toEqual([
      'предрейсовый медосмотр',
      'предрейсовый техосмотр',
      'показание одометра при выезде',
      'время выезда',
      'показание одометра при возвращении',
      'время возвращения',
      'послерейсовый медосмотр',
    ]);
    const second = await call<TripSheet>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle2, driver_id: otherDriver.id, date: '2026-11-27' } });
    expect(second.body.number).toBe(2);
    expect(second.body.missing[0]).toBe('номер водительского удостоверения (карточка водителя)');

    const again = await call<{ detail: string }>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: otherDriver.id, date: '2026-11-27' } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('У этой машины на 27.11.2026 уже есть путевой лист № 1');
    const foreign = await call<{ detail: string }>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: foreignVehicle, driver_id: driver.id, date: '2026-11-27' } });
    expect(foreign.status).toBe(400);
    expect(foreign.body.detail).toContain('машина не найдена в парке компании');
    const notDriver = await call<{ detail: string }>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: manager.id, date: '2026-11-28' } });
    expect(notDriver.status).toBe(400);
    expect(notDriver.body.detail).toContain('водитель не найден');
    const badDate = await call<{ detail: string }>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: driver.id, date: '27.11.2026' } });
    expect(badDate.status).toBe(400);

    const list = await call<Page<TripSheet>>(s, 'GET', '/api/trip-sheets/?date=2026-11-27', { token: manager.token });
    expect(list.body.items.map((x) => x.number)).toEqual([2, 1]);
    expect((await call<Page<TripSheet>>(s, 'GET', '/api/trip-sheets/?date=2026-11-27', { token: foreignManager.token })).body.total).toBe(0);
    // Searched by a plate as typed (Latin look-alikes, spaces) or by part of the driver's name.
    const byPlate = await call<Page<TripSheet>>(s, 'GET', `/api/trip-sheets/?q=${encodeURIComponent('b456 op')}`, { token: manager.token });
    expect(byPlate.body.items.map((x) => x.number)).toEqual([2]);
    await s.db.kysely.updateTable('users').set({ name: 'Пётр Соколов' }).where('id', '=', driver.id).execute();
    const byName = await call<Page<TripSheet>>(s, 'GET', `/api/trip-sheets/?q=${encodeURIComponent('соколов')}`, { token: manager.token });
    expect(byName.body.items.map((x) => x.number)).toEqual([1]);
  });

  it('the driver reads his sheet and records the odometer once per reading; staff record the checks; a complete sheet lacks nothing', async () => {
    const mine = await call<TripSheet | null>(s, 'GET', '/api/trip-sheets/mine?date=2026-11-27', { token: driver.token });
    expect(mine.body?.number).toBe(1);
    const id = mine.body?.id as number;
    expect((await call(s, 'GET', '/api/trip-sheets/mine?date=2026-11-26', { token: driver.token })).body).toBeNull();

    const end = await call<{ detail: string }>(s, 'PUT', `/api/trip-sheets/${id}/odometer/end`, { token: driver.token, body: { value: 120_400, at: '2026-11-27T18:00:00+03:00' } });
    expect(end.status).toBe(409);
    expect(end.body.detail).toBe('Сначала запишите показание одометра при выезде');

    const start = await call<TripSheet>(s, 'PUT', `/api/trip-sheets/${id}/odometer/start`, { token: driver.token, body: { value: 120_000, at: '2026-11-27T07:05:00+03:00' } });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ odometer_start: 120_000, departure_at: '2026-11-27T07:05:00+03:00' });
    // The outbox's replay answers the same sheet; another value is staff's to correct.
    const replay = await call<TripSheet>(s, 'PUT', `/api/trip-sheets/${id}/odometer/start`, { token: driver.token, body: { value: 120_000, at: '2026-11-27T07:09:00+03:00' } });
    expect(replay.body.departure_at).toBe('2026-11-27T07:05:00+03:00');
    const changed = await call<{ detail: string }>(s, 'PUT', `/api/trip-sheets/${id}/odometer/start`, { token: driver.token, body: { value: 120_100, at: '2026-11-27T07:09:00+03:00' } });
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toContain('уже записано: 120000 км');

    const lower = await call<{ detail: string }>(s, 'PUT', `/api/trip-sheets/${id}/odometer/end`, { token: driver.token, body: { value: 119_000, at: '2026-11-27T18:00:00+03:00' } });
    expect(lower.status).toBe(400);
    expect(lower.body.detail).toContain('показание при возвращении (119000 км) меньше, чем при выезде (120000 км)');
    const badWhich = await call<{ detail: string }>(s, 'PUT', `/api/trip-sheets/${id}/odometer/middle`, { token: driver.token, body: { value: 1, at: '2026-11-27T18:00:00+03:00' } });
    expect(badWhich.status).toBe(400);
    expect(badWhich.body.detail).toContain('start (выезд) или end (возвращение)');
    expect((await call(s, 'PUT', `/api/trip-sheets/${id}/odometer/end`, { token: otherDriver.token, body: { value: 120_400, at: '2026-11-27T18:00:00+03:00' } })).status).toBe(404);

    await call(s, 'PUT', `/api/trip-sheets/${id}/odometer/end`, { token: driver.token, body: { value: 120_412, at: '2026-11-27T18:10:00+03:00' } });
    const late = await call<{ detail: string }>(s, 'PUT', `/api/trip-sheets/${id}`, { token: manager.token, body: { pre_medical: { at: '2026-11-27T08:00:00+03:00', name: 'Сидорова А. В.' } } });
    expect(late.status).toBe(400);
    expect(late.body.detail).toBe('pre_medical: предрейсовый медосмотр позже выезда');
    const done = await call<TripSheet>(s, 'PUT', `/api/trip-sheets/${id}`, {
      token: manager.token,
      body: {
        pre_medical: { at: '2026-11-27T06:40:00+03:00', name: 'Сидорова А. В.' },
        pre_technical: { at: '2026-11-27T06:50:00+03:00', name: 'Кузнецов П. И.' },
        post_medical: { at: '2026-11-27T18:20:00+03:00', name: 'Сидорова А. В.' },
      },
    });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ distance_km: 412, missing: [], return_at: '2026-11-27T18:10:00+03:00' });
    expect((await call(s, 'PUT', `/api/trip-sheets/${id}`, { token: foreignManager.token, body: { odometer_end: 1 } })).status).toBe(404);
  });

  /** The sheet's PDF as pdftotext reads it (poppler-utils), white space made single. */
  async function pdfText(id: number, token: string): Promise<string> {
    const res = await s.app.inject({ method: 'GET', url: `/api/trip-sheets/${id}.pdf`, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const dir = mkdtempSync(join(tmpdir(), 'reis-sheet-'));
    try {
      writeFileSync(join(dir, 'sheet.pdf'), res.rawPayload);
      return execFileSync('pdftotext', ['-enc', 'UTF-8', join(dir, 'sheet.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('GET /trip-sheets/{id}.pdf: the sheet on A4 in Cyrillic (number, owner, plate, driver, medic, mechanic, odometer); an empty one leaves its boxes empty; another company’s is 404', async () => {
    await s.db.kysely.updateTable('companies').set({ full_name: 'ООО «Рейс-Тест»', inn: '7707083893', ogrn: '1027700132195' }).where('id', '=', companyId).execute();
    const [two, one] = (await call<Page<TripSheet>>(s, 'GET', '/api/trip-sheets/?date=2026-11-27', { token: manager.token })).body.items as [TripSheet, TripSheet];
    const res = await s.app.inject({ method: 'GET', url: `/api/trip-sheets/${one.id}.pdf`, headers: manager.auth });
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('Путевой лист № 1.pdf'));
    const full = await pdfText(one.id, manager.token);
    for (const fact of ['ПУТЕВОЙ ЛИСТ № 1', '1/2026', '27.11.2026', 'ООО «Рейс-Тест»', '7707083893', '1027700132195', 'А123ВС 77', 'КАМАЗ 65115', 'Самосвал', 'Собственность', 'Пётр Соколов', '77 12 345678', 'Сидорова А. В.', 'Кузнецов П. И.', '06:40', '06:50', '18:20', '120 000 км', '120 412 км', '07:05', '18:10', '412 км']) {
      expect(full, fact).toContain(fact);
    }
    expect(full).not.toContain('Не заполнено');

    const empty = await pdfText(two.id, manager.token);
    expect(empty).toContain('ПУТЕВОЙ ЛИСТ № 2');
    expect(empty).toContain('В456ОР 77');
    expect(empty).toContain('Предрейсовый медицинский осмотр');
    expect(empty).toContain('Не заполнено: номер водительского удостоверения (карточка водителя); предрейсовый медосмотр');
    expect(empty).not.toMatch(/null|undefined|NaN/);

    const foreign = await call<{ detail: string }>(s, 'GET', `/api/trip-sheets/${one.id}.pdf`, { token: foreignManager.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe('Путевой лист не найден');
    expect((await call(s, 'GET', '/api/trip-sheets/first.pdf', { token: manager.token })).status).toBe(400);
    expect((await call(s, 'GET', `/api/trip-sheets/${one.id}.pdf`, { token: driver.token })).status).toBe(403);
  });

  it('deletes only the year’s last empty sheet: numbers run without gaps, a filled sheet stays', async () => {
    const list = (await call<Page<TripSheet>>(s, 'GET', '/api/trip-sheets/?date=2026-11-27', { token: manager.token })).body.items;
    const [two, one] = list as [TripSheet, TripSheet];
    // The list says which one DELETE takes: the year's last, still empty.
    expect([two.can_delete, one.can_delete]).toEqual([true, false]);
    const filled = await call<{ detail: string }>(s, 'DELETE', `/api/trip-sheets/${one.id}`, { token: manager.token });
    expect(filled.status).toBe(409);
    expect(filled.body.detail).toBe('Путевой лист № 1 уже заполнен: удалить его нельзя');
    expect((await call(s, 'DELETE', `/api/trip-sheets/${two.id}`, { token: foreignManager.token })).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/trip-sheets/${two.id}`, { token: manager.token })).status).toBe(204);
    const next = await call<TripSheet>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle2, driver_id: otherDriver.id, date: '2026-11-28' } });
    expect(next.body.number).toBe(2);
    expect(next.body.can_delete).toBe(true);
    // An empty sheet that is no longer the year's last cannot go either.
    await call(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: driver.id, date: '2026-11-28' } });
    const day = (await call<Page<TripSheet>>(s, 'GET', '/api/trip-sheets/?date=2026-11-28', { token: manager.token })).body.items;
    expect(day.map((x) => [x.number, x.can_delete])).toEqual([
      [3, true],
      [2, false],
    ]);
  });

  it('the driver’s reading with the dashboard’s photo (multipart, as the outbox sends it): stored once, a replay answers it without a second file; the photo for the driver and his staff only', async () => {
    const made = await call<TripSheet>(s, 'POST', '/api/trip-sheets/', { token: manager.token, body: { vehicle_id: vehicle, driver_id: driver.id, date: '2026-12-02' } });
    expect(made.status).toBe(201);
    const id = made.body.id;
    const send = async (value: number, withPhoto: boolean, extra?: (form: FormData) => void) => {
      const form = new FormData();
      form.append('data', JSON.stringify({ value, at: '2026-12-02T06:55:00+03:00' }));
      if (withPhoto) form.append('photo', new Blob([JPEG_8x6], { type: 'image/jpeg' }), 'dashboard.jpg');
      extra?.(form);
      const { payload, headers } = await encodeForm(form);
      const res = await s.app.inject({ method: 'PUT', url: `/api/trip-sheets/${id}/odometer/start`, payload, headers: { ...headers, authorization: `Bearer ${driver.token}` } });
      return { status: res.statusCode, body: res.json() as TripSheet & { detail: string } };
    };
    const files = async () => (await s.db.kysely.selectFrom('trip_sheets').select('odometer_start_photo').where('id', '=', id).executeTakeFirstOrThrow()).odometer_start_photo;

    const two = await send(120_400, true, (form) => form.append('photo', new Blob([JPEG_8x6], { type: 'image/jpeg' }), 'second.jpg'));
    expect(two.status).toBe(400);
    expect(two.body.detail).toBe('photo: к показанию одометра прилагается одно фото');

    const first = await send(120_400, true);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ odometer_start: 120_400, odometer_start_photo: true, odometer_end_photo: false, departure_at: '2026-12-02T06:55:00+03:00' });
    const key = await files();
    expect(key).not.toBeNull();
    // The outbox delivering it again: the same answer, the first photo kept.
    const replay = await send(120_400, true);
    expect(replay.status).toBe(200);
    expect(replay.body.odometer_start).toBe(120_400);
    expect(await files()).toBe(key);
    const other = await send(120_500, true);
    expect(other.status).toBe(409);

    const photo = (token: string) => s.app.inject({ method: 'GET', url: `/api/trip-sheets/${id}/odometer/start/photo`, headers: { authorization: `Bearer ${token}` } });
    for (const token of [driver.token, manager.token]) {
      const res = await photo(token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\//);
      expect(res.rawPayload.length).toBeGreaterThan(0);
    }
    for (const token of [otherDriver.token, foreignManager.token]) expect((await photo(token)).statusCode).toBe(404);
    const none = await s.app.inject({ method: 'GET', url: `/api/trip-sheets/${id}/odometer/end/photo`, headers: { authorization: `Bearer ${manager.token}` } });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ detail: 'Фото одометра нет' });
  });
});
