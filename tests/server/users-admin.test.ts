/**
 * Accounts as staff manage them: /users/drivers/ (list with today's workload, vehicle edits, delete vs
 * deactivate), the super-admin's /users/ and /users/staff/, and how a change reaches the user's sessions at
 * once (deactivation, a new role, logout on one device).
 */
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { PASSWORD, call, login, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { LAST_SUPER_ADMIN, NOT_YOURSELF } from '../../server/routes/users-admin.ts';

describe.each(backends)('user administration ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });

  describe('/users/drivers/ for the drivers screen', () => {
    it("lists today's task count and whether the driver has history", async () => {
      const busy = await makeUser(server, 'driver', w.companyA, { name: 'Занятой Водитель' });
      const idle = await makeUser(server, 'driver', w.companyA, { name: 'Свободный Водитель' });
      await addDriver(server, await createTask(server, w.companyA, { date: dayFromToday(0) }), busy.id);
      await addDriver(server, await createTask(server, w.companyA, { date: dayFromToday(0) }), busy.id);
      await addDriver(server, await createTask(server, w.companyA, { date: dayFromToday(1) }), busy.id);
      const list = await call(server, 'GET', '/api/users/drivers/', { token: w.tokens.manager });
      expect(list.status).toBe(200);
      const byId = new Map(list.body.map((d: { id: number }) => [d.id, d]));
      expect(byId.get(busy.id)).toMatchObject({ today_task_count: 2, has_history: true });
      expect(byId.get(idle.id)).toMatchObject({ today_task_count: 0, has_history: false });
      // Company B's drivers never show up for company A's manager.
      expect(byId.has(w.users.driverB.id)).toBe(false);
    });

    it('edits the current vehicle in place, or adds one when the driver has none', async () => {
      const withCar = await call(server, 'PUT', `/api/users/drivers/${w.users.driver.id}/`, {
        token: w.tokens.manager,
        body: { vehicle_brand: 'КамАЗ', vehicle_capacity: 22.5 },
      });
      expect(withCar.status).toBe(200);
      expect(withCar.body.current_transport).toMatchObject({ vehicle_number: 'А001АА 77', vehicle_brand: 'КамАЗ', vehicle_capacity: 22.5 });
      const bare = await makeUser(server, 'driver', w.companyA);
      const noNumber = await call(server, 'PUT', `/api/users/drivers/${bare.id}/`, { token: w.tokens.manager, body: { vehicle_brand: 'МАЗ' } });
      expect(noNumber.status).toBe(400);
      expect(noNumber.body.detail).toMatch(/vehicle_number/);
      const added = await call(server, 'PUT', `/api/users/drivers/${bare.id}/`, {
        token: w.tokens.manager,
        body: { vehicle_number: 'Е123КХ 77', vehicle_brand: 'МАЗ', vehicle_capacity: 20 },
      });
      expect(added.body.current_transport).toMatchObject({ vehicle_number: 'Е123КХ 77', vehicle_capacity: 20 });
    });

    it('refuses loose JSON: a capacity as text, a company id as text, a truck of 225 т', async () => {
      const id = w.users.driver.id;
      for (const body of [{ vehicle_capacity: '22' }, { vehicle_capacity: 225 }, { is_active: 'false' }]) {
        const res = await call(server, 'PUT', `/api/users/drivers/${id}/`, { token: w.tokens.manager, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.detail).toBeTruthy();
      }
      const created = await call(server, 'POST', '/api/users/drivers/', {
        token: w.tokens.super,
        body: { email: 'strict@test.local', password: PASSWORD, name: 'Строгий', phone: '+7 900 111-22-33', company_id: String(w.companyA) },
      });
      expect(created.status).toBe(400);
      expect(created.body.detail).toMatch(/company_id/);
    });

    it("another company's driver is answered 404 to PUT and DELETE", async () => {
      expect((await call(server, 'PUT', `/api/users/drivers/${w.users.driverB.id}/`, { token: w.tokens.manager, body: { name: 'Чужой' } })).status).toBe(404);
      expect((await call(server, 'DELETE', `/api/users/drivers/${w.users.driverB.id}/`, { token: w.tokens.manager })).status).toBe(404);
    });
  });

  describe('/users/ and /users/staff/ (super-admin)', () => {
    it('lists every user with search, role, company and activity filters, paged', async () => {
      await makeUser(server, 'manager', w.companyB, { name: 'Поисковый Менеджер' });
      const found = await call(server, 'GET', '/api/users/?search=поисковый', { token: w.tokens.super });
      expect(found.status).toBe(200);
      expect(found.body.items.map((u: { name: string }) => u.name)).toEqual(['Поисковый Менеджер']);
      const managersB = await call(server, 'GET', `/api/users/?role=manager&company_id=${w.companyB}`, { token: w.tokens.super });
      expect(managersB.body.items.every((u: { role: { name: string }; company_id: number }) => u.role.name === 'manager' && u.company_id === w.companyB)).toBe(true);
      expect(managersB.body.total).toBeGreaterThanOrEqual(2);
      const page = await call(server, 'GET', '/api/users/?limit=2', { token: w.tokens.super });
      expect(page.body.items).toHaveLength(2);
      expect(page.body.next_offset).toBe(2);
      const bad = await call(server, 'GET', '/api/users/?role=boss', { token: w.tokens.super });
      expect(bad.status).toBe(400);
      for (const token of [w.tokens.admin, w.tokens.manager, w.tokens.driver]) {
        expect((await call(server, 'GET', '/api/users/', { token })).status).toBe(403);
      }
    });

    it('creates a manager or an admin of a company; other roles and unknown companies are refused', async () => {
      const made = await call(server, 'POST', '/api/users/staff/', {
        token: w.tokens.super,
        body: { email: 'new-admin@test.local', password: PASSWORD, name: 'Новый Админ', phone: '+7 900 555-44-33', role: 'admin', company_id: w.companyB },
      });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ role: { name: 'admin' }, company_id: w.companyB, is_active: true });
      await login(server, 'new-admin@test.local');
      const driverRole = await call(server, 'POST', '/api/users/staff/', {
        token: w.tokens.super,
        body: { email: 'x1@test.local', password: PASSWORD, name: 'X', phone: '+7 900 555-44-34', role: 'driver', company_id: w.companyB },
      });
      expect(driverRole.status).toBe(400);
      const noCompany = await call(server, 'POST', '/api/users/staff/', {
        token: w.tokens.super,
        body: { email: 'x2@test.local', password: PASSWORD, name: 'X', phone: '+7 900 555-44-35', role: 'manager', company_id: 999999 },
      });
      expect(noCompany.status).toBe(400);
      expect(noCompany.body.detail).toMatch(/company_id/);
    });

    it('a new role takes effect on the next call: the old token is refused, the refresh brings the new role', async () => {
      const person = await makeUser(server, 'manager', w.companyA);
      const pair = await login(server, person.email);
      expect((await call(server, 'GET', '/api/tasks/active/', { token: pair.access_token })).status).toBe(200);
      const changed = await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { role: 'driver' } });
      expect(changed.status).toBe(200);
      expect(changed.body.role).toEqual({ name: 'driver' });
      expect((await call(server, 'GET', '/api/tasks/active/', { token: pair.access_token })).status).toBe(401);
      const refreshed = await call(server, 'POST', '/api/auth/refresh/', { body: { refresh_token: pair.refresh_token } });
      expect(refreshed.status).toBe(200);
      expect((await call(server, 'GET', '/api/tasks/active/', { token: refreshed.body.access_token })).status).toBe(403);
      expect((await call(server, 'GET', '/api/tasks/assigned/', { token: refreshed.body.access_token })).status).toBe(200);
    });

    it('a role without a company is refused, and a super-admin leaves their company', async () => {
      const person = await makeUser(server, 'manager', w.companyA);
      const lost = await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { company_id: null } });
      expect(lost.status).toBe(400);
      const promoted = await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { role: 'super-admin' } });
      expect(promoted.body).toMatchObject({ role: { name: 'super-admin' }, company_id: null });
    });

    it('deactivation and a new password refuse the old access token at once; reactivation lets them in again', async () => {
      const person = await makeUser(server, 'driver', w.companyA);
      const pair = await login(server, person.email);
      await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { is_active: false } });
      expect((await call(server, 'GET', '/api/users/me/', { token: pair.access_token })).status).toBe(401);
      await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { is_active: true } });
      const again = await login(server, person.email);
      await call(server, 'PUT', `/api/users/${person.id}/`, { token: w.tokens.super, body: { password: 'another-password-1' } });
      expect((await call(server, 'GET', '/api/users/me/', { token: again.access_token })).status).toBe(401);
      await login(server, person.email, 'another-password-1');
    });

    it('nobody deactivates themselves; unknown users are 404', async () => {
      const self = await call(server, 'PUT', `/api/users/${w.users.super.id}/`, { token: w.tokens.super, body: { is_active: false } });
      expect(self.status).toBe(409);
      expect(self.body.detail).toBe(NOT_YOURSELF);
      expect((await call(server, 'PUT', '/api/users/999999/', { token: w.tokens.super, body: { name: 'Никто' } })).status).toBe(404);
    });
  });

  describe('sessions end at once', () => {
    it('a logout refuses that device’s access token on the next call; another device keeps working', async () => {
      const person = await makeUser(server, 'driver', w.companyA);
      const phone = await login(server, person.email);
      const tablet = await login(server, person.email);
      expect((await call(server, 'GET', '/api/users/me/', { token: phone.access_token })).status).toBe(200);
      expect((await call(server, 'POST', '/api/auth/logout/', { body: { refresh_token: phone.refresh_token } })).status).toBe(204);
      expect((await call(server, 'GET', '/api/users/me/', { token: phone.access_token })).status).toBe(401);
      expect((await call(server, 'GET', '/api/users/me/', { token: tablet.access_token })).status).toBe(200);
    });
  });
});

