import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import type { CompanyWages, DriverWages } from '../../contract/driver.ts';

describe.each(backends)('wages ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;

  serveSuite(databaseUrl, (s) => {
    server = s;
  });
  beforeEach(async () => {
    p = await makePeople(server);
    const bands = [
      { min_quantity: 0, max_quantity: 50, rate: 200 },
      { min_quantity: 50, max_quantity: null, rate: 250 },
    ];
    await server.db.kysely
      .insertInto('progressive_rates')
      .values(bands.map((b) => ({ ...b, company_id: p.company, created_at: nowIso() })))
      .execute();
    const completed = async (date: string, quantity: number, transport_rate: number | null, driverId = p.driver.id) =>
      addDriver(server, await createTask(server, p.company, { date, status: 'completed' }), driverId, {
        status: 'completed',
        quantity,
        transport_rate,
      });
    await completed('2026-11-03', 20, 300);
    await completed('2026-11-10', 30, null);
    await completed('2026-11-12', 10, null);
    await completed('2026-10-30', 100, 300);
    await completed('2026-11-05', 5, 100, p.driver2.id);
    await addDriver(server, await createTask(server, p.company, { date: '2026-11-11' }), p.driver.id, { quantity: 40 });
  });

  const get = (url: string, user?: SignedInUser) => server.app.inject({ method: 'GET', url: `/api${url}`, headers: user?.auth ?? {} });
  const november = 'start_date=2026-11-01&end_date=2026-11-30';

  it("computes a driver's earnings with transport rates and the progressive band for the period's total", async () => {
    const res = await get(`/wages/driver/${p.driver.id}?${november}`, p.driver);
    expect(res.statusCode).toBe(200);
    const wages = res.json() as DriverWages;
    expect(wages).toMatchObject({
      driver_id: p.driver.id,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      total_quantity: 60,
      total_amount: 20 * 300 + 30 * 250 + 10 * 250,
    });
    expect(wages.items.map((i) => [i.date, i.quantity, i.rate, i.rate_source, i.amount])).toEqual([
      ['2026-11-03', 20, 300, 'transport_rate', 6000],
      ['2026-11-10', 30, 250, 'progressive', 7500],
      ['2026-11-12', 10, 250, 'progressive', 2500],
    ]);
    // A shorter period has a smaller total, so the lower band applies.
    const short = (await get(`/wages/driver/${p.driver.id}?start_date=2026-11-10&end_date=2026-11-12`, p.driver)).json() as DriverWages;
    expect(short).toMatchObject({ total_quantity: 40, total_amount: 40 * 200 });
    const all = (await get(`/wages/driver/${p.driver.id}`, p.driver)).json() as DriverWages;
    expect(all).toMatchObject({ start_date: null, total_quantity: 160 });
  });

  it('says how much of the pay rests on approved loads and how much waits for review', async () => {
    const association = await server.db.kysely
      .selectFrom('task_drivers as td')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select('td.id')
      .where('t.date', '=', '2026-11-03')
      .where('td.driver_id', '=', p.driver.id)
      .executeTakeFirstOrThrow();
    const at = nowIso();
    const trip = (quantity: number, review: 'approved' | 'pending') => ({ association_id: association.id, driver_id: p.driver.id, quantity, total_loading_quantity: null, total_unloading_quantity: null, loading_is_buyer: 0, unloading_is_buyer: 0, idempotency_key: null, completed_at: at, created_at: at, updated_at: at, review_status: review });
    // The 20 т at 300 ₽: 12 т approved, 8 т waiting.
    await server.db.kysely.insertInto('reports').values([trip(12, 'approved'), trip(8, 'pending')]).execute();
    const wages = (await get(`/wages/driver/${p.driver.id}?${november}`, p.driver)).json() as DriverWages;
    expect(wages.approved_amount).toBe(12 * 300);
    expect(wages.items.find((i) => i.date === '2026-11-03')).toMatchObject({ amount: 6000, approved_amount: 3600 });
    const company = (await get(`/wages/company/${p.company}?${november}`, p.manager)).json() as CompanyWages;
    expect(company.approved_amount).toBe(3600);
  });

  it('lets a driver see only their own wages and staff only their company drivers', async () => {
    const url = `/wages/driver/${p.driver.id}?${november}`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, p.driver2)).statusCode).toBe(403);
    expect((await get(url, p.otherManager)).statusCode).toBe(404);
    expect((await get(url, p.manager)).statusCode).toBe(200);
    expect((await get(url, p.admin)).statusCode).toBe(200);
    expect((await get(url, p.superAdmin)).statusCode).toBe(200);
    expect((await get(`/wages/driver/${p.manager.id}`, p.manager)).statusCode).toBe(404);
    expect((await get(`/wages/driver/${p.driver.id}?start_date=2026-13-01`, p.driver)).statusCode).toBe(400);
    const reversed = await get(`/wages/driver/${p.driver.id}?start_date=2026-11-30&end_date=2026-11-01`, p.driver);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().detail).toMatch(/^end_date:/);
  });

  it("sums a company's wages per driver for staff of that company", async () => {
    const url = `/wages/company/${p.company}?${november}`;
    const res = await get(url, p.manager);
    expect(res.statusCode).toBe(200);
    const wages = res.json() as CompanyWages;
    expect(wages.drivers).toEqual([
      { driver_id: p.driver.id, driver_name: 'Иван Петров', total_quantity: 60, total_amount: 16000 },
      { driver_id: p.driver2.id, driver_name: 'Сергей Смирнов', total_quantity: 5, total_amount: 500 },
    ]);
    expect(wages).toMatchObject({ total_quantity: 65, total_amount: 16500 });
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, p.driver)).statusCode).toBe(403);
    expect((await get(url, p.otherManager)).statusCode).toBe(404);
    expect((await get(`/wages/company/999999`, p.superAdmin)).statusCode).toBe(404);
  });
});
