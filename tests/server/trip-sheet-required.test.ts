/**
 * «Без путевого листа смену не начать» (issue 33 §2; server/trip-sheets/required.ts, docs/trip-sheets.md): a company's
 * trip setting. While on, a new trip's first step is refused (409, Russian) until the driver or his fleet vehicle has
 * a sheet for the step's day, and the board says which working drivers have none; off, nothing changes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import type { Board } from '../../contract/calls/dispatch.ts';
import type { TripSettings } from '../../contract/trips.ts';

describe.each(backends)('no shift without a trip sheet ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let company: number;
  let admin: SignedInUser;
  let driver: SignedInUser;
  let idle: SignedInUser;
  let association: number;
  let vehicle: number;
  const today = dayFromToday(0);

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    company = await makeCompany(s);
    admin = await withAccessToken(s, await makeUser(s, 'admin', company));
    driver = await withAccessToken(s, await makeUser(s, 'driver', company));
    // A driver of the company with nothing to do today: the board does not nag about him.
    idle = await withAccessToken(s, await makeUser(s, 'driver', company));
    const made = await call<{ id: number }>(s, 'POST', '/api/vehicles/', { token: admin.token, body: { plate: 'К321МН77', make: 'КАМАЗ', ownership: 'own', capacity_t: 20 } });
    vehicle = made.body.id;
    await s.db.kysely.updateTable('users').set({ vehicle_id: vehicle }).where('id', '=', driver.id).execute();
    association = await addDriver(s, await createTask(s, company, { date: today }), driver.id);
  });

  const settings = (body: Partial<TripSettings>) =>
    call<TripSettings & { detail?: string }>(s, 'PUT', `/api/companies/${company}/trip-settings`, {
      token: admin.token,
      body: { acceptance_mode: 'none', long_wait_minutes: 60, geofence_dwell_seconds: 60, no_data_minutes: 90, ...body },
    });
  const board = async () => (await call<Board>(s, 'GET', `/api/dispatch/board?date=${today}`, { token: admin.token })).body;
  const firstStep = (uid: string) =>
    call<{ detail: string; report_id: number }>(s, 'PUT', `/api/trips/${uid}/steps/loading_arrived`, { token: driver.token, body: { association_id: association, at: new Date().toISOString() } });

  it('is off by default: the board says nothing and a first step needs no sheet', async () => {
    const stored = await call<TripSettings>(s, 'GET', `/api/companies/${company}/trip-settings`, { token: admin.token });
    expect(stored.body.require_trip_sheet).toBe(false);
    expect((await board()).drivers.every((d) => !d.no_trip_sheet)).toBe(true);
  });

  it('on: the working driver without a sheet is «нет путевого листа» on the board, his first step of the day is 409 naming the day; a sheet on his vehicle lets it in', async () => {
    const on = await settings({ require_trip_sheet: true });
    expect(on.status).toBe(200);
    expect(on.body.require_trip_sheet).toBe(true);
    // A client that does not send the field does not switch it off.
    expect((await settings({ long_wait_minutes: 45 })).body).toMatchObject({ long_wait_minutes: 45, require_trip_sheet: true });
    expect((await settings({ require_trip_sheet: 'да' as unknown as boolean })).status).toBe(400);

    const before = await board();
    expect(before.drivers.find((d) => d.id === driver.id)?.no_trip_sheet).toBe(true);
    expect(before.drivers.find((d) => d.id === idle.id)?.no_trip_sheet).toBe(false);

    const uid = randomUUID();
    const refused = await firstStep(uid);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `Нет путевого листа на ${today.split('-').reverse().join('.')}: без него смену не начать. Попросите диспетчера выписать путевой лист на вашу машину`,
    );
    // Nothing was made: no trip, the part not started.
    expect(await s.db.kysely.selectFrom('reports').select('id').where('trip_uid', '=', uid).executeTakeFirst()).toBeUndefined();

    // The sheet names his fleet vehicle (and another driver): the vehicle's day counts for him.
    const sheet = await call<{ id: number }>(s, 'POST', '/api/trip-sheets/', { token: admin.token, body: { vehicle_id: vehicle, driver_id: idle.id, date: today } });
    expect(sheet.status).toBe(201);
    expect((await board()).drivers.find((d) => d.id === driver.id)?.no_trip_sheet).toBe(false);
    // The same step, delivered again by the outbox, now goes in.
    const accepted = await firstStep(uid);
    expect(accepted.status).toBe(201);
  });

  it('a trip begun goes on whatever the sheet; off again, a new trip needs none', async () => {
    await s.db.kysely.deleteFrom('trip_sheets').where('company_id', '=', company).execute();
    const later = await call(s, 'PUT', `/api/trips/${(await s.db.kysely.selectFrom('reports').select('trip_uid').where('driver_id', '=', driver.id).executeTakeFirstOrThrow()).trip_uid}/steps/loading_departed`, {
      token: driver.token,
      body: { association_id: association, at: new Date().toISOString() },
    });
    expect(later.status).toBe(201);
    expect((await firstStep(randomUUID())).status).toBe(409);
    await settings({ require_trip_sheet: false });
    expect((await firstStep(randomUUID())).status).toBe(201);
    expect((await board()).drivers.every((d) => !d.no_trip_sheet)).toBe(true);
  });
});
