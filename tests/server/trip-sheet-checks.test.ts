/**
 * The medic's and the mechanic's lists imported onto the day's trip sheets (POST /trip-sheets/checks;
 * contract/trip-sheet-checks.ts, docs/trip-sheets.md): each row matched by the driver's name or the plate, its mark
 * made where the sheet has none, every other row answered with why in Russian; another company's sheets never touched.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import type { TripSheet } from '../../contract/trip-sheets.ts';
import type { Page } from '../../contract/entities.ts';
import type { CheckImportResult } from '../../contract/trip-sheet-checks.ts';

const DAY = '2026-11-27';

describe.each(backends)('the medic’s and the mechanic’s lists ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let manager: SignedInUser;
  let foreignManager: SignedInUser;
  const sheets: Record<string, number> = {};

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  const vehicle = async (token: string, plate: string) =>
    (await call<{ id: number }>(s, 'POST', '/api/vehicles/', { token, body: { plate, make: 'КАМАЗ', model: '65115', body_type: 'dump_truck', ownership: 'own', capacity_t: 20 } })).body.id;
  const sheet = async (token: string, vehicleId: number, driverId: number) =>
    (await call<TripSheet>(s, 'POST', '/api/trip-sheets/', { token, body: { vehicle_id: vehicleId, driver_id: driverId, date: DAY } })).body.id;
  const byId = async (id: number) => (await call<Page<TripSheet>>(s, 'GET', `/api/trip-sheets/?date=${DAY}`, { token: manager.token })).body.items.find((x) => x.id === id) as TripSheet;
  const post = (body: unknown, token = manager.token) => call<CheckImportResult & { detail: string }>(s, 'POST', '/api/trip-sheets/checks', { token, body });

  beforeAll(async () => {
    const company = await makeCompany(s);
    const other = await makeCompany(s);
    manager = await withAccessToken(s, await makeUser(s, 'manager', company));
    foreignManager = await withAccessToken(s, await makeUser(s, 'manager', other));
    const ivanov = await makeUser(s, 'driver', company, { name: 'Иванов Пётр Сергеевич' });
    const petrov = await makeUser(s, 'driver', company, { name: 'Петров Олег Ильич' });
    const sidorov = await makeUser(s, 'driver', company, { name: 'Сидоров Артём Ильич' });
    const foreignIvanov = await makeUser(s, 'driver', other, { name: 'Иванов Пётр Сергеевич' });
    sheets.ivanov = await sheet(manager.token, await vehicle(manager.token, 'А123ВС77'), ivanov.id);
    sheets.petrov = await sheet(manager.token, await vehicle(manager.token, 'В456ОР77'), petrov.id);
    sheets.sidorov = await sheet(manager.token, await vehicle(manager.token, 'Е789КХ77'), sidorov.id);
    sheets.foreign = await sheet(foreignManager.token, await vehicle(foreignManager.token, 'К111КК99'), foreignIvanov.id);
    // Сидоров left at 06:30: a pre-trip check recorded after it would break the sheet's order.
    await call(s, 'PUT', `/api/trip-sheets/${sheets.sidorov}`, { token: manager.token, body: { departure_at: `${DAY}T06:30:00+03:00` } });
  });

  it('the medic’s journal (semicolon CSV, names with initials): marks made on the matching sheets; the not admitted, the unknown and the out-of-order rows refused with why; the same list again unchanged', async () => {
    const journal = [
      'Дата;Время;ФИО водителя;Результат;ФИО медработника',
      `27.11.2026;06:40;Иванов П. С.;Допущен;"Смирнова А. В."`,
      `27.11.2026;06:45;Петров Олег Ильич;Не допущен;Смирнова А. В.`,
      `27.11.2026;06:50;Сидоров А.И.;Допущен;Смирнова А. В.`,
      `27.11.2026;06:55;Кузнецов И. И.;Допущен;Смирнова А. В.`,
      `31.11.2026;07:00;Иванов П. С.;Допущен;Смирнова А. В.`,
      '',
    ].join('\r\n');
    const first = await post({ kind: 'pre_medical', text: journal });
    expect(first.status).toBe(200);
    expect(first.body.recorded).toBe(1);
    expect(first.body.outcomes.map((o) => [o.line, o.outcome, o.sheet_id, o.detail])).toEqual([
      [2, 'recorded', sheets.ivanov, null],
      [3, 'refused', sheets.petrov, 'водитель не допущен — отметка не ставится'],
      [4, 'refused', sheets.sidorov, 'предрейсовый медосмотр позже выезда'],
      [5, 'refused', null, 'нет путевого листа водителя Кузнецов И. И. на 27.11.2026'],
      [6, 'refused', null, 'дата «31.11.2026» не прочитана (ожидается ДД.ММ.ГГГГ)'],
    ]);
    const ivanov = await byId(sheets.ivanov as number);
    expect(ivanov.pre_medical).toEqual({ at: `${DAY}T06:40:00+03:00`, name: 'Смирнова А. В.' });
    expect(ivanov.missing).not.toContain('предрейсовый медосмотр');
    expect((await byId(sheets.petrov as number)).pre_medical).toBeNull();
    expect((await byId(sheets.sidorov as number)).pre_medical).toBeNull();
    // Another company's driver of the same name is never matched: its sheet is untouched.
    const foreign = (await call<Page<TripSheet>>(s, 'GET', `/api/trip-sheets/?date=${DAY}`, { token: foreignManager.token })).body.items[0];
    expect(foreign?.pre_medical).toBeNull();

    // The same list again: the mark already there is unchanged; another time over it is refused, never overwritten.
    const again = await post({ kind: 'pre_medical', text: journal });
    expect(again.body.outcomes[0]).toMatchObject({ outcome: 'unchanged', sheet_id: sheets.ivanov });
    const other = await post({ kind: 'pre_medical', text: 'Дата;Время;ФИО водителя;ФИО медработника\n27.11.2026;07:10;Иванов П. С.;Орлова Е. Н.' });
    expect(other.body.outcomes).toEqual([
      { line: 2, outcome: 'refused', sheet_id: sheets.ivanov, sheet_number: expect.any(Number), detail: 'предрейсовый медосмотр уже отмечен: 06:40, Смирнова А. В. — исправить можно в путевом листе' },
    ]);
    expect((await byId(sheets.ivanov as number)).pre_medical?.name).toBe('Смирнова А. В.');
  });

  it('the mechanic’s list pasted from a spreadsheet (tabs, plates as typed, the day chosen): the technical check by plate; a header without the needed columns is a 400 naming them', async () => {
    const list = ['Гос. номер\tВремя\tВыпуск\tМеханик', 'a123bc 77\t06:20\tВыпуск разрешён\tКузнецов П. И.', 'В456ОР77\t06:25\tНе выпущен\tКузнецов П. И.'].join('\n');
    const done = await post({ kind: 'pre_technical', text: list, date: DAY });
    expect(done.body.outcomes.map((o) => [o.outcome, o.sheet_id, o.detail])).toEqual([
      ['recorded', sheets.ivanov, null],
      ['refused', sheets.petrov, 'машина не выпущена — отметка не ставится'],
    ]);
    expect((await byId(sheets.ivanov as number)).pre_technical).toEqual({ at: `${DAY}T06:20:00+03:00`, name: 'Кузнецов П. И.' });
    // Without the day, rows without a date cannot be placed.
    expect((await post({ kind: 'pre_technical', text: list })).body.outcomes[0]?.detail).toBe('не указана дата: нет столбца «Дата» и не выбран день списка');

    const bad = await post({ kind: 'post_medical', text: 'Дата;Водитель\n27.11.2026;Иванов П. С.' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('text: В первой строке списка не найдены столбцы: кто провёл осмотр (например, «Медработник» или «Механик»), время');
    expect((await post({ kind: 'other', text: 'x' })).status).toBe(400);
    // Another company's list never reaches this company's sheets.
    const foreign = await post({ kind: 'post_medical', text: 'Дата;Время;Водитель;Медработник\n27.11.2026;19:00;Петров О. И.;Смирнова А. В.' }, foreignManager.token);
    expect(foreign.body.outcomes[0]).toMatchObject({ outcome: 'refused', sheet_id: null });
    expect((await byId(sheets.petrov as number)).post_medical).toBeNull();
  });
});
