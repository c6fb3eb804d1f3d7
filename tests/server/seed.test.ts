/** The demo seed: exactly the accounts the README promises, and data each demo role can work with at once. */
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../../server/db/seed.ts';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, login } from '../fixtures/accounts.ts';
import { innProblem, kppProblem, ogrnProblem } from '../../contract/requisites.ts';
import type { Counterparty, Place, Vehicle } from '../../contract/registers.ts';

function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

describe.each(backends)('demo seed ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let driverId: number;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    expect(await seedDemo(server.db)).toBe(true);
    driverId = (await server.db.kysely.selectFrom('users').select('id').where('email', '=', 'driver@demo.local').executeTakeFirstOrThrow()).id;
  });

  it('fills only an empty database', async () => {
    const count = async () => (await server.db.kysely.selectFrom('users').select('id').execute()).length;
    const before = await count();
    expect(await seedDemo(server.db)).toBe(false);
    expect(await count()).toBe(before);
  });

  it('makes the four demo accounts, each logging in with its role', async () => {
    expect(DEMO_ACCOUNTS.map((a) => a.email)).toEqual(['driver@demo.local', 'manager@demo.local', 'admin@demo.local', 'super@demo.local']);
    expect(DEMO_PASSWORD).toBe('demo12345');
    const companies = new Set<number | null>();
    for (const account of DEMO_ACCOUNTS) {
      const { access_token } = await login(server, account.email, 'demo12345');
      const me = await call(server, 'GET', '/api/users/me/', { token: access_token });
      expect(me.body.role).toEqual({ name: account.role });
      if (account.role !== 'super-admin') companies.add(me.body.company_id);
    }
    // The demo driver, manager and admin share company 1.
    expect([...companies]).toHaveLength(1);
    expect((await call(server, 'GET', '/api/companies/')).body).toHaveLength(2);
  });

  it('gives the demo driver two vehicles, one current', async () => {
    const vehicles = await server.db.kysely.selectFrom('transports').select('is_current').where('user_id', '=', driverId).execute();
    expect(vehicles.map((v) => v.is_current).sort()).toEqual([0, 1]);
  });

  it('has open tasks the demo driver can take, three accepted ones in order, and finished work', async () => {
    const mine = await server.db.kysely.selectFrom('task_drivers').select(['task_id', 'status', 'order_index', 'quantity']).where('driver_id', '=', driverId).execute();
    const accepted = mine.filter((a) => a.status === 'accepted');
    expect(accepted.map((a) => a.order_index).sort()).toEqual([1, 2, 3]);
    const completed = mine.filter((a) => a.status === 'completed');
    expect(completed.length).toBeGreaterThanOrEqual(2);
    expect(completed.every((a) => a.quantity !== null && a.quantity > 0)).toBe(true);

    const driver = await server.db.kysely.selectFrom('users').select('company_id').where('id', '=', driverId).executeTakeFirstOrThrow();
    const tasks = await server.db.kysely
      .selectFrom('tasks')
      .select(['id', 'max_drivers', 'date'])
      .where('company_id', '=', driver.company_id!)
      .where('status', 'in', ['open', 'in_progress'])
      .where('date', '>=', today())
      .execute();
    const taken = new Set(mine.map((a) => a.task_id));
    const counts = await server.db.kysely.selectFrom('task_drivers').select('task_id').execute();
    const available = tasks.filter(
      (t) => !taken.has(t.id) && (t.max_drivers === null || counts.filter((c) => c.task_id === t.id).length < t.max_drivers),
    );
    expect(available.length).toBeGreaterThanOrEqual(3);
    expect(available.some((t) => t.date === today())).toBe(true);
  });

  it('has two pending sign-ups for the manager, a rate table and two announcements, one asking drivers to respond', async () => {
    const { access_token } = await login(server, 'manager@demo.local', 'demo12345');
    const requests = await call(server, 'GET', '/api/registration-requests/', { token: access_token });
    expect(requests.body.map((r: { role: string }) => r.role).sort()).toEqual(['driver', 'manager']);
    expect(requests.body.find((r: { role: string }) => r.role === 'driver').current_transport).not.toBeNull();
    expect((await server.db.kysely.selectFrom('progressive_rates').select('id').execute()).length).toBeGreaterThanOrEqual(2);
    const announcements = await server.db.kysely.selectFrom('announcements').select(['title', 'requires_response']).execute();
    expect(announcements.map((a) => a.requires_response).sort()).toEqual([0, 1]);
  });

  it('fills the registers: counterparties with valid requisites, places with points, the drivers’ fleet vehicles, the tasks linked', async () => {
    const { access_token } = await login(server, 'manager@demo.local', 'demo12345');
    const get = async (url: string) => (await call(server, 'GET', url, { token: access_token })).body;

    const counterparties: Counterparty[] = (await get('/api/counterparties/?limit=200')).items;
    expect(counterparties.length).toBeGreaterThanOrEqual(5);
    for (const c of counterparties) {
      expect(innProblem(c.inn ?? '', c.legal_form), c.name).toBeNull();
      expect(ogrnProblem(c.ogrn ?? '', c.legal_form === 'ip' ? 'ip' : 'ul'), c.name).toBeNull();
      if (c.legal_form === 'ul') expect(kppProblem(c.kpp ?? ''), c.name).toBeNull();
    }
    for (const role of ['customer', 'shipper', 'consignee']) expect(counterparties.some((c) => c.roles.includes(role as never))).toBe(true);

    const places: Place[] = (await get('/api/places/?limit=200')).items;
    expect(places.length).toBeGreaterThanOrEqual(10);
    for (const p of places) {
      // Near Moscow, with an address, a geofence and an owner.
      expect(p.lat, p.name).toBeGreaterThan(54.5);
      expect(p.lat, p.name).toBeLessThan(57);
      expect(p.lon, p.name).toBeGreaterThan(36);
      expect(p.lon, p.name).toBeLessThan(39.5);
      expect(p.address, p.name).toBeTruthy();
      expect(p.radius_m).toBeGreaterThanOrEqual(30);
      expect(p.counterparty, p.name).not.toBeNull();
    }

    const fleet: Vehicle[] = (await get('/api/vehicles/?limit=200')).items;
    expect(fleet.map((v) => v.plate).sort()).toEqual(['Е789КХ 750', 'А123ВС 77', 'В456ОР 77', 'К321МН 50'].sort());
    const driver = fleet.find((v) => v.plate === 'А123ВС 77');
    expect(driver?.drivers.map((d) => d.id)).toEqual([driverId]);
    expect(driver?.capacity_t).toBe(15);
    const me = (await call(server, 'GET', '/api/users/me/', { token: (await login(server, 'driver@demo.local', 'demo12345')).access_token })).body;
    expect(me.vehicle?.plate).toBe('А123ВС 77');

    // Every task of both companies names its places (their texts unchanged), its customer, shipper and consignee.
    const tasks = await server.db.kysely.selectFrom('tasks').selectAll().execute();
    expect(tasks.length).toBeGreaterThanOrEqual(10);
    const cards = await server.db.kysely.selectFrom('places').select(['id', 'name', 'company_id']).execute();
    for (const t of tasks) {
      for (const [id, text] of [[t.loading_place_id, t.loading_place], [t.unloading_place_id, t.unloading_place]] as const) {
        const card = cards.find((c) => c.id === id);
        expect(card?.name, text).toBe(text);
        expect(card?.company_id).toBe(t.company_id);
      }
      expect(t.customer_id, t.cargo).not.toBeNull();
      expect(t.shipper_id, t.cargo).not.toBeNull();
      expect(t.consignee_id, t.cargo).not.toBeNull();
    }
    // The staff's task answer carries the customer with its ИНН and the place with its point.
    const active: { customer: { inn: string } | null; loading: { lat: number } | null }[] = (await get('/api/tasks/active/?limit=200')).items;
    expect(active.length).toBeGreaterThan(0);
    for (const card of active) {
      expect(card.customer?.inn).toMatch(/^\d{10,12}$/);
      expect(card.loading?.lat).toBeGreaterThan(54.5);
    }
  });
});

