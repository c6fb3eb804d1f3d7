import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { PASSWORD, call, login, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';
import { addVehicle } from '../../server/users/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';

describe.each(backends)('users ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });

  describe('/users/me/', () => {
    it('answers the profile with the role as an object, the company name and the current vehicle', async () => {
      const res = await call(server, 'GET', '/api/users/me', { token: w.tokens.driver });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: w.users.driver.id,
        email: w.users.driver.email,
        role: { name: 'driver' },
        company_id: w.companyA,
        is_active: true,
        current_transport: { vehicle_number: 'А001АА 77', is_current: true },
      });
      expect(res.body.company_name).toMatch(/^Компания /);
      expect(res.body).not.toHaveProperty('password_hash');
      const sup = await call(server, 'GET', '/api/users/me/', { token: w.tokens.super });
      expect(sup.body).toMatchObject({ role: { name: 'super-admin' }, company_id: null, company_name: null, current_transport: null });
    });

    it('updates name and phone, and names the bad field', async () => {
      const res = await call(server, 'PUT', '/api/users/me/', { token: w.tokens.manager, body: { name: '  Ольга Новая ', phone: '+7 (900) 555-44-33' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Ольга Новая', phone: '+7 (900) 555-44-33' });
      expect((await call(server, 'GET', '/api/users/me/', { token: w.tokens.manager })).body.name).toBe('Ольга Новая');

      const badPhone = await call(server, 'PUT', '/api/users/me/', { token: w.tokens.manager, body: { phone: 'call me' } });
      expect(badPhone.status).toBe(400);
      expect(badPhone.body.detail).toBe('phone: Некорректный телефон');
      const emptyName = await call(server, 'PUT', '/api/users/me/', { token: w.tokens.manager, body: { name: ' ' } });
      expect(emptyName.body.detail).toBe('name: Укажите имя');
      // The role, company and e-mail are not the user's to change.
      const role = await call(server, 'PUT', '/api/users/me/', { token: w.tokens.manager, body: { role: 'super-admin' } });
      expect(role.status).toBe(400);
      expect(role.body.detail).toBe('role: неизвестное поле');
    });
  });

  describe('transports', () => {
    it('lists the user\'s vehicles and switches the current one', async () => {
      const driver = await makeUser(server, 'driver', w.companyA, { vehicle: 'К100КК 50' });
      const second = await addVehicle(server.db.kysely, driver.id, { vehicle_number: 'М200ММ 50', vehicle_brand: 'МАЗ' }, false);
      const { access_token } = await login(server, driver.email);
      const list = await call(server, 'GET', '/api/users/me/transports/', { token: access_token });
      expect(list.body.map((t: { vehicle_number: string; is_current: boolean }) => [t.vehicle_number, t.is_current])).toEqual([
        ['К100КК 50', true],
        ['М200ММ 50', false],
      ]);
      const put = await call(server, 'PUT', `/api/users/me/transport/${second}/`, { token: access_token });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: second, is_current: true });
      const after = await call(server, 'GET', '/api/users/me/transports', { token: access_token });
      expect(after.body.filter((t: { is_current: boolean }) => t.is_current).map((t: { id: number }) => t.id)).toEqual([second]);
      expect((await call(server, 'GET', '/api/users/me/', { token: access_token })).body.current_transport.vehicle_number).toBe('М200ММ 50');
    });

    it('answers 404 for another user\'s vehicle and 400 for a bad id', async () => {
      const others = await server.db.kysely.selectFrom('transports').select('id').where('user_id', '=', w.users.driverB.id).execute();
      const res = await call(server, 'PUT', `/api/users/me/transport/${others[0]!.id}/`, { token: w.tokens.driver });
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Транспорт не найден');
      const still = await server.db.kysely.selectFrom('transports').select('is_current').where('id', '=', others[0]!.id).executeTakeFirstOrThrow();
      expect(still.is_current).toBe(1);
      const bad = await call(server, 'PUT', '/api/users/me/transport/abc/', { token: w.tokens.driver });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^id: /);
    });

    it('answers an empty list for a user with no vehicles', async () => {
      expect((await call(server, 'GET', '/api/users/me/transports/', { token: w.tokens.manager })).body).toEqual([]);
    });
  });

  describe('POST /users/ (registration)', () => {
    const form = (over: Record<string, unknown> = {}) => ({
      email: 'new.driver@test.local', password: 'strong-pass', name: 'Новый Водитель', phone: '+7 900 222-33-44', company_id: w.companyA, ...over,
    });

    it('creates a pending request with the driver\'s vehicle, and nobody can log in yet', async () => {
      const res = await call(server, 'POST', '/api/users/', {
        body: form({ vehicle_number: 'Р777РР 77', vehicle_brand: 'Volvo', vehicle_capacity: 25 }),
      });
      expect(res.status).toBe(201);
      // JSON numbers are numbers: text or true is refused, never read as 25 or as company 1.
      for (const loose of [{ vehicle_capacity: '25' }, { company_id: true }, { company_id: `${w.companyA}` }]) {
        const refused = await call(server, 'POST', '/api/users/', { body: form({ email: 'loose@test.local', ...loose }) });
        expect(refused.status, JSON.stringify(loose)).toBe(400);
      }
      expect(res.body).toMatchObject({
        email: 'new.driver@test.local', role: 'driver', status: 'pending', company_id: w.companyA,
        current_transport: { vehicle_number: 'Р777РР 77', vehicle_brand: 'Volvo', vehicle_capacity: 25 },
      });
      expect(res.body).not.toHaveProperty('password_hash');
      const stored = await server.db.kysely.selectFrom('registration_requests').select('password_hash').where('id', '=', res.body.id).executeTakeFirstOrThrow();
      expect(stored.password_hash).toMatch(/^\$argon2id\$/);
      expect((await server.db.kysely.selectFrom('users').select('id').where('email', '=', 'new.driver@test.local').execute())).toEqual([]);
    });

    it('answers 409 for an e-mail that is a user or already pending, with one text that does not tell which', async () => {
      const user = await call(server, 'POST', '/api/users/', { body: form({ email: w.users.manager.email.toUpperCase() }) });
      expect(user.status).toBe(409);
      expect(user.body.detail).toBe('Этот e-mail уже зарегистрирован или ждёт подтверждения заявки: войдите или дождитесь подтверждения');
      await call(server, 'POST', '/api/users/', { body: form({ email: 'twice@test.local' }) });
      const again = await call(server, 'POST', '/api/users/', { body: form({ email: 'twice@test.local' }) });
      expect(again.status).toBe(409);
      expect(again.body.detail).toBe(user.body.detail);
    });

    it.each([
      [{ company_id: 999_999 }, 'company_id: компания не найдена'],
      [{ company_id: undefined }, 'company_id: обязательное поле'],
      [{ company_id: 'abc' }, 'company_id: ожидается число'],
      [{ email: 'not-an-email' }, 'email: Некорректный e-mail'],
      [{ password: 'short' }, 'password: Пароль должен быть не короче 8 символов'],
      [{ phone: undefined }, 'phone: обязательное поле'],
      [{ role: 'super-admin' }, /^role: /],
      [{ vehicle_capacity: 'много' }, /^vehicle_capacity: /],
    ])('answers 400 naming the field for %o', async (over, detail) => {
      const res = await call(server, 'POST', '/api/users/', { body: form({ email: `bad-${Math.random()}@test.local`, ...over }) });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(detail);
    });
  });

  describe('/users/drivers/', () => {
    it('lists the company\'s active drivers to staff; a super-admin sees all or one company', async () => {
      const ids = (res: { body: { id: number }[] }) => res.body.map((u) => u.id);
      const mine = await call(server, 'GET', '/api/users/drivers/', { token: w.tokens.manager });
      expect(ids(mine)).toContain(w.users.driver.id);
      expect(ids(mine)).not.toContain(w.users.driverB.id);
      expect(mine.body.every((u: { role: { name: string } }) => u.role.name === 'driver')).toBe(true);
      const all = await call(server, 'GET', '/api/users/drivers/', { token: w.tokens.super });
      expect(ids(all)).toEqual(expect.arrayContaining([w.users.driver.id, w.users.driverB.id]));
      const onlyB = await call(server, 'GET', `/api/users/drivers/?company_id=${w.companyB}`, { token: w.tokens.super });
      expect(ids(onlyB)).toEqual([w.users.driverB.id]);
    });

    it('creates an active driver of the staff member\'s company who can log in at once', async () => {
      const res = await call(server, 'POST', '/api/users/drivers/', {
        token: w.tokens.manager,
        body: { email: 'hired@test.local', password: 'hired-pass', name: 'Принятый', phone: '+7 900 010-10-10', vehicle_number: 'Х111ХХ 99' },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ company_id: w.companyA, role: { name: 'driver' }, current_transport: { vehicle_number: 'Х111ХХ 99' } });
      await login(server, 'hired@test.local', 'hired-pass');
      const dup = await call(server, 'POST', '/api/users/drivers/', {
        token: w.tokens.admin,
        body: { email: 'hired@test.local', password: 'hired-pass', name: 'Ещё', phone: '+7 900 010-10-11' },
      });
      expect(dup.status).toBe(409);
    });

    it('keeps staff within their company', async () => {
      const other = await call(server, 'POST', '/api/users/drivers/', {
        token: w.tokens.manager,
        body: { email: 'x1@test.local', password: 'pass-word', name: 'X', phone: '+7 900 010-10-12', company_id: w.companyB },
      });
      expect(other.status).toBe(403);
      const noCompany = await call(server, 'POST', '/api/users/drivers/', {
        token: w.tokens.super,
        body: { email: 'x2@test.local', password: 'pass-word', name: 'X', phone: '+7 900 010-10-13' },
      });
      expect(noCompany.status).toBe(400);
      expect(noCompany.body.detail).toBe('company_id: обязательное поле');
      const put = await call(server, 'PUT', `/api/users/drivers/${w.users.driverB.id}/`, { token: w.tokens.manager, body: { name: 'Чужой' } });
      expect(put.status).toBe(404);
      const notDriver = await call(server, 'PUT', `/api/users/drivers/${w.users.admin.id}/`, { token: w.tokens.manager, body: { name: 'Админ' } });
      expect(notDriver.status).toBe(404);
      const del = await call(server, 'DELETE', `/api/users/drivers/${w.users.driverB.id}/`, { token: w.tokens.admin });
      expect(del.status).toBe(404);
    });

    it('updates a driver and names a bad field', async () => {
      const driver = await makeUser(server, 'driver', w.companyA);
      const res = await call(server, 'PUT', `/api/users/drivers/${driver.id}/`, { token: w.tokens.admin, body: { name: 'Переименован', phone: '+7 900 999-88-77' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'Переименован', phone: '+7 900 999-88-77' });
      const bad = await call(server, 'PUT', `/api/users/drivers/${driver.id}/`, { token: w.tokens.admin, body: { is_active: 'yes' } });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^is_active: /);
      const taken = await call(server, 'PUT', `/api/users/drivers/${driver.id}/`, { token: w.tokens.admin, body: { email: w.users.manager.email } });
      expect(taken.status).toBe(409);
    });

    it('DELETE erases a driver without history and says so', async () => {
      const driver = await makeUser(server, 'driver', w.companyA);
      const removed = await call(server, 'DELETE', `/api/users/drivers/${driver.id}/`, { token: w.tokens.manager });
      expect(removed.status).toBe(200);
      expect(removed.body).toMatchObject({ outcome: 'deleted' });
      expect((await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: PASSWORD } })).status).toBe(401);
      const all = await call(server, 'GET', '/api/users/drivers/?include_inactive=true', { token: w.tokens.manager });
      expect(all.body.map((u: { id: number }) => u.id)).not.toContain(driver.id);
    });

    it('DELETE deactivates a driver with history: no login, no refresh, and the list leaves them out unless asked', async () => {
      const driver = await makeUser(server, 'driver', w.companyA);
      await addDriver(server, await createTask(server, w.companyA), driver.id);
      const pair = await login(server, driver.email);
      const removed = await call(server, 'DELETE', `/api/users/drivers/${driver.id}/`, { token: w.tokens.manager });
      expect(removed.status).toBe(200);
      expect(removed.body.outcome).toBe('deactivated');
      expect(removed.body.detail).toMatch(/отключён, а не удалён/);
      expect((await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: PASSWORD } })).status).toBe(403);
      const refused = await call(server, 'POST', '/api/auth/refresh/', { body: { refresh_token: pair.refresh_token } });
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toMatch(/отключена/);
      expect((await call(server, 'GET', '/api/users/me/', { token: pair.access_token })).status).toBe(401);
      const list = await call(server, 'GET', '/api/users/drivers/', { token: w.tokens.manager });
      expect(list.body.map((u: { id: number }) => u.id)).not.toContain(driver.id);
      const withInactive = await call(server, 'GET', '/api/users/drivers/?include_inactive=true', { token: w.tokens.manager });
      expect(withInactive.body.find((u: { id: number }) => u.id === driver.id)).toMatchObject({ is_active: false });
      // Staff can bring them back.
      const back = await call(server, 'PUT', `/api/users/drivers/${driver.id}/`, { token: w.tokens.manager, body: { is_active: true } });
      expect(back.body.is_active).toBe(true);
      await login(server, driver.email);
    });
  });
});
