/**
 * The customer's price list (issue 34 §1; docs/prices.md) on both databases: lines and versions, refusals in
 * Russian, a closed period frozen, a new task priced from the list with `price_source`, staff's override shown.
 */
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeWorld, type World } from '../fixtures/accounts.ts';
import { makeCounterparty, makePlace } from '../fixtures/registers.ts';
import { nowIso } from '../../server/db/connect.ts';

describe.each(backends)('price lists ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  const as = (token: string) => (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => call(s, method, url, { token, body });
  const manager = () => as(w.tokens.manager);
  const line = (counterparty_id: number, over: object = {}) => ({ counterparty_id, unit: 'т', price: 450.5, vat_mode: 'none', valid_from: '2026-11-01', ...over });
  const newTask = (over: object) =>
    manager()('POST', '/api/tasks/', { date: '2026-11-20', cargo: 'Щебень 20–40', planned_quantity: 100, unit: 'т', ...over });

  it('adds lines (201), lists every version with its period, and refuses another company’s customer (404)', async () => {
    const customer = await makeCounterparty(s, w.companyA);
    const from = await makePlace(s, w.companyA, { name: `Карьер ${customer}` });
    const to = await makePlace(s, w.companyA, { name: `Объект ${customer}` });
    const first = await manager()('POST', '/api/price-lists/', line(customer, { cargo: 'Щебень', loading_place_id: from, unloading_place_id: to, vat_mode: 'added', vat_rate: 22 }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ company_id: w.companyA, counterparty_id: customer, price: 450.5, vat_rate: 22, valid_to: null, frozen: false, loading_place: { id: from } });
    const second = await manager()('POST', '/api/price-lists/', line(customer, { cargo: 'щебень', loading_place_id: from, unloading_place_id: to, price: 480.07, valid_from: '2026-12-01', vat_mode: 'added', vat_rate: 22 }));
    expect(second.status).toBe(201);
    const hourly = await manager()('POST', '/api/price-lists/', line(customer, { unit: 'час', price: 1500, free_minutes: 60 }));
    expect(hourly.body).toMatchObject({ unit: 'час', free_minutes: 60 });
    const list = await manager()('GET', `/api/price-lists/?counterparty_id=${customer}`);
    expect(list.status).toBe(200);
    const byId = new Map(list.body.lines.map((l: { id: number }) => [l.id, l]));
    expect(byId.get(first.body.id)).toMatchObject({ valid_to: '2026-11-30' });
    expect(byId.get(second.body.id)).toMatchObject({ price: 480.07, valid_to: null });
    expect((await as(w.tokens.managerB)('GET', `/api/price-lists/?counterparty_id=${customer}`)).status).toBe(404);
    expect((await as(w.tokens.managerB)('POST', '/api/price-lists/', line(customer))).body.detail).toBe('Заказчик не найден');
    expect((await as(w.tokens.managerB)('PUT', `/api/price-lists/${first.body.id}`, line(customer, { counterparty_id: undefined }))).status).toBe(404);
    expect((await as(w.tokens.driver)('GET', `/api/price-lists/?counterparty_id=${customer}`)).status).toBe(403);
  });

  it('refuses bad lines with a Russian detail naming the field', async () => {
    const customer = await makeCounterparty(s, w.companyA);
    const shipperOnly = await makeCounterparty(s, w.companyA, { roles: ['shipper'] });
    const otherPlace = await makePlace(s, w.companyB);
    const detail = async (body: object) => (await manager()('POST', '/api/price-lists/', body)).body.detail as string;
    expect(await detail(line(customer, { price: 1.005 }))).toBe('Цена: не больше двух знаков после запятой');
    expect(await detail(line(customer, { unit: 'шт' }))).toMatch(/^Единица: /);
    expect(await detail(line(customer, { unit: 'час' }))).toMatch(/^Бесплатное время: укажите/);
    expect(await detail(line(shipperOnly))).toBe('Заказчик: у контрагента нет роли «Заказчик» — отметьте её в его карточке');
    expect(await detail(line(customer, { loading_place_id: otherPlace, unloading_place_id: otherPlace }))).toBe('Место погрузки: место не найдено');
    expect(await detail({ unit: 'т' })).toMatch(/обязательное поле|Заказчик/);
    await manager()('POST', '/api/price-lists/', line(customer));
    const twice = await manager()('POST', '/api/price-lists/', line(customer));
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(/^Цена на это \(груз, маршрут, единица\) с 01\.11\.2026 уже есть/);
  });

  it('a closed payroll month never moves: no line starts in it, a line in force in it cannot change', async () => {
    const customer = await makeCounterparty(s, w.companyB);
    const b = as(w.tokens.managerB);
    const old = await b('POST', '/api/price-lists/', line(customer, { valid_from: '2025-03-01' }));
    expect(old.status).toBe(201);
    const now = nowIso();
    await s.db.kysely
      .insertInto('payroll_months')
      .values({ company_id: w.companyB, month: '2025-04', status: 'closed', closed_at: now, closed_by: null, loads: 0, quantity: 0, amount_kop: 0, adjustments_kop: 0 })
      .execute();
    const listed = await b('GET', `/api/price-lists/?counterparty_id=${customer}`);
    expect(listed.body).toMatchObject({ first_open_day: '2025-05-01' });
    expect(listed.body.lines[0]).toMatchObject({ id: old.body.id, frozen: true });
    const change = await b('PUT', `/api/price-lists/${old.body.id}`, { ...line(customer, { price: 999 }), counterparty_id: undefined });
    expect(change.status).toBe(409);
    expect(change.body.detail).toBe(
      'Строку прайса нельзя изменить: она действует с 01.03.2025: апрель 2025 закрыт (расчёт с водителями) — цены закрытого периода не меняются. Новая цена возможна с 01.05.2025',
    );
    const intoClosed = await b('POST', '/api/price-lists/', line(customer, { valid_from: '2025-04-15', price: 500 }));
    expect(intoClosed.status).toBe(409);
    expect(intoClosed.body.detail).toMatch(/^Цену нельзя ввести с 15\.04\.2025: апрель 2025 закрыт/);
    // A new version from an open day is the way out; the old line stays as it was.
    const next = await b('POST', '/api/price-lists/', line(customer, { valid_from: '2025-05-01', price: 500 }));
    expect(next.status).toBe(201);
    const later = await b('POST', '/api/price-lists/', line(customer, { valid_from: '2025-06-01', price: 510 }));
    const moveBack = await b('PUT', `/api/price-lists/${later.body.id}`, { ...line(customer, { valid_from: '2025-04-20', price: 510 }), counterparty_id: undefined });
    expect(moveBack.status).toBe(409);
    const edited = await b('PUT', `/api/price-lists/${later.body.id}`, { ...line(customer, { valid_from: '2025-06-01', price: 515.25 }), counterparty_id: undefined });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ price: 515.25, frozen: false });
    const after = await b('GET', `/api/price-lists/?counterparty_id=${customer}`);
    expect(after.body.lines.find((l: { id: number }) => l.id === old.body.id)).toMatchObject({ price: 450.5, valid_to: '2025-04-30' });
  });

  it('a new task takes the most specific line valid on its date and says so; a later version leaves it as it was', async () => {
    const customer = await makeCounterparty(s, w.companyA);
    const from = await makePlace(s, w.companyA, { name: `Гранитный карьер ${customer}` });
    const to = await makePlace(s, w.companyA, { name: `Стройка ${customer}` });
    const m = manager();
    await m('POST', '/api/price-lists/', line(customer, { price: 400 }));
    const routeLine = await m('POST', '/api/price-lists/', line(customer, { loading_place_id: from, unloading_place_id: to, price: 455.55 }));
    await m('POST', '/api/price-lists/', line(customer, { cargo: 'щебень 20–40', price: 430 }));
    const task = await newTask({ customer_id: customer, loading_place_id: from, unloading_place_id: to });
    expect(task.status).toBe(201);
    expect(task.body.rate).toBe(455.55);
    expect(task.body.price_source).toEqual({
      kind: 'list',
      line_id: routeLine.body.id,
      valid_from: '2026-11-01',
      label: `любой груз, Гранитный карьер ${customer} → Стройка ${customer}, за т, с 01.11.2026`,
    });
    // Another route: the cargo's line. Another unit: no line, no price.
    const other = await newTask({ customer_id: customer, loading_place: 'Где-то', unloading_place: 'Куда-то' });
    expect(other.body).toMatchObject({ rate: 430, price_source: { kind: 'list' } });
    const none = await newTask({ customer_id: customer, loading_place: 'Где-то', unloading_place: 'Куда-то', unit: 'рейс' });
    expect(none.body).toMatchObject({ rate: null, price_source: null });
    // A new version from December: the November task keeps its price; a December one takes the new.
    await m('POST', '/api/price-lists/', line(customer, { loading_place_id: from, unloading_place_id: to, price: 470, valid_from: '2026-12-01' }));
    expect((await m('GET', `/api/tasks/bulk?ids=${task.body.id}`)).body.items[0]).toMatchObject({ rate: 455.55, price_source: { line_id: routeLine.body.id } });
    const december = await newTask({ customer_id: customer, loading_place_id: from, unloading_place_id: to, date: '2026-12-02' });
    expect(december.body).toMatchObject({ rate: 470, price_source: { kind: 'list', valid_from: '2026-12-01' } });
  });

  it('staff override the price on the task and it shows «вручную»; null takes the list again', async () => {
    const customer = await makeCounterparty(s, w.companyA);
    const m = manager();
    await m('POST', '/api/price-lists/', line(customer, { price: 300 }));
    const typed = await newTask({ customer_id: customer, rate: 333.33, loading_place: 'А', unloading_place: 'Б' });
    expect(typed.body).toMatchObject({ rate: 333.33, price_source: { kind: 'manual', label: 'вручную' } });
    // Typed equal to the list's price to the kopeck: the list's.
    const same = await newTask({ customer_id: customer, rate: 300, loading_place: 'А', unloading_place: 'Б' });
    expect(same.body).toMatchObject({ rate: 300, price_source: { kind: 'list' } });
    const overridden = await m('PUT', `/api/tasks/${same.body.id}/`, { rate: 350 });
    expect(overridden.status).toBe(200);
    expect(overridden.body).toMatchObject({ rate: 350, price_source: { kind: 'manual' } });
    // A typed price stays when the task changes; null takes the list's again.
    expect((await m('PUT', `/api/tasks/${same.body.id}/`, { cargo: 'Песок' })).body).toMatchObject({ rate: 350, price_source: { kind: 'manual' } });
    expect((await m('PUT', `/api/tasks/${same.body.id}/`, { rate: null })).body).toMatchObject({ rate: 300, price_source: { kind: 'list' } });
    // A task without a customer and a typed price: «вручную»; without either: no source.
    expect((await newTask({ rate: 100, loading_place: 'А', unloading_place: 'Б' })).body).toMatchObject({ price_source: { kind: 'manual' } });
    expect((await newTask({ loading_place: 'А', unloading_place: 'Б' })).body).toMatchObject({ rate: null, price_source: null });
  });

  it('a price from the list follows the task when its route changes', async () => {
    const customer = await makeCounterparty(s, w.companyA);
    const from = await makePlace(s, w.companyA);
    const to = await makePlace(s, w.companyA);
    const m = manager();
    await m('POST', '/api/price-lists/', line(customer, { price: 200 }));
    await m('POST', '/api/price-lists/', line(customer, { loading_place_id: from, unloading_place_id: to, price: 260 }));
    const task = await newTask({ customer_id: customer, loading_place: 'А', unloading_place: 'Б' });
    expect(task.body.rate).toBe(200);
    const moved = await m('PUT', `/api/tasks/${task.body.id}/`, { loading_place_id: from, unloading_place_id: to });
    expect(moved.body).toMatchObject({ rate: 260, price_source: { kind: 'list' } });
  });
});
