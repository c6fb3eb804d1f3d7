/**
 * The registers' calls (issue 31; docs/registers.md): counterparties, places, the fleet, the carrier's requisites,
 * a driver's licence and fleet vehicle — each call's happy path and refusals (a Russian detail naming the field),
 * the 409s, archive-when-used, another company's 404.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeUser, makeWorld, withAccessToken, type World } from '../fixtures/accounts.ts';
import { createTask, dayFromToday, addDriver } from '../fixtures/tasks.ts';
import { makeCounterparty, makePlace, makeVehicle, randomInn10, randomPlate } from '../fixtures/registers.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';
import { zodDetail } from '../../server/errors.ts';
import { mapTilesFromEnv } from '../../server/config.ts';
import { counterpartySchema } from '../../contract/requisites.ts';

const uid = () => randomUUID().slice(0, 6);

describe('zodDetail', () => {
  it('answers a message that starts with its Russian label as it is, and prefixes any other with the field', () => {
    const labelled = counterpartySchema.safeParse({ legal_form: 'ul', name: 'ООО', inn: '7707083894', roles: ['customer'] });
    expect(labelled.success).toBe(false);
    expect(zodDetail(labelled.error as z.ZodError)).toBe('ИНН: неверная контрольная цифра');
    const plain = z.object({ cargo: z.string().min(1, 'укажите груз') }).safeParse({ cargo: '' });
    expect(zodDetail(plain.error as z.ZodError)).toBe('cargo: укажите груз');
    // zod's own Russian messages name no field.
    const own = z.object({ role: z.enum(['driver', 'manager']) }).safeParse({ role: 'boss' });
    expect(zodDetail(own.error as z.ZodError)).toMatch(/^role: Неверный вариант: /);
    // A sentence with a colon is no label: five words before it.
    const sentence = z.object({ x: z.string().min(1, 'Очень длинное пояснение без метки поля: текст') }).safeParse({ x: '' });
    expect(zodDetail(sentence.error as z.ZodError)).toBe('x: Очень длинное пояснение без метки поля: текст');
  });
});

describe.each(backends)('registers ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  const asManager = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => call(s, method, url, { token: w.tokens.manager, body });

  describe('counterparties', () => {
    it('creates a card (201), lists it by name in any case and by ИНН, filters by role', async () => {
      const inn = randomInn10();
      const name = `ООО «Гранит-${uid()}»`;
      const created = await asManager('POST', '/api/counterparties/', {
        legal_form: 'ul',
        name,
        inn: `${inn.slice(0, 4)} ${inn.slice(4)}`,
        kpp: '773601001',
        ogrn: '1027700132195',
        roles: ['shipper', 'customer', 'customer'],
        phone: '+7 900 111-22-33',
        contact_name: 'Пётр',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ company_id: w.companyA, name, inn, kpp: '773601001', roles: ['customer', 'shipper'], archived_at: null, task_count: 0, address: null });
      const byName = await asManager('GET', `/api/counterparties/?q=${encodeURIComponent(name.toLowerCase().slice(5, 12))}`);
      expect(byName.body.items.map((c: { id: number }) => c.id)).toContain(created.body.id);
      const byInn = await asManager('GET', `/api/counterparties/?q=${inn.slice(0, 6)}`);
      expect(byInn.body.items.map((c: { id: number }) => c.id)).toEqual([created.body.id]);
      expect(byInn.body).toMatchObject({ total: 1, next_offset: null });
      const consignees = await asManager('GET', `/api/counterparties/?role=consignee&q=${inn}`);
      expect(consignees.body.items).toEqual([]);
    });

    it('refuses a bad card with the field and the reason in Russian', async () => {
      const bad = async (body: object) => (await asManager('POST', '/api/counterparties/', { legal_form: 'ul', name: 'ООО «Проверка»', roles: ['customer'], ...body })).body.detail;
      expect(await bad({ inn: '7707083894' })).toBe('ИНН: неверная контрольная цифра');
      expect(await bad({ inn: '770708389' })).toBe('ИНН: должен состоять из 10 цифр');
      expect(await bad({ inn: randomInn10(), ogrn: '1027700132196' })).toBe('ОГРН: неверная контрольная цифра');
      expect(await bad({ inn: randomInn10(), roles: [] })).toBe('Роли: укажите хотя бы одну — заказчик, грузоотправитель или грузополучатель');
      expect(await bad({ inn: randomInn10(), name: '' })).toBe('Название: обязательное поле');
      expect(await bad({ inn: randomInn10(), phone: 'звоните' })).toBe('Телефон: некорректный номер');
      expect(await bad({ inn: randomInn10(), extra: 1 })).toBe('extra: неизвестное поле');
      expect((await asManager('POST', '/api/counterparties/', { legal_form: 'ul', roles: ['customer'], inn: randomInn10() })).body.detail).toBe('Название: обязательное поле');
    });

    it('refuses a second card of the same ИНН + КПП with 409 naming the existing one; another КПП is a branch', async () => {
      const inn = randomInn10();
      const first = await asManager('POST', '/api/counterparties/', { legal_form: 'ul', name: 'ООО «Первый»', inn, kpp: '773601001', roles: ['customer'] });
      const dup = await asManager('POST', '/api/counterparties/', { legal_form: 'ul', name: 'ООО «Второй»', inn, kpp: '773601001', roles: ['consignee'] });
      expect(dup.status).toBe(409);
      expect(dup.body.detail).toBe(`ИНН: контрагент с ИНН ${inn} и КПП 773601001 уже есть — «ООО «Первый»» (№${first.body.id})`);
      const branch = await asManager('POST', '/api/counterparties/', { legal_form: 'ul', name: 'ООО «Первый», филиал', inn, kpp: '502701001', roles: ['consignee'] });
      expect(branch.status).toBe(201);
      // Changing the branch's КПП onto the first card's is the same clash.
      const clash = await asManager('PUT', `/api/counterparties/${branch.body.id}`, { legal_form: 'ul', name: 'ООО «Первый», филиал', inn, kpp: '773601001', roles: ['consignee'] });
      expect(clash.status).toBe(409);
      // Another company may have the same numbers.
      const other = await call(s, 'POST', '/api/counterparties/', { token: w.tokens.managerB, body: { legal_form: 'ul', name: 'ООО «Первый»', inn, kpp: '773601001', roles: ['customer'] } });
      expect(other.status).toBe(201);
    });

    it('changes the whole card; another company’s card is 404, a super-admin names the company', async () => {
      const id = await makeCounterparty(s, w.companyA, { roles: ['customer'] });
      const put = await asManager('PUT', `/api/counterparties/${id}`, { legal_form: 'fl', name: 'Иванов Иван', roles: ['consignee'], note: 'Частный дом' });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id, legal_form: 'fl', name: 'Иванов Иван', inn: null, roles: ['consignee'], note: 'Частный дом' });
      const foreign = await makeCounterparty(s, w.companyB);
      expect((await asManager('PUT', `/api/counterparties/${foreign}`, { legal_form: 'fl', name: 'Чужой', roles: ['customer'] })).status).toBe(404);
      expect((await asManager('DELETE', `/api/counterparties/${foreign}`)).body.detail).toBe('Контрагент не найден');
      expect((await asManager('GET', `/api/counterparties/?company_id=${w.companyB}`)).status).toBe(404);
      const noCompany = await call(s, 'POST', '/api/counterparties/', { token: w.tokens.super, body: { legal_form: 'fl', name: 'Петров', roles: ['customer'] } });
      expect(noCompany.status).toBe(400);
      expect(noCompany.body.detail).toBe('company_id: укажите компанию');
      const bySuper = await call(s, 'POST', `/api/counterparties/?company_id=${w.companyB}`, { token: w.tokens.super, body: { legal_form: 'fl', name: 'Петров', roles: ['customer'] } });
      expect(bySuper.body.company_id).toBe(w.companyB);
    });

    it('deletes an unused card and archives one a task names; the archive is listed apart and not linked anew', async () => {
      const unused = await makeCounterparty(s, w.companyA);
      expect((await asManager('DELETE', `/api/counterparties/${unused}`)).body).toMatchObject({ id: unused, outcome: 'deleted' });
      expect((await asManager('DELETE', `/api/counterparties/${unused}`)).status).toBe(404);

      const used = await makeCounterparty(s, w.companyA, { roles: ['customer'] });
      const task = await asManager('POST', '/api/tasks/', { date: dayFromToday(1), cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 20, customer_id: used });
      expect(task.status).toBe(201);
      const removal = await asManager('DELETE', `/api/counterparties/${used}`);
      expect(removal.status).toBe(200);
      expect(removal.body).toMatchObject({ id: used, company_id: w.companyA, outcome: 'archived' });
      expect(removal.body.detail).toMatch(/в архиве/);
      const active = await asManager('GET', '/api/counterparties/?limit=200');
      expect(active.body.items.map((c: { id: number }) => c.id)).not.toContain(used);
      const archived = await asManager('GET', '/api/counterparties/?archived=1&limit=200');
      expect(archived.body.items.find((c: { id: number }) => c.id === used)).toMatchObject({ task_count: 1, archived_at: expect.any(String) });
      // The task keeps it; a new task may not name it.
      expect((await asManager('GET', `/api/tasks/bulk?ids=${task.body.id}`)).body.items[0].customer).toMatchObject({ id: used });
      const again = await asManager('POST', '/api/tasks/', { date: dayFromToday(1), cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 20, customer_id: used });
      expect(again.status).toBe(400);
      expect(again.body.detail).toMatch(/^customer_id: «.+» в архиве$/);
    });
  });

  describe('places', () => {
    it('creates a place with its point, the radius 150 by default, and finds it by name or address', async () => {
      const name = `Карьер Гранит ${uid()}`;
      const res = await asManager('POST', '/api/places/', { name, address: 'Тверская обл., д. Луговая', lat: 56.1, lon: 35.9, driver_note: 'Ворота с 7:00' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name, lat: 56.1, lon: 35.9, radius_m: 150, counterparty: null, driver_note: 'Ворота с 7:00', task_count: 0 });
      const found = await asManager('GET', `/api/places/?q=${encodeURIComponent('луговая')}`);
      expect(found.body.items.map((p: { id: number }) => p.id)).toContain(res.body.id);
    });

    it('tells staff the server’s map tiles (MAP_TILE_URL) or null without them; a driver is refused', async () => {
      const before = s.config.mapTiles;
      try {
        s.config.mapTiles = null;
        expect((await asManager('GET', '/api/places/map-tiles')).body).toEqual({ tile_url: null, attribution: null });
        s.config.mapTiles = mapTilesFromEnv('https://tile.openstreetmap.org/{z}/{x}/{y}.png', undefined);
        const set = await call(s, 'GET', '/api/places/map-tiles', { token: w.tokens.admin });
        expect(set.status).toBe(200);
        expect(set.body).toEqual({ tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png', attribution: '© участники OpenStreetMap' });
        expect((await call(s, 'GET', '/api/places/map-tiles', { token: w.tokens.driver })).status).toBe(403);
      } finally {
        s.config.mapTiles = before;
      }
    });

    it('refuses a bad place naming the field', async () => {
      const bad = async (body: object) => (await asManager('POST', '/api/places/', { name: `Склад ${uid()}`, ...body })).body.detail;
      expect(await bad({ lat: 56.1 })).toBe('Координаты: укажите широту и долготу вместе');
      expect(await bad({ lat: 91, lon: 30 })).toBe('Широта: должна быть от −90 до 90');
      expect(await bad({ lat: 50, lon: '30' })).toBe('Долгота: ожидается число');
      expect(await bad({ radius_m: 10 })).toBe('Радиус: от 30 до 2000 м');
      expect(await bad({ name: '' })).toBe('Название: обязательное поле');
      expect(await bad({ counterparty_id: await makeCounterparty(s, w.companyB) })).toBe('Контрагент: не найден в компании');
    });

    it('refuses a second place of the same name (case and spaces aside) with 409; an archived one frees the name', async () => {
      const name = `Склад Север ${uid()}`;
      const first = await asManager('POST', '/api/places/', { name });
      const dup = await asManager('POST', '/api/places/', { name: `  ${name.toUpperCase()}  ` });
      expect(dup.status).toBe(409);
      expect(dup.body.detail).toBe(`Название: место «${name}» уже есть (№${first.body.id})`);
      await asManager('DELETE', `/api/places/${first.body.id}`);
      expect((await asManager('POST', '/api/places/', { name })).status).toBe(201);
    });

    it('renaming a place renames its tasks’ texts; a used place is archived, an unused one deleted; another company’s is 404', async () => {
      const place = await makePlace(s, w.companyA, { name: `Объект ${uid()}` });
      const task = await asManager('POST', '/api/tasks/', { date: dayFromToday(1), cargo: 'Песок', loading_place: 'Карьер', unloading_place_id: place, planned_quantity: 20 });
      const renamed = await asManager('PUT', `/api/places/${place}`, { name: 'ЖК «Речной»', address: 'ул. Речная, 1', lat: 55.7, lon: 37.6, radius_m: 300 });
      expect(renamed.body).toMatchObject({ name: 'ЖК «Речной»', radius_m: 300, driver_note: null, task_count: 1 });
      const after = (await asManager('GET', `/api/tasks/bulk?ids=${task.body.id}`)).body.items[0];
      expect(after.unloading_place).toBe('ЖК «Речной»');
      expect(after.unloading).toEqual({ id: place, name: 'ЖК «Речной»', address: 'ул. Речная, 1', lat: 55.7, lon: 37.6, radius_m: 300, driver_note: null });
      expect((await asManager('DELETE', `/api/places/${place}`)).body.outcome).toBe('archived');
      expect((await asManager('DELETE', `/api/places/${await makePlace(s, w.companyA)}`)).body.outcome).toBe('deleted');
      const foreign = await makePlace(s, w.companyB);
      expect((await asManager('PUT', `/api/places/${foreign}`, { name: 'Чужое' })).status).toBe(404);
      expect((await asManager('DELETE', `/api/places/${foreign}`)).body.detail).toBe('Место не найдено');
    });
  });

  describe('restore from the archive', () => {
    it('an archived counterparty comes back: listed in use again, offered for new tasks; another company’s is 404', async () => {
      const card = await makeCounterparty(s, w.companyA, { roles: ['customer'], archived: true });
      expect((await asManager('GET', '/api/counterparties/?archived=1&limit=200')).body.items.map((c: { id: number }) => c.id)).toContain(card);
      const restored = await asManager('POST', `/api/counterparties/${card}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id: card, archived_at: null });
      expect((await asManager('GET', '/api/counterparties/?limit=200')).body.items.map((c: { id: number }) => c.id)).toContain(card);
      expect((await asManager('GET', '/api/counterparties/?archived=1&limit=200')).body.items.map((c: { id: number }) => c.id)).not.toContain(card);
      const task = await asManager('POST', '/api/tasks/', { date: dayFromToday(1), cargo: 'Песок', loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 20, customer_id: card });
      expect(task.status).toBe(201);
      // One in use is answered as it is.
      expect((await asManager('POST', `/api/counterparties/${card}/restore`)).body).toMatchObject({ id: card, archived_at: null });
      const foreign = await makeCounterparty(s, w.companyB, { archived: true });
      expect((await asManager('POST', `/api/counterparties/${foreign}/restore`)).body.detail).toBe('Контрагент не найден');
    });

    it('an archived place comes back unless a place in use has taken its name: then 409 naming it', async () => {
      const name = `Карьер ${uid()}`;
      const place = await makePlace(s, w.companyA, { name, archived: true });
      const back = await asManager('POST', `/api/places/${place}/restore`);
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ id: place, name, archived_at: null });
      expect((await asManager('GET', `/api/places/?q=${encodeURIComponent(name)}`)).body.items.map((p: { id: number }) => p.id)).toEqual([place]);

      const old = await makePlace(s, w.companyA, { name: `Объект ${uid()}`, archived: true });
      const oldName = (await s.db.kysely.selectFrom('places').select('name').where('id', '=', old).executeTakeFirstOrThrow()).name;
      const taken = await makePlace(s, w.companyA, { name: oldName.toUpperCase() });
      const refused = await asManager('POST', `/api/places/${old}/restore`);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toBe(`Название: место «${oldName.toUpperCase()}» уже есть (№${taken}) — переименуйте одно из них, чтобы восстановить это`);
      expect((await s.db.kysely.selectFrom('places').select('archived_at').where('id', '=', old).executeTakeFirstOrThrow()).archived_at).not.toBeNull();
    });
  });

  describe('vehicles', () => {
    it('creates a vehicle with its plate normalised (Latin look-alikes, spaces, case), finds it as typed, refuses a duplicate with 409', async () => {
      const res = await asManager('POST', '/api/vehicles/', {
        plate: 'x 321 km 197',
        make: 'КАМАЗ',
        model: '65115',
        body_type: 'dump_truck',
        ownership: 'rent',
        capacity_t: 15,
        volume_m3: 10,
        trailer_plate: 'ax 1234 77',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ plate: 'Х321КМ 197', trailer_plate: 'АХ1234 77', body_type: 'dump_truck', ownership: 'rent', is_foreign: false, is_active: true, drivers: [] });
      const found = await asManager('GET', '/api/vehicles/?q=x321');
      expect(found.body.items.map((v: { id: number }) => v.id)).toContain(res.body.id);
      const dup = await asManager('POST', '/api/vehicles/', { plate: 'Х321КМ197' });
      expect(dup.status).toBe(409);
      expect(dup.body.detail).toBe(`Госномер: машина Х321КМ 197 уже есть в парке (№${res.body.id})`);
      // Another company's fleet may have the same plate.
      expect((await call(s, 'POST', '/api/vehicles/', { token: w.tokens.managerB, body: { plate: 'Х321КМ 197' } })).status).toBe(201);
    });

    it('refuses a bad vehicle naming the field; a foreign plate is taken when marked so', async () => {
      const bad = async (body: object) => (await asManager('POST', '/api/vehicles/', { plate: randomPlate(), ...body })).body.detail;
      expect(await bad({ plate: 'Z123ZZ 77' })).toMatch(/^Госномер: буква «Z» не бывает в российских номерах/);
      expect(await bad({ plate: '' })).toBe('Госномер: обязательное поле');
      expect(await bad({ capacity_t: 225 })).toBe('Грузоподъёмность: не больше 60 т — проверьте запятую');
      expect(await bad({ body_type: 'самосвал' })).toMatch(/^Тип кузова: ожидается одно из dump_truck/);
      expect(await bad({ ownership: 'own', trailer_plate: '123' })).toMatch(/^Госномер прицепа: /);
      const foreign = await asManager('POST', '/api/vehicles/', { plate: `01 ${uid()} kz`, is_foreign: true });
      expect(foreign.status).toBe(201);
      expect(foreign.body.is_foreign).toBe(true);
    });

    it('changes a vehicle and takes it out of service; inactive ones are left out with active=1; another company’s is 404', async () => {
      const id = await makeVehicle(s, w.companyA);
      const plate = randomPlate();
      const put = await asManager('PUT', `/api/vehicles/${id}`, { plate, ownership: 'leasing', is_active: false });
      expect(put.body).toMatchObject({ id, plate, ownership: 'leasing', is_active: false, make: null });
      expect((await asManager('GET', '/api/vehicles/?active=1&limit=200')).body.items.map((v: { id: number }) => v.id)).not.toContain(id);
      expect((await asManager('GET', '/api/vehicles/?limit=200')).body.items.map((v: { id: number }) => v.id)).toContain(id);
      expect((await asManager('PUT', `/api/vehicles/${await makeVehicle(s, w.companyB)}`, { plate: randomPlate() })).status).toBe(404);
    });
  });

  describe('the carrier’s requisites and the driver’s card', () => {
    it('saves the company’s requisites on PUT /companies/{id} and answers them on GET; refusals name the field', async () => {
      const put = await call(s, 'PUT', `/api/companies/${w.companyA}`, {
        token: w.tokens.admin,
        body: { name: `ООО «Перевозчик ${uid()}»`, full_name: 'Общество с ограниченной ответственностью «Перевозчик»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', address: 'Москва', phone: '+7 495 000-00-00' },
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: w.companyA, inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', address: 'Москва' });
      const got = await call(s, 'GET', `/api/companies/${w.companyA}`, { token: w.tokens.manager });
      expect(got.body).toEqual(put.body);
      // Only what is sent changes; empty text clears.
      const cleared = await call(s, 'PUT', `/api/companies/${w.companyA}`, { token: w.tokens.admin, body: { name: put.body.name, address: '' } });
      expect(cleared.body).toMatchObject({ inn: '7707083893', address: null });
      const bad = await call(s, 'PUT', `/api/companies/${w.companyA}`, { token: w.tokens.admin, body: { name: put.body.name, inn: '500100732259', kpp: '773601001' } });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBe('КПП: бывает только у юридического лица');
      expect((await call(s, 'GET', `/api/companies/${w.companyB}`, { token: w.tokens.manager })).status).toBe(404);
    });

    it('sets a driver’s fleet vehicle and licence; a vehicle of another company or out of service is refused', async () => {
      const driver = await makeUser(s, 'driver', w.companyA);
      const vehicle = await makeVehicle(s, w.companyA, { capacity_t: 12 });
      const res = await asManager('PUT', `/api/users/drivers/${driver.id}/`, { vehicle_id: vehicle, license_number: '77 12-345678', license_issued: '2020-05-17' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ vehicle_id: vehicle, vehicle: { id: vehicle, capacity_t: 12, make: 'КАМАЗ' }, license_series: '77 12', license_number: '345678', license_issued: '2020-05-17' });
      const fleet = await asManager('GET', '/api/vehicles/?limit=200');
      expect(fleet.body.items.find((v: { id: number }) => v.id === vehicle).drivers).toEqual([{ id: driver.id, name: driver.name }]);
      const foreign = await asManager('PUT', `/api/users/drivers/${driver.id}/`, { vehicle_id: await makeVehicle(s, w.companyB) });
      expect(foreign.body.detail).toBe('Машина: не найдена в парке компании');
      const retired = await makeVehicle(s, w.companyA, { is_active: false });
      expect((await asManager('PUT', `/api/users/drivers/${driver.id}/`, { vehicle_id: retired })).body.detail).toMatch(/^Машина: .+ выведена из работы/);
      expect((await asManager('PUT', `/api/users/drivers/${driver.id}/`, { license_number: '12345' })).body.detail).toBe(
        'Номер удостоверения: ожидается 6 цифр, например 345678 (или серия и номер: 77 12 345678)',
      );
      const cleared = await asManager('PUT', `/api/users/drivers/${driver.id}/`, { vehicle_id: null, license_number: '' });
      expect(cleared.body).toMatchObject({ vehicle_id: null, vehicle: null, license_series: null, license_number: null, license_issued: '2020-05-17' });
    });

    it('checks a load against the fleet vehicle’s capacity where the driver has one', async () => {
      // His own list says 20 t; the fleet vehicle on his card carries 10 t.
      const driver = await withAccessToken(s, await makeUser(s, 'driver', w.companyA, { vehicle: randomPlate() }));
      await asManager('PUT', `/api/users/drivers/${driver.id}/`, { vehicle_id: await makeVehicle(s, w.companyA, { capacity_t: 10 }) });
      const task = await createTask(s, w.companyA, { date: dayFromToday(0) });
      const association = await addDriver(s, task, driver.id, { status: 'accepted' });
      const { payload, headers } = await encodeForm(reportForm({ association_id: association, quantity: '15' }, [{ data: JPEG_8x6, filename: 'a.jpg' }]));
      const res = await s.app.inject({ method: 'POST', url: '/api/reports/', payload, headers: { ...headers, authorization: `Bearer ${driver.token}`, 'idempotency-key': randomUUID() } });
      expect(res.statusCode).toBe(201);
      expect(res.json().flags.map((f: { code: string }) => f.code)).toContain('over_capacity');
    });
  });
});
