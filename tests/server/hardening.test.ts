/** Hardening (docs/hardening.md), each gap shown on the real app: password spraying and tokens without exp. */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { PASSWORD, call, makeCompany, makeUser, withAccessToken } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';

describe.each(backends)('hardening ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  serveSuite(databaseUrl, (s) => {
    server = s;
  });

  it('throttles failed logins per address across accounts (password spraying), not other addresses', async () => {
    const remoteAddress = '198.51.100.7';
    const company = await makeCompany(server);
    const victim = await makeUser(server, 'manager', company);
    let blockedAt = -1;
    for (let i = 0; i < 40; i++) {
      const res = await call(server, 'POST', '/api/auth/login/', { body: { username: `sprayed-${i}@test.local`, password: 'Winter2026!' }, remoteAddress });
      if (res.status === 429) {
        blockedAt = i;
        expect(res.body.detail).toMatch(/Слишком много неудачных попыток входа/);
        break;
      }
      expect(res.status).toBe(401);
    }
    expect(blockedAt).toBe(30);
    // The right password from that address waits too; from another address it works.
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: victim.email, password: PASSWORD }, remoteAddress })).status).toBe(429);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: victim.email, password: PASSWORD, device_id: 'victim-phone' }, remoteAddress: '198.51.100.8' })).status).toBe(200);
    // A device that has signed in to this account before gets past the address's lock with the right password
    // (a driver behind the attacker's carrier NAT); a wrong one from it is refused and counted as before.
    const known = { username: victim.email, password: PASSWORD, device_id: 'victim-phone' };
    expect((await call(server, 'POST', '/api/auth/login/', { body: known, remoteAddress })).status).toBe(200);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { ...known, password: 'wrong-password' }, remoteAddress })).status).toBe(401);
    // Another account's device id, or a made-up one, does not.
    expect((await call(server, 'POST', '/api/auth/login/', { body: { ...known, device_id: 'guessed-device' }, remoteAddress })).status).toBe(429);
    const other = await makeUser(server, 'manager', company);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: other.email, password: PASSWORD, device_id: 'victim-phone' }, remoteAddress })).status).toBe(429);
  });

  it('a burst of wrong passwords sent at once is held to the limit: each attempt counts before its check', async () => {
    const remoteAddress = '198.51.100.9';
    const company = await makeCompany(server);
    const victim = await makeUser(server, 'manager', company);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => call(server, 'POST', '/api/auth/login/', { body: { username: victim.email, password: 'wrong-password' }, remoteAddress })),
    );
    const statuses = answers.map((a) => a.status).sort();
    // The per-account limit is 10 failures: without counting before the check all 16 were checked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: victim.email, password: PASSWORD }, remoteAddress })).status).toBe(429);
    // Right passwords are given back: another account signs in from the same address in bursts of 8, three times —
    // 24 sign-ins on top of the address's 10 failures, past its 30 had they stayed counted.
    const other = await makeUser(server, 'manager', company);
    for (let round = 0; round < 3; round++) {
      const good = await Promise.all(
        Array.from({ length: 8 }, () => call(server, 'POST', '/api/auth/login/', { body: { username: other.email, password: PASSWORD }, remoteAddress })),
      );
      expect(good.map((a) => a.status)).toEqual(Array(8).fill(200));
    }
  });

  it('an anonymous sign-in or registration body over 16 kB is refused with 413 before it is parsed', async () => {
    const nested = `{"username":"a@b.c","password":"x","push_subscription":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    for (const url of ['/api/auth/login/', '/api/auth/refresh/', '/api/registration-requests/', '/api/users/']) {
      const res = await server.app.inject({ method: 'POST', url, payload: nested, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, url).toBe(413);
      expect((res.json() as { detail: string }).detail, url).toMatch(/[а-я]/);
    }
    // A real sign-in still fits.
    const company = await makeCompany(server);
    const user = await makeUser(server, 'manager', company);
    expect((await call(server, 'POST', '/api/auth/login/', { body: { username: user.email, password: PASSWORD } })).status).toBe(200);
  });

  it('refuses a correctly signed access token without exp', async () => {
    const company = await makeCompany(server);
    const user = await makeUser(server, 'manager', company);
    const key = new TextEncoder().encode(server.config.jwtSecret);
    const claims = { role: 'manager', device_id: 'd', typ: 'access' };
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.id)).setIssuedAt().sign(key);
    const res = await call(server, 'GET', '/api/users/me/', { token: forever });
    expect(res.status).toBe(401);
    const expiring = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(String(user.id)).setIssuedAt().setExpirationTime('5m').sign(key);
    expect((await call(server, 'GET', '/api/users/me/', { token: expiring })).status).toBe(200);
  });

  it('path ids are digits only, and JSON bodies are not coerced', async () => {
    const company = await makeCompany(server);
    const admin = await withAccessToken(server, await makeUser(server, 'admin', company));
    const driver = await withAccessToken(server, await makeUser(server, 'driver', company));
    for (const id of ['+1', '%201', '1.0', '1e0', '0x1', '01', '-1', '0']) {
      const res = await call(server, 'GET', `/api/wages/driver/${id}`, { token: admin.token });
      expect(res.status, id).toBe(400);
      expect(res.body.detail).toMatch(/^id: /);
    }
    const moved = await call(server, 'POST', `/api/companies/${company}/users/`, { token: admin.token, body: { user_id: true } });
    expect(moved.status).toBe(400);
    expect(moved.body.detail).toMatch(/^user_id/);
    const hours = await call(server, 'POST', '/api/reports/daily_hours/', { token: driver.token, body: { date: '2026-11-20', hours: '8' } });
    expect(hours.status).toBe(400);
    expect(hours.body.detail).toMatch(/^hours/);
    expect((await call(server, 'POST', '/api/reports/daily_hours/', { token: driver.token, body: { date: '2026-11-20', hours: 8 } })).status).toBe(200);
  });
});

describe('framework-level errors speak JSON in Russian', () => {
  let server: TestServer;
  serveSuite(undefined, (s) => {
    server = s;
  }, { listen: true });

  it('a malformed escape and a 3 000-character id answer {detail}, not the framework\'s own body', async () => {
    const bad = await call(server, 'GET', '/api/wages/driver/%FF%FE');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ detail: 'Некорректный адрес запроса' });
    // Fastify refuses it in its router (414, or 404 when the router finds no route for it): ours either way.
    const long = await call(server, 'GET', `/api/wages/driver/${'1'.repeat(3000)}`);
    expect([404, 414]).toContain(long.status);
    expect(long.body.detail).toMatch(/^(Слишком длинный адрес запроса|Нет такого адреса API)/);
  });

  it('malformed HTTP on the socket gets a JSON answer with a Russian detail and no stack', async () => {
    const { port } = new URL(server.url as string);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const nul = await raw('GET /api/auth/roles/ HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n');
    expect(nul).toMatch(/^HTTP\/1\.1 400/);
    expect(nul).toContain('{"detail":"Некорректный HTTP-запрос"}');
    const smuggled = await raw('POST /api/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(smuggled).toMatch(/^HTTP\/1\.1 400/);
    expect(smuggled).toContain('"detail"');
    const huge = await raw(`GET /api/auth/roles/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431/);
    expect(huge).toContain('Слишком большие заголовки запроса');
  });
});