describe.each(backends)('the demo’s trips of today, for npm start ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  serveSuite(databaseUrl, async (s) => {
    server = s;
    expect(await seedDemo(server.db)).toBe(true);
  });

  it('stamps Соколов’s three trips (two done, one on the road) and Морозов’s arrival through the API', async () => {
    const noon = new Date();
    noon.setHours(12, 0, 0, 0);
    const { seedDemoTrips } = await import('../../server/db/seed-trips.ts');
    expect(await seedDemoTrips(server.app, server.db, noon)).toBe(11);
    const byDriver = async (email: string) =>
      server.db.kysely
        .selectFrom('reports as r')
        .innerJoin('users as u', 'u.id', 'r.driver_id')
        .select(['r.id', 'r.ticket_number', 'r.total_loading_quantity', 'r.total_unloading_quantity'])
        .where('u.email', '=', email)
        .where('r.trip_uid', 'is not', null)
        .orderBy('r.id')
        .execute();
    const sokolov = await byDriver('sokolov@demo.local');
    expect(sokolov.map((r) => r.ticket_number)).toEqual(['П-10421', 'П-10433', 'П-10447']);
    expect(sokolov.map((r) => r.total_unloading_quantity)).toEqual([24.4, 25.1, null]);
    expect(await byDriver('morozov@demo.local')).toHaveLength(1);
    // Every stamp between 07:30 and noon, in order.
    const stamps = await server.db.kysely.selectFrom('trip_stamps').select(['at']).orderBy('id').execute();
    expect(stamps).toHaveLength(11);
    expect(stamps.every((s) => Date.parse(s.at) >= noon.getTime() - 270 * 60_000 && Date.parse(s.at) <= noon.getTime())).toBe(true);
    // Before 07:00 there is no morning: nothing.
    const early = new Date(noon);
    early.setHours(5);
    expect(await seedDemoTrips(server.app, server.db, early)).toBe(0);
  });
});
