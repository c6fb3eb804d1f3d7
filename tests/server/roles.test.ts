/**
 * Every guarded route of this module set against every role: 401 without or with a bad token, 403 for a
 * role outside the route's group, 2xx for one inside it (SPEC.md section 6).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMINS, ALL_ROLES, STAFF, SUPER_ONLY, type Role } from '../../contract/roles.ts';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RouteCase {
  name: string;
  method: Method;
  /** Builds the path and body afresh for each call, so creating routes never collide. */
  request: (w: World, s: TestServer) => Promise<{ url: string; body?: unknown }>;
  allowed: readonly Role[];
}

const ROUTES: RouteCase[] = [
  { name: 'GET /api/auth/roles/', method: 'GET', request: async () => ({ url: '/api/auth/roles/' }), allowed: ALL_ROLES },
  { name: 'GET /api/users/me/', method: 'GET', request: async () => ({ url: '/api/users/me/' }), allowed: ALL_ROLES },
  { name: 'PUT /api/users/me/', method: 'PUT', request: async () => ({ url: '/api/users/me/', body: { phone: '+7 900 123-45-67' } }), allowed: ALL_ROLES },
  { name: 'GET /api/users/me/transports/', method: 'GET', request: async () => ({ url: '/api/users/me/transports/' }), allowed: ALL_ROLES },
  { name: 'GET /api/users/drivers/', method: 'GET', request: async () => ({ url: '/api/users/drivers/' }), allowed: STAFF },
  {
    name: 'POST /api/users/drivers/',
    method: 'POST',
    request: async (w) => ({
      url: '/api/users/drivers/',
      body: { email: `d-${randomUUID().slice(0, 8)}@test.local`, password: 'password-1', name: 'Новый', phone: '+7 900 000-11-22', company_id: w.companyA },
    }),
    allowed: STAFF,
  },
  {
    name: 'PUT /api/users/drivers/{id}/',
    method: 'PUT',
    request: async (w) => ({ url: `/api/users/drivers/${w.users.driver.id}/`, body: { phone: '+7 900 765-43-21' } }),
    allowed: STAFF,
  },
  {
    name: 'DELETE /api/users/drivers/{id}/',
    method: 'DELETE',
    request: async (w, s) => ({ url: `/api/users/drivers/${(await makeUser(s, 'driver', w.companyA)).id}/` }),
    allowed: STAFF,
  },
  { name: 'GET /api/registration-requests/', method: 'GET', request: async () => ({ url: '/api/registration-requests/' }), allowed: STAFF },
  {
    name: 'POST /api/registration-requests/{id}/approve',
    method: 'POST',
    request: async (w, s) => {
      const res = await call(s, 'POST', '/api/registration-requests/', {
        body: { email: `r-${randomUUID().slice(0, 8)}@test.local`, password: 'password-1', name: 'Заявитель', phone: '+7 900 333-22-11', company_id: w.companyA },
      });
      return { url: `/api/registration-requests/${res.body.id}/approve` };
    },
    allowed: STAFF,
  },
  { name: 'POST /api/companies/', method: 'POST', request: async () => ({ url: '/api/companies/', body: { name: `Компания ${randomUUID()}` } }), allowed: ADMINS },
  { name: 'PUT /api/companies/{id}', method: 'PUT', request: async (w) => ({ url: `/api/companies/${w.companyA}`, body: { name: `Переименована ${randomUUID()}` } }), allowed: ADMINS },
  { name: 'DELETE /api/companies/{id}', method: 'DELETE', request: async (_w, s) => ({ url: `/api/companies/${await makeCompany(s)}` }), allowed: SUPER_ONLY },
  {
    name: 'POST /api/companies/{id}/users/',
    method: 'POST',
    request: async (w, s) => ({ url: `/api/companies/${w.companyA}/users/`, body: { user_id: (await makeUser(s, 'driver', null)).id } }),
    allowed: ADMINS,
  },
  { name: 'GET /api/client-errors/', method: 'GET', request: async () => ({ url: '/api/client-errors/' }), allowed: SUPER_ONLY },
];

const ROLE_KEYS: Record<Role, keyof World['tokens']> = { driver: 'driver', manager: 'manager', admin: 'admin', 'super-admin': 'super' };

describe.each(backends)('roles on every route ($name)', ({ databaseUrl }) => {
  let SERVER: TestServer;
  let world: World;

  serveSuite(databaseUrl, async (s) => {
    SERVER = s;
    world = await makeWorld(SERVER);
  });

  it.each(ROUTES)(
    '$name',
    async (route) => {
      for (const token of [null, 'not-a-jwt']) {
        const { url, body } = await route.request(world, SERVER);
        const res = await call(SERVER, route.method, url, { token, body });
        expect(res.status, `${route.method} ${url} token=${token}`).toBe(401);
        expect(typeof res.body.detail).toBe('string');
      }
      for (const role of ALL_ROLES) {
        const { url, body } = await route.request(world, SERVER);
        const res = await call(SERVER, route.method, url, { token: world.tokens[ROLE_KEYS[role]], body });
        const label = `${role} ${route.method} ${url} → ${res.status} ${JSON.stringify(res.body)}`;
        if (route.allowed.includes(role)) {
          expect(res.status >= 200 && res.status < 300, label).toBe(true);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.body.detail).toBe('Недостаточно прав');
        }
      }
    },
  );

  it('public routes answer without a token', async () => {
    expect((await call(SERVER, 'GET', '/api/companies/')).status).toBe(200);
    expect((await call(SERVER, 'POST', '/api/log-client-error', { body: { message: 'boom' } })).status).toBe(201);
  });
});