describe('sign-up floods', () => {
  let server: TestServer;
  serveSuite(undefined, (s) => void (server = s), { config: { signupsPerAddress: 3, signupsPerCompany: 5 } });

  const signUp = (company: number, remoteAddress: string, n: number) =>
    call(server, 'POST', n % 2 ? '/api/registration-requests/' : '/api/users/', {
      body: { email: `flood-${remoteAddress}-${n}-${company}@test.local`, password: 'password-123', name: 'Пётр Поток', phone: '+79990000000', company_id: company },
      remoteAddress,
    });

  it('an address gets its few sign-ups an hour, through both routes together; another address is not held back; a company has its own ceiling', async () => {
    const company = await makeCompany(server);
    for (let n = 0; n < 3; n++) expect((await signUp(company, '203.0.113.5', n)).status).toBe(201);
    const refused = await signUp(company, '203.0.113.5', 3);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Слишком много заявок на регистрацию с этого адреса: попробуйте через \d+ мин\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A malformed sign-up costs nothing and is answered 400 as before.
    expect((await call(server, 'POST', '/api/registration-requests/', { body: { email: 'x' }, remoteAddress: '203.0.113.6' })).status).toBe(400);
    // Other addresses fill the company up to its ceiling (5 an hour), then it is closed to everyone for the hour.
    expect((await signUp(company, '203.0.113.6', 0)).status).toBe(201);
    expect((await signUp(company, '203.0.113.7', 0)).status).toBe(201);
    const full = await signUp(company, '203.0.113.8', 0);
    expect(full.status).toBe(429);
    expect(full.body.detail).toMatch(/в эту компанию/);
    // Another company is open to a fresh address.
    expect((await signUp(await makeCompany(server), '203.0.113.9', 0)).status).toBe(201);
    const pending = await server.db.kysely.selectFrom('registration_requests').select('id').where('company_id', '=', company).execute();
    expect(pending).toHaveLength(5);
  });
});

