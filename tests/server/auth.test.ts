import { describe, expect, it } from 'vitest';
import { ROLES } from '../../contract/roles.ts';
import { AccessTokens } from '../../server/auth/jwt.ts';
import { hashToken, REUSE_GRACE_MS } from '../../server/auth/refresh.ts';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { PASSWORD, call, login, makeCompany, makeUser, type TestUser } from '../fixtures/accounts.ts';

describe.each(backends)('auth ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let company: number;
  let driver: TestUser;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    company = await makeCompany(server);
    driver = await makeUser(server, 'driver', company);
  });

  const refresh = (token: string) => call(server, 'POST', '/api/auth/refresh/', { body: { refresh_token: token } });

  describe('login', () => {
    it('answers a bearer pair whose access token opens the profile', async () => {
      const res = await call(server, 'POST', '/api/auth/login/', {
        body: { username: driver.email.toUpperCase(), password: PASSWORD, device_id: 'dev-login', device_info: 'Chrome' },
      });
      expect(res.status).toBe(200);
      expect(res.body.token_type).toBe('bearer');
      expect(res.body.refresh_token).toMatch(/^[\w-]{40,}$/);
      const me = await call(server, 'GET', '/api/users/me/', { token: res.body.access_token });
      expect(me.status).toBe(200);
      expect(me.body.email).toBe(driver.email);
      // Only the hash is stored.
      const stored = await server.db.kysely.selectFrom('refresh_tokens').select(['token_hash', 'device_info']).where('device_id', '=', 'dev-login').execute();
      expect(stored).toEqual([{ token_hash: hashToken(res.body.refresh_token), device_info: 'Chrome' }]);
    });

    it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
      const wrong = await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: 'nope-nope' } });
      const unknown = await call(server, 'POST', '/api/auth/login/', { body: { username: 'ghost@test.local', password: PASSWORD } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ detail: 'Неверный e-mail или пароль' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('names the missing field', async () => {
      const res = await call(server, 'POST', '/api/auth/login/', { body: { password: PASSWORD } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^username: /);
      const broken = await call(server, 'POST', '/api/auth/login/', { body: '{"username":', headers: { 'content-type': 'application/json' } });
      expect(broken.status).toBe(400);
      expect(broken.body.detail).toBe('Тело запроса — некорректный JSON');
    });

    it('tells a pending registration apart only to someone who knows its password', async () => {
      const reg = await call(server, 'POST', '/api/users/', {
        body: { email: 'pending@test.local', password: 'secret-pass', name: 'Ожидающий', phone: '+7 900 111-22-33', company_id: company },
      });
      expect(reg.status).toBe(201);
      const right = await call(server, 'POST', '/api/auth/login/', { body: { username: 'pending@test.local', password: 'secret-pass' } });
      expect(right.status).toBe(403);
      expect(right.body.detail).toBe('Заявка на регистрацию ещё не подтверждена');
      const wrong = await call(server, 'POST', '/api/auth/login/', { body: { username: 'pending@test.local', password: 'other-pass' } });
      expect(wrong.status).toBe(401);
    });

    it('refuses an inactive user with 403, and their old access token stops working', async () => {
      const user = await makeUser(server, 'driver', company);
      const { access_token } = await login(server, user.email);
      await server.db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', user.id).execute();
      const res = await call(server, 'POST', '/api/auth/login/', { body: { username: user.email, password: PASSWORD } });
      expect(res.status).toBe(403);
      expect((await call(server, 'GET', '/api/users/me/', { token: access_token })).status).toBe(401);
    });

    it('stores the push subscription per device and rejects a malformed one', async () => {
      const sub = { endpoint: 'https://push.example/abc', keys: { p256dh: 'k', auth: 'a' } };
      await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: PASSWORD, device_id: 'dev-push', push_subscription: sub } });
      const rows = await server.db.kysely.selectFrom('push_subscriptions').select('subscription').where('device_id', '=', 'dev-push').execute();
      expect(rows.map((r) => JSON.parse(r.subscription))).toEqual([sub]);
      const bad = await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: PASSWORD, push_subscription: 42 } });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^push_subscription: /);
    });

    it('throttles repeated failures per e-mail with 429, even for the right password', async () => {
      const user = await makeUser(server, 'manager', company);
      for (let i = 0; i < 10; i++) {
        expect((await call(server, 'POST', '/api/auth/login/', { body: { username: user.email, password: 'wrong-pass' } })).status).toBe(401);
      }
      const blocked = await call(server, 'POST', '/api/auth/login/', { body: { username: user.email, password: PASSWORD } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.detail).toMatch(/Слишком много неудачных попыток входа/);
      // Someone else's account is not affected.
      expect((await call(server, 'POST', '/api/auth/login/', { body: { username: driver.email, password: PASSWORD } })).status).toBe(200);
    });
  });

  describe('refresh', () => {
    it('rotates: the new pair works and the used refresh token stops working', async () => {
      const first = await login(server, driver.email);
      const res = await refresh(first.refresh_token);
      expect(res.status).toBe(200);
      expect(res.body.refresh_token).not.toBe(first.refresh_token);
      expect((await call(server, 'GET', '/api/users/me/', { token: res.body.access_token })).status).toBe(200);
      expect((await refresh(res.body.refresh_token)).status).toBe(200);
    });

    it('revokes the whole chain of that device when a used token comes back, and only that chain', async () => {
      const t1 = (await login(server, driver.email, PASSWORD, 'dev-stolen')).refresh_token;
      const other = (await login(server, driver.email, PASSWORD, 'dev-other')).refresh_token;
      const t2 = (await refresh(t1)).body.refresh_token as string;
      const t3 = (await refresh(t2)).body.refresh_token as string;
      const reuse = await refresh(t1);
      expect(reuse.status).toBe(401);
      expect(reuse.body.detail).toMatch(/уже использован/);
      // The newest token of that family is dead too.
      expect((await refresh(t3)).status).toBe(401);
      // The user's other device keeps its session.
      expect((await refresh(other)).status).toBe(200);
    });

    it('a used token back after its successor was used in the same millisecond is still a reuse, not a lost answer', async () => {
      const t1 = (await login(server, driver.email, PASSWORD, 'dev-same-ms')).refresh_token;
      const t2 = (await refresh(t1)).body.refresh_token as string;
      await refresh(t2);
      // Both rotations in one millisecond (a fast machine: the ISO clock has millisecond grain).
      const same = new Date().toISOString();
      await server.db.kysely.updateTable('refresh_tokens').set({ created_at: same }).where('device_id', '=', 'dev-same-ms').execute();
      await server.db.kysely.updateTable('refresh_tokens').set({ used_at: same }).where('device_id', '=', 'dev-same-ms').where('used_at', 'is not', null).execute();
      const reuse = await refresh(t1);
      expect(reuse.status).toBe(401);
      expect(reuse.body.detail).toMatch(/уже использован/);
    });

    it('survives a lost rotation answer: the used token, back within the grace period, gets a fresh successor', async () => {
      const t1 = (await login(server, driver.email, PASSWORD, 'dev-2g')).refresh_token;
      const lost = (await refresh(t1)).body.refresh_token as string; // the phone never saw this answer
      const again = await refresh(t1);
      expect(again.status).toBe(200);
      expect(again.body.refresh_token).not.toBe(lost);
      // The answer that was lost is void; the chain goes on from the new one.
      expect((await refresh(lost)).status).toBe(401);
      expect((await refresh(again.body.refresh_token as string)).status).toBe(200);
    });

    it('treats the same comeback after the grace period as theft and revokes the chain', async () => {
      const t1 = (await login(server, driver.email, PASSWORD, 'dev-late')).refresh_token;
      const t2 = (await refresh(t1)).body.refresh_token as string;
      await server.db.kysely
        .updateTable('refresh_tokens')
        .set({ used_at: new Date(Date.now() - REUSE_GRACE_MS - 1000).toISOString() })
        .where('token_hash', '=', hashToken(t1))
        .execute();
      const late = await refresh(t1);
      expect(late.status).toBe(401);
      expect(late.body.detail).toMatch(/уже использован/);
      expect((await refresh(t2)).status).toBe(401);
    });

    it('refuses an unknown, an expired and a missing token', async () => {
      expect((await refresh('not-a-token')).status).toBe(401);
      const { refresh_token } = await login(server, driver.email);
      await server.db.kysely
        .updateTable('refresh_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', hashToken(refresh_token))
        .execute();
      const expired = await refresh(refresh_token);
      expect(expired.status).toBe(401);
      expect(expired.body.detail).toBe('Сессия истекла, войдите заново');
      const missing = await call(server, 'POST', '/api/auth/refresh/', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toMatch(/^refresh_token: /);
    });

    it('a new login on the same device ends that device\'s previous chain', async () => {
      const old = (await login(server, driver.email, PASSWORD, 'dev-relogin')).refresh_token;
      await login(server, driver.email, PASSWORD, 'dev-relogin');
      expect((await refresh(old)).status).toBe(401);
    });
  });

  describe('logout', () => {
    it('revokes the chain, drops the device\'s push subscription, and is idempotent', async () => {
      const sub = { endpoint: 'https://push.example/logout' };
      const res = await call(server, 'POST', '/api/auth/login/', {
        body: { username: driver.email, password: PASSWORD, device_id: 'dev-logout', push_subscription: sub },
      });
      const token = res.body.refresh_token as string;
      expect((await call(server, 'POST', '/api/auth/logout/', { body: { refresh_token: token } })).status).toBe(204);
      expect((await refresh(token)).status).toBe(401);
      const subs = await server.db.kysely.selectFrom('push_subscriptions').select('id').where('device_id', '=', 'dev-logout').execute();
      expect(subs).toEqual([]);
      expect((await call(server, 'POST', '/api/auth/logout/', { body: { refresh_token: token } })).status).toBe(204);
      expect((await call(server, 'POST', '/api/auth/logout/', { body: { refresh_token: 'unknown' } })).status).toBe(204);
      expect((await call(server, 'POST', '/api/auth/logout/', { body: {} })).status).toBe(400);
    });
  });

  describe('access tokens and roles', () => {
    it('refuses expired, forged and malformed bearer tokens with 401', async () => {
      const expired = await new AccessTokens(server.config.jwtSecret, -60).sign({ sub: String(driver.id), role: 'driver', device_id: 'd' });
      const forged = await new AccessTokens('another-secret-'.padEnd(48, 'y'), 600).sign({ sub: String(driver.id), role: 'super-admin', device_id: 'd' });
      for (const token of [expired, forged, 'garbage']) {
        const res = await call(server, 'GET', '/api/auth/roles/', { token });
        expect(res.status).toBe(401);
        expect(res.body.detail).toBe('Требуется вход в систему');
      }
      expect((await call(server, 'GET', '/api/auth/roles/', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    });

    it('lists every role with its Russian label', async () => {
      const { access_token } = await login(server, driver.email);
      const res = await call(server, 'GET', '/api/auth/roles/', { token: access_token });
      expect(res.status).toBe(200);
      expect(res.body.map((r: { name: string }) => r.name)).toEqual([...ROLES]);
      expect(res.body[0]).toEqual({ name: 'driver', label: 'Водитель' });
      expect((await call(server, 'GET', '/api/auth/roles')).status).toBe(401);
    });
  });
});
