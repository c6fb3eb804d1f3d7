/** The app shell: unknown API paths answer JSON 404, the built PWA is served with an SPA fallback. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from '../fixtures/server.ts';
import { call } from '../fixtures/accounts.ts';

const INDEX = '<!doctype html><title>Рейс</title><div id="root"></div>';

describe.each(backends)('app shell ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let distDir: string;

  beforeAll(async () => {
    distDir = mkdtempSync(join(tmpdir(), 'reis-dist-'));
    writeFileSync(join(distDir, 'index.html'), INDEX);
    writeFileSync(join(distDir, 'app.js'), 'console.log(1)');
    server = await startTestServer({ databaseUrl, listen: false, config: { distDir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    for (const [method, url] of [['GET', '/api/no-such-thing'], ['POST', '/api/tasks/nope/'], ['GET', '/api/']] as const) {
      const res = await call(server, method, url);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body.detail).toMatch(/^Нет такого адреса API/);
    }
  });

  it('serves index.html for a deep link, so a reload of /tasks/manage works', async () => {
    for (const url of ['/tasks/manage', '/reports/15', '/', '/no/such/screen']) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toBe(INDEX);
    }
  });

  it('serves built files as themselves', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log(1)');
  });

  it('accepts the spec\'s paths with and without the trailing slash', async () => {
    expect((await call(server, 'GET', '/api/companies')).status).toBe(200);
    expect((await call(server, 'GET', '/api/companies/')).status).toBe(200);
  });

  it('never answers a client mistake with a 500', async () => {
    const cases = [
      await server.app.inject({ method: 'POST', url: '/api/auth/login/', payload: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      await server.app.inject({ method: 'POST', url: '/api/auth/login/', payload: '"a string"', headers: { 'content-type': 'application/json' } }),
      await server.app.inject({ method: 'POST', url: '/api/auth/login/', payload: '', headers: { 'content-type': 'application/json' } }),
      await server.app.inject({ method: 'PUT', url: '/api/users/me/transport/abc/', headers: { authorization: 'Bearer x' } }),
    ];
    expect(cases.map((r) => r.statusCode)).toEqual([415, 400, 400, 401]);
    for (const r of cases) expect(typeof JSON.parse(r.body).detail).toBe('string');
  });
});

describe('without a build', () => {
  it('answers JSON 404 outside /api too', async () => {
    const server = await startTestServer({ listen: false, config: { distDir: join(tmpdir(), 'reis-no-dist-here') } });
    try {
      const res = await call(server, 'GET', '/tasks/manage');
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Не найдено');
    } finally {
      await server.close();
    }
  });
});
