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

  it('staff reject a request with a reason: it leaves the list, the applicant is told why at sign-in, and may apply again', async () => {
    const req = await register();
    const blank = await call(server, 'POST', `/api/registration-requests/${req.id}/reject`, { token: w.tokens.manager, body: { reason: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.detail).toBe('reason: укажите причину отказа');
    expect((await call(server, 'POST', `/api/registration-requests/${req.id}/reject`, { token: w.tokens.adminB, body: { reason: 'Чужая' } })).status).toBe(404);

    const rejected = await call(server, 'POST', `/api/registration-requests/${req.id}/reject`, { token: w.tokens.manager, body: { reason: ' Не работает у нас ' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id: req.id, status: 'rejected', reject_reason: 'Не работает у нас' });
    const row = await server.db.kysely.selectFrom('registration_requests').selectAll().where('id', '=', req.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'rejected', rejected_by: w.users.manager.id, reject_reason: 'Не работает у нас', user_id: null });
    const list = await call(server, 'GET', '/api/registration-requests/', { token: w.tokens.manager });
    expect(list.body.map((r: { id: number }) => r.id)).not.toContain(req.id);

    // Decided once: neither approved nor rejected again.
    const approve = await call(server, 'POST', `/api/registration-requests/${req.id}/approve`, { token: w.tokens.admin });
    expect([approve.status, approve.body.detail]).toEqual([409, 'Заявка уже отклонена']);
    const twice = await call(server, 'POST', `/api/registration-requests/${req.id}/reject`, { token: w.tokens.admin, body: { reason: 'Ещё раз' } });
    expect([twice.status, twice.body.detail]).toEqual([409, 'Заявка уже отклонена']);

    // The applicant, with the request's password, learns the reason; with another password, nothing.
    const signIn = await call(server, 'POST', '/api/auth/login/', { body: { username: req.email, password: 'reg-password' } });
    expect([signIn.status, signIn.body.detail]).toEqual([403, 'Заявка на регистрацию отклонена: Не работает у нас']);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: req.email, password: 'guess-password' } })).status).toBe(401);

    // The e-mail is free for a new request, which then waits as any other.
    const again = await call(server, 'POST', '/api/registration-requests/', {
      body: { email: req.email, password: 'new-password', name: 'Пётр Заявкин', phone: '+7 901 000-00-01', company_id: w.companyA },
    });
    expect(again.status).toBe(201);
    const pending = await call(server, 'POST', '/api/auth/login/', { body: { username: req.email, password: 'new-password' } });
    expect([pending.status, pending.body.detail]).toEqual([403, 'Заявка на регистрацию ещё не подтверждена']);
  });

  it('a manager rejects drivers\' requests only, as with approval', async () => {
    const managerReq = await register({ role: 'manager' });
    const byManager = await call(server, 'POST', `/api/registration-requests/${managerReq.id}/reject`, { token: w.tokens.manager, body: { reason: 'Нет' } });
    expect([byManager.status, byManager.body.detail]).toEqual([403, 'Менеджер может отклонять только заявки водителей']);
    expect((await call(server, 'POST', `/api/registration-requests/${managerReq.id}/reject`, { token: w.tokens.admin, body: { reason: 'Нет' } })).status).toBe(200);
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
