import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeWorld, type World } from '../fixtures/accounts.ts';

const report = (over: Record<string, unknown> = {}) => ({
  message: 'TypeError: x is undefined',
  stack: 'TypeError: x is undefined\n    at App (app.js:10:5)',
  source: 'https://reis.example/assets/app.js',
  lineno: 10,
  colno: 5,
  userAgent: 'Mozilla/5.0 (Linux; Android 12)',
  url: 'https://reis.example/current-tasks',
  time: '2026-11-21T10:00:00.000Z',
  ...over,
});

describe.each(backends)('client errors ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let w: World;
  let device = 0;
  /** A fresh device per test, so the per-device limit of one test does not spill into the next. */
  let headers: Record<string, string>;

  serveSuite(databaseUrl, async (s) => {
    server = s;
    w = await makeWorld(server);
  });
  beforeEach(() => {
    device += 1;
    headers = { 'x-device-id': `device-${device}` };
  });

  const latest = () => server.db.kysely.selectFrom('client_errors').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  it('stores a report without a token', async () => {
    const res = await call(server, 'POST', '/api/log-client-error', { body: report(), headers });
    expect(res.status).toBe(201);
    expect(await latest()).toMatchObject({
      id: res.body.id, user_id: null, device_id: headers['x-device-id'], message: 'TypeError: x is undefined',
      lineno: 10, colno: 5, user_agent: 'Mozilla/5.0 (Linux; Android 12)', url: 'https://reis.example/current-tasks',
    });
  });

  it('attaches the user when a valid bearer token comes with it, and ignores a bad one', async () => {
    await call(server, 'POST', '/api/log-client-error/', { body: report(), headers, token: w.tokens.driver });
    expect((await latest()).user_id).toBe(w.users.driver.id);
    const res = await call(server, 'POST', '/api/log-client-error', { body: report(), headers, token: 'expired-or-garbage' });
    expect(res.status).toBe(201);
    expect((await latest()).user_id).toBeNull();
  });

  it('cuts long fields instead of refusing them', async () => {
    const res = await call(server, 'POST', '/api/log-client-error', { body: report({ stack: 's'.repeat(20_000), message: 'm'.repeat(5000) }), headers });
    expect(res.status).toBe(201);
    const row = await latest();
    expect(row.stack).toHaveLength(8192);
    expect(row.message).toHaveLength(2000);
  });

  it('refuses a body over 64 kB with 413', async () => {
    const res = await call(server, 'POST', '/api/log-client-error', { body: report({ stack: 'x'.repeat(70 * 1024) }), headers });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('Слишком большой запрос');
  });

  it('names the bad field', async () => {
    const missing = await call(server, 'POST', '/api/log-client-error', { body: { stack: 'x' }, headers });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toBe('message: обязательное поле');
    const lineno = await call(server, 'POST', '/api/log-client-error', { body: report({ lineno: 'ten' }), headers });
    expect(lineno.body.detail).toBe('lineno: ожидается число');
  });

  it('accepts the text/plain JSON that navigator.sendBeacon posts', async () => {
    const res = await server.app.inject({
      method: 'POST', url: '/api/log-client-error', payload: JSON.stringify(report({ message: 'from beacon' })),
      headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' },
    });
    expect(res.statusCode).toBe(201);
    expect((await latest()).message).toBe('from beacon');
  });

  it('limits each address to 30 reports a minute with 429, whatever device id it claims; other addresses are unaffected', async () => {
    const remoteAddress = '192.0.2.10';
    for (let i = 0; i < 30; i++) {
      const rotating = { 'x-device-id': `device-${i}` };
      expect((await call(server, 'POST', '/api/log-client-error', { body: report(), headers: rotating, remoteAddress })).status).toBe(201);
    }
    const over = await call(server, 'POST', '/api/log-client-error', { body: report(), headers: { 'x-device-id': 'fresh-id' }, remoteAddress });
    expect(over.status).toBe(429);
    expect(over.body.detail).toBe('Слишком много отчётов об ошибках, попробуйте позже');
    expect((await call(server, 'POST', '/api/log-client-error', { body: report(), headers, remoteAddress: '192.0.2.11' })).status).toBe(201);
  });

  it('lists newest first to a super-admin, paged', async () => {
    for (const n of [1, 2, 3]) await call(server, 'POST', '/api/log-client-error', { body: report({ message: `paged ${n}` }), headers });
    const first = await call(server, 'GET', '/api/client-errors/?limit=2', { token: w.tokens.super });
    expect(first.status).toBe(200);
    expect(first.body.items.map((e: { message: string }) => e.message)).toEqual(['paged 3', 'paged 2']);
    expect(first.body.next_offset).toBe(2);
    expect(first.body.total).toBeGreaterThanOrEqual(3);
    const second = await call(server, 'GET', '/api/client-errors/?limit=2&offset=2', { token: w.tokens.super });
    expect(second.body.items[0].message).toBe('paged 1');
    const end = await call(server, 'GET', `/api/client-errors/?offset=${first.body.total - 1}`, { token: w.tokens.super });
    expect(end.body.items).toHaveLength(1);
    expect(end.body.next_offset).toBeNull();
    const bad = await call(server, 'GET', '/api/client-errors/?limit=5000', { token: w.tokens.super });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^limit: /);
    expect((await call(server, 'GET', '/api/client-errors/', { token: w.tokens.admin })).status).toBe(403);
    expect((await call(server, 'GET', '/api/client-errors/')).status).toBe(401);
  });
});