describe.each(backends)('the last super-admin ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;
  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });

  it('can be neither demoted nor deactivated; with a second one, the first can step down', async () => {
    const demote = await call(server, 'PUT', `/api/users/${w.users.super.id}/`, { token: w.tokens.super, body: { role: 'admin', company_id: w.companyA } });
    expect(demote.status).toBe(409);
    expect(demote.body.detail).toBe(LAST_SUPER_ADMIN);
    const second = await makeUser(server, 'super-admin', null);
    const byOther = await call(server, 'PUT', `/api/users/${second.id}/`, { token: w.tokens.super, body: { is_active: false } });
    expect(byOther.status).toBe(200);
    // Now the first is the only active one again.
    expect((await call(server, 'PUT', `/api/users/${w.users.super.id}/`, { token: w.tokens.super, body: { role: 'admin', company_id: w.companyA } })).status).toBe(409);
    await call(server, 'PUT', `/api/users/${second.id}/`, { token: w.tokens.super, body: { is_active: true } });
    const stepDown = await call(server, 'PUT', `/api/users/${w.users.super.id}/`, { token: w.tokens.super, body: { role: 'admin', company_id: w.companyA } });
    expect(stepDown.status).toBe(200);
    expect(stepDown.body).toMatchObject({ role: { name: 'admin' }, company_id: w.companyA });
  });
});
