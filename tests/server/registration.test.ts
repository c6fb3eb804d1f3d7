import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, login, makeCompany, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';

describe.each(backends)('registration requests ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });

  const register = async (over: Record<string, unknown> = {}, path = '/api/registration-requests/') => {
    const email = `reg-${randomUUID().slice(0, 8)}@test.local`;
    const res = await call(server, 'POST', path, {
      body: { email, password: 'reg-password', name: 'Пётр Заявкин', phone: '+7 901 000-00-01', company_id: w.companyA, ...over },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number; email: string; reviewer: string };
  };

  it('tells who will review: the company’s staff, or a super-admin (who sees it) where the company has no approver', async () => {
    expect((await register()).reviewer).toBe('company');
    const empty = await makeCompany(server);
    const orphan = await register({ company_id: empty });
    expect(orphan.reviewer).toBe('super-admin');
    const seen = await call(server, 'GET', '/api/registration-requests/', { token: w.tokens.super });
    expect(seen.body.map((r: { id: number }) => r.id)).toContain(orphan.id);
    // A manager may approve drivers only: a manager's request to a company with no admin goes to a super-admin.
    await makeUser(server, 'manager', empty);
    expect((await register({ company_id: empty })).reviewer).toBe('company');
    expect((await register({ company_id: empty, role: 'manager' })).reviewer).toBe('super-admin');
  });

  it('register → a manager approves → the new driver logs in with the vehicle as current', async () => {
    const req = await register({ vehicle_number: 'С555СС 77', vehicle_brand: 'КАМАЗ 6520', vehicle_capacity: 20 });
    const before = await call(server, 'POST', '/api/auth/login/', { body: { username: req.email, password: 'reg-password' } });
    expect(before.status).toBe(403);

    const approved = await call(server, 'POST', `/api/registration-requests/${req.id}/approve`, { token: w.tokens.manager });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ email: req.email, role: { name: 'driver' }, company_id: w.companyA });

    const pair = await login(server, req.email, 'reg-password');
    const me = await call(server, 'GET', '/api/users/me/', { token: pair.access_token });
    expect(me.body).toMatchObject({
      name: 'Пётр Заявкин',
      phone: '+7 901 000-00-01',
      current_transport: { vehicle_number: 'С555СС 77', vehicle_brand: 'КАМАЗ 6520', vehicle_capacity: 20, is_current: true },
    });
    const row = await server.db.kysely.selectFrom('registration_requests').selectAll().where('id', '=', req.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'approved', approved_by: w.users.manager.id, user_id: me.body.id });

    const again = await call(server, 'POST', `/api/registration-requests/${req.id}/approve`, { token: w.tokens.admin });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Заявка уже подтверждена');
  });

  it('POST /users/ makes the same kind of request', async () => {
    const req = await register({}, '/api/users/');
    const list = await call(server, 'GET', '/api/registration-requests/', { token: w.tokens.manager });
    expect(list.body.map((r: { id: number }) => r.id)).toContain(req.id);
  });

  it('lists pending requests with the company name and, for drivers, the vehicle', async () => {
    const driverReq = await register({ vehicle_number: 'У123УУ 99', vehicle_brand: 'MAN', vehicle_capacity: 18 });
    const managerReq = await register({ role: 'manager', vehicle_number: 'Ignored 1' });
    const res = await call(server, 'GET', '/api/registration-requests/', { token: w.tokens.admin });
    expect(res.status).toBe(200);
    const byId = new Map(res.body.map((r: { id: number }) => [r.id, r]));
    expect(byId.get(driverReq.id)).toMatchObject({
      role: 'driver',
      status: 'pending',
      company_name: expect.stringMatching(/^Компания /),
      vehicle_number: 'У123УУ 99',
      current_transport: { vehicle_number: 'У123УУ 99', vehicle_brand: 'MAN', vehicle_capacity: 18 },
    });
    expect(byId.get(managerReq.id)).toMatchObject({ role: 'manager', vehicle_number: null, current_transport: null });
    expect(res.body.every((r: { password_hash?: string }) => r.password_hash === undefined)).toBe(true);
  });

  it('scopes the list: staff see their company\'s, a super-admin sees all', async () => {
    const reqB = await register({ company_id: w.companyB });
    const ids = async (token: string) =>
      (await call(server, 'GET', '/api/registration-requests/', { token })).body.map((r: { id: number }) => r.id);
    expect(await ids(w.tokens.manager)).not.toContain(reqB.id);
    expect(await ids(w.tokens.managerB)).toContain(reqB.id);
    expect(await ids(w.tokens.super)).toContain(reqB.id);
  });

  it('keeps approval within bounds', async () => {
    const managerReq = await register({ role: 'manager' });
    const byManager = await call(server, 'POST', `/api/registration-requests/${managerReq.id}/approve`, { token: w.tokens.manager });
    expect(byManager.status).toBe(403);
    expect(byManager.body.detail).toBe('Менеджер может подтверждать только заявки водителей');
    const byOtherAdmin = await call(server, 'POST', `/api/registration-requests/${managerReq.id}/approve`, { token: w.tokens.adminB });
    expect(byOtherAdmin.status).toBe(404);
    const byAdmin = await call(server, 'POST', `/api/registration-requests/${managerReq.id}/approve`, { token: w.tokens.admin });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.role).toEqual({ name: 'manager' });

    expect((await call(server, 'POST', '/api/registration-requests/999999/approve', { token: w.tokens.super })).status).toBe(404);
    const bad = await call(server, 'POST', '/api/registration-requests/x1/approve', { token: w.tokens.super });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^id: /);
  });

  it('answers 409 when the e-mail became a user after the request was made', async () => {
    const req = await register();
    await call(server, 'POST', '/api/users/drivers/', {
      token: w.tokens.manager,
      body: { email: req.email, password: 'other-pass', name: 'Уже создан', phone: '+7 900 000-00-09' },
    });
    const res = await call(server, 'POST', `/api/registration-requests/${req.id}/approve`, { token: w.tokens.manager });
    expect(res.status).toBe(409);
    // The failed approval left the request pending (the transaction rolled back).
    const row = await server.db.kysely.selectFrom('registration_requests').select('status').where('id', '=', req.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('names the bad field on POST', async () => {
    const res = await call(server, 'POST', '/api/registration-requests/', { body: { email: 'x@test.local' } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('password: обязательное поле');
  });
});
