/**
 * Push notifications without any outside push service: a subscription whose endpoint is a local HTTP server here.
 * The test decrypts what arrives with the subscription's own keys (aes128gcm, as a browser would) and checks
 * the Russian text and the link; checks the VAPID signature names the key GET /push/key/ serves; a push
 * service's 410 deletes the subscription; turning notifications off stops them.
 */
import { createECDH, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { waitFor } from '../e2e/harness/wait.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string }): Buffer;
};

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service double on loopback: records what arrives, answers `status`. */
const received: Received[] = [];
let status = 201;
let endpointBase = '';
const service = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(status).end();
  });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  endpointBase = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

/** A browser's subscription: its own key pair and auth secret, as PushManager.subscribe makes them. */
function subscriptionFor(name: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    ecdh,
    auth,
    json: { endpoint: `${endpointBase}/push/${name}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } },
  };
}

function decrypt(message: Received, sub: ReturnType<typeof subscriptionFor>): { body: string; url: string } {
  expect(message.headers['content-encoding']).toBe('aes128gcm');
  return JSON.parse(ece.decrypt(message.body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8')) as { body: string; url: string };
}

describe.each(backends)('push notifications ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
    received.length = 0;
    status = 201;
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user?: SignedInUser, payload?: object) =>
    server.app.inject({ method, url: `/api${url}`, headers: user?.auth ?? {}, ...(payload ? { payload } : {}) });

  async function subscribe(user: SignedInUser, name: string) {
    const sub = subscriptionFor(name);
    expect((await call('PUT', '/push/subscription/', user, { push_subscription: sub.json })).statusCode).toBe(204);
    return sub;
  }

  const arrived = (path: string) => waitFor(() => received.find((r) => r.path === path), { message: `a push at ${path}`, timeout: 5_000 });

  it('tells a driver a task was assigned to them, signed with the key /push/key/ serves', async () => {
    const sub = await subscribe(p.driver, 'driver');
    const taskId = await createTask(server, p.company, { cargo: 'Песок мытый', date: '2026-11-25' });
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver.id}/`, p.manager)).statusCode).toBe(200);

    const message = await arrived('/push/driver');
    expect(decrypt(message, sub)).toEqual({ body: 'Вам назначена задача: Песок мытый, 25.11.2026', url: '/current-tasks' });
    const key = (await call('GET', '/push/key/')).json() as { public_key: string };
    expect(message.headers.authorization).toContain(`k=${key.public_key}`);
    expect(message.headers.ttl).toBe(String(24 * 3600));
  });

  it('tells everyone of an announcement but its author; a gone subscription (410) is deleted', async () => {
    const driverSub = await subscribe(p.driver, 'driver');
    await subscribe(p.manager, 'author');
    await subscribe(p.otherManager, 'stranger');
    status = 410;
    const res = await call('POST', '/announcements/', p.manager, { title: 'Собрание в пятницу', body: 'В 9:00 в диспетчерской' });
    expect(res.statusCode).toBe(201);
    const message = await arrived('/push/driver');
    expect(decrypt(message, driverSub)).toEqual({ body: 'Новое объявление: Собрание в пятницу', url: '/announcements' });
    await waitFor(async () => {
      const left = await server.db.kysely.selectFrom('push_subscriptions').select('id').where('user_id', '=', p.driver.id).execute();
      return left.length === 0;
    }, { message: 'the 410 subscription is deleted', timeout: 5_000 });
    expect(received.map((r) => r.path).filter((path) => path !== '/push/driver')).not.toContain('/push/author');
    expect(received.map((r) => r.path)).not.toContain('/push/stranger');
  });

  it("tells the receiving company's staff of an incoming transfer, naming the sender", async () => {
    const sub = await subscribe(p.otherManager, 'receiver');
    const company = await server.db.kysely.selectFrom('companies').select('name').where('id', '=', p.company).executeTakeFirstOrThrow();
    const taskId = await createTask(server, p.company, { cargo: 'Щебень гранитный 20–40' });
    const res = await call('POST', '/transfers/', p.manager, { task_id: taskId, to_company_id: p.otherCompany, quantity: 20 });
    expect(res.statusCode).toBe(201);
    expect(decrypt(await arrived('/push/receiver'), sub)).toEqual({
      body: `Входящая передача от «${company.name}»: Щебень гранитный 20–40`,
      url: '/carrier-transfers',
    });
  });

  it('tells a driver their report was disputed, with the reason', async () => {
    const sub = await subscribe(p.driver, 'disputed');
    const taskId = await createTask(server, p.company, { cargo: 'Щебень 20–40', date: '2026-11-24', status: 'in_progress' });
    const association = await addDriver(server, taskId, p.driver.id);
    const report = await server.db.kysely
      .insertInto('reports')
      .values({ association_id: association, driver_id: p.driver.id, quantity: 24, total_loading_quantity: null, total_unloading_quantity: null, loading_is_buyer: 0, unloading_is_buyer: 0, idempotency_key: null, completed_at: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await call('POST', `/reports/${report.id}/review`, p.manager, { action: 'dispute', comment: 'На талоне 21 т' });
    expect(res.statusCode).toBe(200);
    expect(decrypt(await arrived('/push/disputed'), sub)).toEqual({ body: 'Отчёт оспорен (Щебень 20–40, 24.11.2026): На талоне 21 т', url: '/current-tasks' });
  });

  it('sends nothing to a device that turned notifications off', async () => {
    await subscribe(p.driver, 'driver');
    expect((await call('DELETE', '/push/subscription/', p.driver)).statusCode).toBe(204);
    const taskId = await createTask(server, p.company);
    expect((await call('PUT', `/tasks/${taskId}/drivers/${p.driver.id}/`, p.manager)).statusCode).toBe(200);
    // A write that does push (to another subscribed driver) proves the sender ran.
    const other = await subscribe(p.driver2, 'other');
    const second = await createTask(server, p.company);
    expect((await call('PUT', `/tasks/${second}/drivers/${p.driver2.id}/`, p.manager)).statusCode).toBe(200);
    decrypt(await arrived('/push/other'), other);
    expect(received.map((r) => r.path)).not.toContain('/push/driver');
  });
});