describe('a request that does not arrive whole', () => {
  let server: TestServer;
  serveSuite(undefined, (s) => void (server = s), { listen: true, config: { requestTimeoutMs: 800 } });

  /** Writes `head` and `body` to a raw socket and answers what came back once the server closed it. */
  const raw = (head: string, body: Buffer | string) =>
    new Promise<string>((resolve, reject) => {
      const { port } = new URL(server.url as string);
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(Buffer.concat([Buffer.from(head), Buffer.from(body)])));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });

  const rowsAndFiles = async () => {
    const reports = await server.db.kysely.selectFrom('reports').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const dir = join(server.config.dataDir, 'files');
    // Files only (a folder made for uploads is not one), temporary uploads included.
    const files = existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()) : [];
    return { reports: Number(reports.n), files: files.length };
  };

  it('a body announced and never finished is answered 408 in Russian and the socket closed', async () => {
    const answer = await raw('POST /api/auth/login/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n', '{"username"');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('Запрос не пришёл целиком');
  });

  it('a photo upload that stalls or loses the signal halfway leaves no report and no file', async () => {
    const company = await makeCompany(server);
    const driver = await withAccessToken(server, await makeUser(server, 'driver', company));
    const task = await createTask(server, company, { date: dayFromToday(0) });
    const association = await addDriver(server, task, driver.id);
    const { payload, headers } = await encodeForm(reportForm({ association_id: association, quantity: '24.5' }, [{ data: JPEG_8x6, filename: 'a.jpg' }]));
    const head = `POST /api/reports/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${driver.token}\r\nIdempotency-Key: ${randomUUID()}\r\nContent-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`;
    const before = await rowsAndFiles();
    // Stalls: all but the last 40 bytes (the photo's bytes and the closing boundary) — then nothing.
    const stalled = await raw(head, payload.subarray(0, payload.length - 40));
    expect(stalled).toMatch(/^HTTP\/1\.1 408/);
    // Loses the signal: the socket is gone halfway.
    await new Promise<void>((resolve, reject) => {
      const { port } = new URL(server.url as string);
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(Buffer.concat([Buffer.from(head), payload.subarray(0, payload.length - 40)]), () => setTimeout(() => (socket.destroy(), resolve()), 100));
      });
      socket.on('error', reject);
    });
    // Whatever the server was doing with either has ended by now (the next request is served after them).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call(server, 'GET', '/api/users/me/', { token: driver.token })).status).toBe(200);
    expect(await rowsAndFiles()).toEqual(before);
    // The same upload sent whole is stored: the limit is not what refused the two above.
    const whole = await raw(head, payload);
    expect(whole).toMatch(/^HTTP\/1\.1 201/);
    // The photo streamed to a temporary file was moved into storage: one file more, nothing left under uploads/.
    expect(await rowsAndFiles()).toEqual({ reports: before.reports + 1, files: before.files + 1 });
    // The same upload again (a replay of its key) stores nothing and leaves nothing behind.
    expect(await raw(head, payload)).toMatch(/^HTTP\/1\.1 200/);
    // A refused photo (not an image) leaves nothing either.
    const notPhoto = await encodeForm(reportForm({ association_id: association, quantity: '1' }, [{ data: Buffer.from('not a photo at all'), filename: 'x.jpg' }]));
    const refused = await call(server, 'POST', '/api/reports/', {
      token: driver.token,
      headers: { ...notPhoto.headers, 'idempotency-key': randomUUID() },
      body: notPhoto.payload,
    });
    expect(refused.status).toBe(415);
    expect(await rowsAndFiles()).toEqual({ reports: before.reports + 1, files: before.files + 1 });
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  let server: TestServer;
  serveSuite(undefined, (s) => void (server = s), { config: { trustProxy: ['10.0.0.2'], signupsPerAddress: 2 } });

  it('the address the proxy saw is the client\'s: one client\'s limit is not another\'s, and a forged hop changes nothing', async () => {
    const company = await makeCompany(server);
    // Every request reaches the server from the proxy's own address; the proxy appends what it saw.
    const via = (client: string, forged?: string) => ({ remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': forged ? `${forged}, ${client}` : client } });
    const signUp = (n: number, client: string, forged?: string) =>
      call(server, 'POST', '/api/registration-requests/', {
        body: { email: `proxied-${client}-${n}-${forged ?? ''}@test.local`, password: 'password-123', name: 'Пётр Прокси', phone: '+79990000000', company_id: company },
        ...via(client, forged),
      });
    expect((await signUp(0, '203.0.113.30')).status).toBe(201);
    expect((await signUp(1, '203.0.113.30')).status).toBe(201);
    expect((await signUp(2, '203.0.113.30')).status).toBe(429);
    // A client may put anything in front of what the proxy appends: it is not believed.
    expect((await signUp(3, '203.0.113.30', '198.51.100.99')).status).toBe(429);
    // Another client behind the same proxy is not held back.
    expect((await signUp(0, '203.0.113.31')).status).toBe(201);
    // A client that is not the proxy cannot name an address: its own counts.
    const direct = (n: number, forged: string) =>
      call(server, 'POST', '/api/registration-requests/', {
        body: { email: `direct-${n}@test.local`, password: 'password-123', name: 'Пётр Прямой', phone: '+79990000000', company_id: company },
        remoteAddress: '203.0.113.40',
        headers: { 'x-forwarded-for': forged },
      });
    expect((await direct(0, '192.0.2.1')).status).toBe(201);
    expect((await direct(1, '192.0.2.2')).status).toBe(201);
    expect((await direct(2, '192.0.2.3')).status).toBe(429);
  });
});
