import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';

describe.each(backends)('companies ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });

  it('lists id and name to anyone, sorted by name', async () => {
    const res = await call(server, 'GET', '/api/companies/');
    expect(res.status).toBe(200);
    expect(res.body.map((c: object) => Object.keys(c).sort())).toContainEqual(['id', 'name']);
    expect(res.body.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([w.companyA, w.companyB]));
    const names = res.body.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort());
  });

  it('lets an admin create a company; a duplicate name is 409, an empty one 400', async () => {
    const name = `  ООО «Новая ${randomUUID().slice(0, 6)}»  `;
    const res = await call(server, 'POST', '/api/companies/', { token: w.tokens.admin, body: { name } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), name: name.trim() });
    expect((await call(server, 'GET', '/api/companies')).body).toContainEqual(res.body);
    const dup = await call(server, 'POST', '/api/companies/', { token: w.tokens.super, body: { name: name.trim() } });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe('Компания с таким названием уже есть');
    const empty = await call(server, 'POST', '/api/companies/', { token: w.tokens.admin, body: { name: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('name: Укажите название');
  });

  it('lets an admin rename only their own company; a super-admin any', async () => {
    const own = await call(server, 'PUT', `/api/companies/${w.companyA}`, { token: w.tokens.admin, body: { name: 'Своя компания' } });
    expect(own.status).toBe(200);
    // The answer carries the company's requisites too (none entered yet).
    expect(own.body).toEqual({ id: w.companyA, name: 'Своя компания', full_name: null, inn: null, kpp: null, ogrn: null, address: null, phone: null, edo_id: null, vat_rate: null });
    const other = await call(server, 'PUT', `/api/companies/${w.companyB}`, { token: w.tokens.admin, body: { name: 'Чужая' } });
    expect(other.status).toBe(403);
    const bySuper = await call(server, 'PUT', `/api/companies/${w.companyB}/`, { token: w.tokens.super, body: { name: 'Переименована суперадмином' } });
    expect(bySuper.status).toBe(200);
    expect((await call(server, 'PUT', '/api/companies/999999', { token: w.tokens.super, body: { name: 'Нет' } })).status).toBe(404);
    const clash = await call(server, 'PUT', `/api/companies/${w.companyB}`, { token: w.tokens.super, body: { name: 'Своя компания' } });
    expect(clash.status).toBe(409);
    const noName = await call(server, 'PUT', `/api/companies/${w.companyA}`, { token: w.tokens.admin, body: {} });
    expect(noName.body.detail).toBe('name: обязательное поле');
  });

  it('deletes only an unused company', async () => {
    const used = await call(server, 'DELETE', `/api/companies/${w.companyA}`, { token: w.tokens.super });
    expect(used.status).toBe(409);
    const empty = await makeCompany(server);
    expect((await call(server, 'DELETE', `/api/companies/${empty}`, { token: w.tokens.super })).status).toBe(204);
    expect((await call(server, 'GET', '/api/companies/')).body.map((c: { id: number }) => c.id)).not.toContain(empty);
    expect((await call(server, 'DELETE', `/api/companies/${empty}`, { token: w.tokens.super })).status).toBe(404);
    expect((await call(server, 'DELETE', '/api/companies/zero', { token: w.tokens.super })).status).toBe(400);
  });

  it('attaches a user to a company', async () => {
    const loose = await makeUser(server, 'driver', null);
    const res = await call(server, 'POST', `/api/companies/${w.companyA}/users/`, { token: w.tokens.admin, body: { user_id: loose.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: loose.id, company_id: w.companyA });
    // An admin cannot pull someone out of another company, nor attach into one that is not theirs.
    const poach = await call(server, 'POST', `/api/companies/${w.companyA}/users/`, { token: w.tokens.admin, body: { user_id: w.users.driverB.id } });
    expect(poach.status).toBe(404);
    const foreign = await call(server, 'POST', `/api/companies/${w.companyB}/users/`, { token: w.tokens.admin, body: { user_id: loose.id } });
    expect(foreign.status).toBe(403);
    // A super-admin moves anyone.
    const moved = await call(server, 'POST', `/api/companies/${w.companyB}/users`, { token: w.tokens.super, body: { user_id: loose.id } });
    expect(moved.body.company_id).toBe(w.companyB);
    const bad = await call(server, 'POST', `/api/companies/${w.companyA}/users/`, { token: w.tokens.super, body: { user_id: 'abc' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('user_id: ожидается число');
    const missing = await call(server, 'POST', `/api/companies/${w.companyA}/users/`, { token: w.tokens.super, body: { user_id: 999999 } });
    expect(missing.status).toBe(404);
  });
});
