import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import type { CompanyWages, DriverWages } from '../../contract/money.ts';

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
    const load = async (date: string, quantity: number, transport_rate: number | null, driverId = p.driver.id) => {
      const association = await addDriver(server, await createTask(server, p.company, { date, status: 'completed' }), driverId, { status: 'completed', quantity, transport_rate });
      await addLoad(server, association, quantity);
      return association;
    };
    await load('2026-11-03', 20, 300);
    await load('2026-11-10', 30, null);
    await load('2026-11-12', 10, null);
    await load('2026-10-30', 100, 300);
    await load('2026-11-05', 5, 100, p.driver2.id);
    // Filed but not approved: counted apart, not paid.
    await addLoad(server, await addDriver(server, await createTask(server, p.company, { date: '2026-11-11' }), p.driver.id, { quantity: 40 }), 40, { review: 'pending' });
  });

  const get = (url: string, user?: SignedInUser) => server.app.inject({ method: 'GET', url: `/api${url}`, headers: user?.auth ?? {} });
  const november = 'start_date=2026-11-01&end_date=2026-11-30';

  it("pays a driver's approved loads at their own rate, else at the scale's band for the month's whole volume", async () => {
    const res = await get(`/wages/driver/${p.driver.id}?${november}`, p.driver);
    expect(res.statusCode).toBe(200);
    const wages = res.json() as DriverWages;
    // The month's approved volume is 60 т (20 + 30 + 10): the 50+ band (250 ₽) for the loads without own rate.
    expect(wages).toMatchObject({
      driver_id: p.driver.id,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      total_quantity: 60,
      loads_amount: 20 * 300 + 30 * 250 + 10 * 250,
      total_amount: 20 * 300 + 30 * 250 + 10 * 250,
      pending: { loads: 1, quantity: 40 },
    });
    expect(wages.items.map((i) => [i.date, i.quantity, i.rate, i.rate_source, i.month_volume, i.amount])).toEqual([
      ['2026-11-03', 20, 300, 'transport_rate', 60, 6000],
      ['2026-11-10', 30, 250, 'progressive', 60, 7500],
      ['2026-11-12', 10, 250, 'progressive', 60, 2500],
    ]);
    // A shorter window shows the same loads at the same price: the band is the month's, not the window's.
    const short = (await get(`/wages/driver/${p.driver.id}?start_date=2026-11-10&end_date=2026-11-12`, p.driver)).json() as DriverWages;
    expect(short).toMatchObject({ total_quantity: 40, total_amount: 40 * 250 });
    const all = (await get(`/wages/driver/${p.driver.id}`, p.driver)).json() as DriverWages;
    expect(all).toMatchObject({ start_date: null, total_quantity: 160 });
  });

  it('pays what was delivered: the unloading total where the driver gave one', async () => {
    const association = await addDriver(server, await createTask(server, p.company, { date: '2026-11-20' }), p.driver2.id, { transport_rate: 100 });
    await addLoad(server, association, 25, { unloading: 24.5 });
    const wages = (await get(`/wages/driver/${p.driver2.id}?${november}`, p.driver2)).json() as DriverWages;
    expect(wages.items.map((i) => [i.quantity, i.amount])).toEqual([
      [5, 500],
      [24.5, 2450],
    ]);
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

  it("sums a company's wages per driver, with revenue and margin, for staff of that company", async () => {
    const url = `/wages/company/${p.company}?${november}`;
    const res = await get(url, p.manager);
    expect(res.statusCode).toBe(200);
    const wages = res.json() as CompanyWages;
    expect(wages.drivers).toEqual([
      { driver_id: p.driver.id, driver_name: 'Иван Петров', total_quantity: 60, loads_amount: 16000, adjustments_amount: 0, total_amount: 16000 },
      { driver_id: p.driver2.id, driver_name: 'Сергей Смирнов', total_quantity: 5, loads_amount: 500, adjustments_amount: 0, total_amount: 500 },
    ]);
    // Every task is priced 350 ₽/т to the customer (the fixture's default).
    expect(wages).toMatchObject({ total_quantity: 65, total_amount: 16500, revenue: 65 * 350, margin: 65 * 350 - 16500, pending: { loads: 1, quantity: 40 } });
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, p.driver)).statusCode).toBe(403);
    expect((await get(url, p.otherManager)).statusCode).toBe(404);
    expect((await get(`/wages/company/999999`, p.superAdmin)).statusCode).toBe(404);
  });

  it("never sends the customer's price to a driver; their card carries their own pay", async () => {
    const ownRate = await createTask(server, p.company, { date: '2026-11-25', rate: 400.5 });
    await addDriver(server, ownRate, p.driver.id, { transport_rate: 460 });
    const onScale = await createTask(server, p.company, { date: '2026-11-26', rate: 400.5 });
    await addDriver(server, onScale, p.driver.id, { transport_rate: null });
    const res = await get(`/tasks/bulk?ids=${ownRate},${onScale}`, p.driver);
    expect(res.statusCode).toBe(200);
    const tasks = (res.json() as { items: { id: number; rate: number | null; driver_pay: unknown }[] }).items;
    expect(JSON.stringify(tasks)).not.toContain('400.5');
    expect(tasks.map((t) => [t.id, t.rate, t.driver_pay])).toEqual([
      [ownRate, null, { rate: 460, source: 'transport_rate', month_volume: 60 }],
      [onScale, null, { rate: 250, source: 'progressive', month_volume: 60 }],
    ]);
    // Whom to call: the task's creator, else (here: no creator) an admin of its company.
    expect((tasks[0] as { dispatcher?: unknown }).dispatcher).toEqual({ name: 'Тест admin', phone: '+7 900 000-00-00' });
    // Staff see the price and no driver pay.
    const staff = ((await get(`/tasks/bulk?ids=${ownRate}`, p.manager)).json() as { items: { rate: number; driver_pay?: unknown }[] }).items;
    expect(staff[0]).toMatchObject({ rate: 400.5 });
    expect(staff[0]?.driver_pay).toBeUndefined();
  });
});
