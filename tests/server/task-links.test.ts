/**
 * Tasks name the registers' cards (issue 31; docs/registers.md): the customer, shipper and consignee, the loading
 * and unloading places — checked (the company's, the role, not archived for a new link), answered as objects to
 * staff, and to the driver only the places (never the counterparties' requisites); templates and «Повторять» carry
 * the ids.
 */
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeWorld, type World } from '../fixtures/accounts.ts';
import { addDriver, dayFromToday } from '../fixtures/tasks.ts';
import { makeCounterparty, makePlace } from '../fixtures/registers.ts';

describe.each(backends)('tasks name the registers ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => call(s, method, url, { token: w.tokens.manager, body });
  const base = () => ({ date: dayFromToday(1), cargo: 'Щебень', planned_quantity: 30 });

  it('links the cards, answers them as objects, and the places’ names become the texts', async () => {
    const customer = await makeCounterparty(s, w.companyA, { name: 'ООО «Заказчик»', roles: ['customer'] });
    const shipper = await makeCounterparty(s, w.companyA, { roles: ['shipper'] });
    const consignee = await makeCounterparty(s, w.companyA, { roles: ['consignee'] });
    const from = await makePlace(s, w.companyA, { name: 'Карьер Гранит', lat: 56.1, lon: 35.9, driver_note: 'Код ворот 1234' });
    const to = await makePlace(s, w.companyA, { name: 'ЖК Северный', lat: null, lon: null, address: null, driver_note: null });
    const res = await send('POST', '/api/tasks/', { ...base(), customer_id: customer, shipper_id: shipper, consignee_id: consignee, loading_place_id: from, unloading_place_id: to });
    expect(res.status).toBe(201);
    const inn = (await s.db.kysely.selectFrom('counterparties').select('inn').where('id', '=', customer).executeTakeFirstOrThrow()).inn;
    expect(res.body).toMatchObject({
      loading_place: 'Карьер Гранит',
      unloading_place: 'ЖК Северный',
      customer_id: customer,
      customer: { id: customer, name: 'ООО «Заказчик»', inn },
      shipper: { id: shipper },
      consignee: { id: consignee },
      loading_place_id: from,
      loading: { id: from, name: 'Карьер Гранит', address: 'Московская обл., Раменский р-н', lat: 56.1, lon: 35.9, radius_m: 150, driver_note: 'Код ворот 1234' },
      unloading: { id: to, name: 'ЖК Северный', address: null, lat: null, lon: null, radius_m: 150, driver_note: null },
    });
    // The staff lists answer the same objects.
    const list = await send('GET', `/api/tasks/completed/?status=all&search=${encodeURIComponent('Гранит')}&limit=200`);
    expect(list.body.items.find((t: { id: number }) => t.id === res.body.id)).toMatchObject({ customer: { id: customer }, loading: { id: from } });
  });

  it('refuses a card of another company, without the role, archived, or a missing place, naming the field', async () => {
    const detail = async (body: object) => {
      const res = await send('POST', '/api/tasks/', { ...base(), loading_place: 'Карьер', unloading_place: 'Объект', ...body });
      expect(res.status).toBe(400);
      return res.body.detail as string;
    };
    expect(await detail({ customer_id: await makeCounterparty(s, w.companyB) })).toBe('customer_id: контрагент не найден в компании');
    expect(await detail({ customer_id: await makeCounterparty(s, w.companyA, { name: 'ООО «Только получатель»', roles: ['consignee'] }) })).toBe(
      'customer_id: «ООО «Только получатель»» не отмечен как заказчик',
    );
    expect(await detail({ shipper_id: await makeCounterparty(s, w.companyA, { name: 'ООО «Архив»', archived: true }) })).toBe('shipper_id: «ООО «Архив»» в архиве');
    expect(await detail({ loading_place_id: await makePlace(s, w.companyB) })).toBe('loading_place_id: место не найдено в компании');
    expect(await detail({ unloading_place_id: await makePlace(s, w.companyA, { name: 'Старый склад', archived: true }) })).toBe('unloading_place_id: место «Старый склад» в архиве');
    expect(await detail({ consignee_id: 'пять' })).toBe('consignee_id: ожидается число');
    const noPlace = await send('POST', '/api/tasks/', { ...base(), loading_place: 'Карьер' });
    expect(noPlace.body.detail).toBe('unloading_place: укажите место выгрузки');
  });

  it('defaults the shipper and consignee to the places’ owners, else to the customer, when they have the role', async () => {
    const customer = await makeCounterparty(s, w.companyA, { roles: ['customer', 'consignee'] });
    const quarry = await makeCounterparty(s, w.companyA, { roles: ['shipper'] });
    const from = await makePlace(s, w.companyA, { counterparty_id: quarry });
    const to = await makePlace(s, w.companyA);
    const res = await send('POST', '/api/tasks/', { ...base(), customer_id: customer, loading_place_id: from, unloading_place_id: to });
    expect(res.body).toMatchObject({ shipper_id: quarry, consignee_id: customer });
    // Given explicitly (null too), a default does not apply.
    const none = await send('POST', '/api/tasks/', { ...base(), customer_id: customer, loading_place_id: from, unloading_place_id: to, shipper_id: null, consignee_id: null });
    expect(none.body).toMatchObject({ shipper_id: null, consignee_id: null });
    // A task without any counterparty stays valid.
    const plain = await send('POST', '/api/tasks/', { ...base(), loading_place: 'Карьер', unloading_place: 'Объект' });
    expect(plain.body).toMatchObject({ customer: null, shipper: null, consignee: null });
  });

  it('links a typed place text to the company’s place of that name; a changed text unlinks it; an archived link stays on edit', async () => {
    const place = await makePlace(s, w.companyA, { name: 'Склад «Восток»' });
    const res = await send('POST', '/api/tasks/', { ...base(), loading_place: '  склад  «восток» ', unloading_place: 'Объект 7' });
    expect(res.body).toMatchObject({ loading_place_id: place, loading_place: 'Склад «Восток»', unloading_place_id: null, unloading_place: 'Объект 7' });
    const edited = await send('PUT', `/api/tasks/${res.body.id}/`, { loading_place: 'Другой склад' });
    expect(edited.body).toMatchObject({ loading_place_id: null, loading_place: 'Другой склад', loading: null });

    const customer = await makeCounterparty(s, w.companyA, { roles: ['customer'] });
    const linked = await send('PUT', `/api/tasks/${res.body.id}/`, { customer_id: customer, loading_place_id: place });
    expect(linked.body).toMatchObject({ customer_id: customer, loading_place_id: place, loading_place: 'Склад «Восток»' });
    await send('DELETE', `/api/counterparties/${customer}`);
    // Archived since; the task keeps it, and resending it with the form is no new link.
    const again = await send('PUT', `/api/tasks/${res.body.id}/`, { customer_id: customer, cargo: 'Песок' });
    expect(again.status).toBe(200);
    expect(again.body.customer_id).toBe(customer);
  });

  it('answers the driver the places (address, point, note) and never the counterparties', async () => {
    const customer = await makeCounterparty(s, w.companyA, { roles: ['customer', 'shipper', 'consignee'] });
    const from = await makePlace(s, w.companyA, { counterparty_id: customer, driver_note: 'Пропуск на КПП' });
    const task = await send('POST', '/api/tasks/', { date: dayFromToday(0), cargo: 'Песок', planned_quantity: 20, customer_id: customer, loading_place_id: from, unloading_place: 'Объект' });
    await addDriver(s, task.body.id, w.users.driver.id, { status: 'accepted' });
    const inn = (await s.db.kysely.selectFrom('counterparties').select('inn').where('id', '=', customer).executeTakeFirstOrThrow()).inn as string;
    for (const url of ['/api/tasks/assigned/', `/api/tasks/bulk?ids=${task.body.id}`]) {
      const res = await call(s, 'GET', url, { token: w.tokens.driver });
      const mine = res.body.items.find((t: { id: number }) => t.id === task.body.id);
      expect(mine.loading).toMatchObject({ id: from, address: expect.any(String), lat: 55.5, lon: 38.2, driver_note: 'Пропуск на КПП' });
      for (const key of ['customer', 'shipper', 'consignee', 'customer_id', 'shipper_id', 'consignee_id']) expect(mine).not.toHaveProperty(key);
      expect(JSON.stringify(res.body)).not.toContain(inn);
    }
  });

  // The register's «Задачи (N)» link searches the card's name: no task text holds a counterparty's name, so the
  // search found none of its tasks (audit of issue 31).
  it('the staff search finds the tasks naming a counterparty in any role by its name', async () => {
    const party = await makeCounterparty(s, w.companyA, { name: 'АО «Лесной Поиск»', roles: ['customer', 'shipper', 'consignee'] });
    const texts = { loading_place: 'Карьер 9', unloading_place: 'Объект 9' };
    const ids: number[] = [];
    for (const role of ['customer_id', 'shipper_id', 'consignee_id']) ids.push((await send('POST', '/api/tasks/', { ...base(), ...texts, [role]: party })).body.id);
    await send('POST', '/api/tasks/', { ...base(), ...texts });
    for (const search of ['АО «Лесной Поиск»', 'поиск']) {
      const list = await send('GET', `/api/tasks/completed/?status=all&limit=200&search=${encodeURIComponent(search)}`);
      expect(list.body.items.map((t: { id: number }) => t.id).sort()).toEqual(ids.sort());
    }
  });

  // «Задачи (N)» used to search the card's name, so «ООО «Гранит»» also listed «ООО «Гранит-М»»'s tasks: the link now
  // filters by the card's id, exactly the tasks its count counts.
  it('the staff list narrowed to a counterparty or a place lists exactly the tasks linking it, and the card counts the same', async () => {
    const granit = await makeCounterparty(s, w.companyA, { name: 'ООО «Гранит»', roles: ['customer', 'shipper', 'consignee'] });
    const granitM = await makeCounterparty(s, w.companyA, { name: 'ООО «Гранит-М»', roles: ['customer'] });
    const quarry = await makePlace(s, w.companyA);
    const texts = { loading_place: 'Карьер 10', unloading_place: 'Объект 10' };
    const mine: number[] = [];
    for (const role of ['customer_id', 'shipper_id', 'consignee_id']) mine.push((await send('POST', '/api/tasks/', { ...base(), ...texts, [role]: granit })).body.id);
    await send('POST', '/api/tasks/', { ...base(), ...texts, customer_id: granitM });
    const atQuarry = [(await send('POST', '/api/tasks/', { ...base(), loading_place_id: quarry, unloading_place: 'Объект 10' })).body.id];
    atQuarry.push((await send('POST', '/api/tasks/', { ...base(), loading_place: 'Карьер 10', unloading_place_id: quarry })).body.id);
    const listed = async (q: string) => (await send('GET', `/api/tasks/completed/?status=all&limit=200&${q}`)).body.items.map((t: { id: number }) => t.id).sort();
    expect(await listed(`counterparty_id=${granit}`)).toEqual(mine.sort());
    expect(await listed(`place_id=${quarry}`)).toEqual(atQuarry.sort());
    // The name search still over-matches: that is why the link does not use it.
    expect((await listed(`search=${encodeURIComponent('Гранит')}`)).length).toBeGreaterThan(mine.length);
    const cards = await send('GET', '/api/counterparties/?limit=200');
    expect(cards.body.items.find((c: { id: number }) => c.id === granit).task_count).toBe(mine.length);
    // Another company's counterparty lists nothing of ours; a bad id is a 400 in Russian.
    const theirs = await makeCounterparty(s, w.companyB, { roles: ['customer'] });
    expect(await listed(`counterparty_id=${theirs}`)).toEqual([]);
    const bad = await send('GET', '/api/tasks/completed/?counterparty_id=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('ожидается номер контрагента');
  });

  it('carries the ids through a template and «Повторять»', async () => {
    const customer = await makeCounterparty(s, w.companyA, { roles: ['customer'] });
    const from = await makePlace(s, w.companyA);
    const to = await makePlace(s, w.companyA);
    const fields = { cargo: 'Песок', planned_quantity: 25, unit: 'т', customer_id: customer, loading_place_id: from, unloading_place_id: to };
    const template = await send('POST', '/api/tasks/templates', { name: `Маршрут ${from}`, fields });
    expect(template.status).toBe(201);
    expect(template.body.fields).toMatchObject({ customer_id: customer, loading_place_id: from, unloading_place_id: to });
    const repeat = await send('POST', '/api/tasks/repeat', { task: { ...template.body.fields, date: dayFromToday(2) }, dates: [dayFromToday(2), dayFromToday(3)] });
    expect(repeat.status).toBe(201);
    const made = await send('GET', `/api/tasks/bulk?ids=${repeat.body.task_ids.join(',')}`);
    expect(made.body.items).toHaveLength(2);
    for (const t of made.body.items) expect(t).toMatchObject({ customer_id: customer, loading_place_id: from, unloading_place_id: to, loading: { id: from } });
  });
});
