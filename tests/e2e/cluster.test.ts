/**
 * The two-instance run only (vitest project e2e-cluster): PostgreSQL, two server processes and
 * HAProxy round-robin without sticky sessions. What must be one-at-a-time across processes is: refresh-token
 * rotation and reuse detection, idempotent report creation (and its photo files in the shared DATA_DIR), and a
 * logout seen by the other instance. The rest of the core suite (sign-in and refresh single-flight, the outbox
 * with faults, registration approval, the export job) runs through the same cluster in the same project.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER, DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import type { Cluster } from '../fixtures/cluster.ts';
import { makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';
import { openSse } from '../fixtures/sse.ts';
import type { Report, TokenPair } from '../../contract/entities.ts';

let app: E2eApp;
let cluster: Cluster;
beforeAll(async () => {
  if (!CLUSTER) throw new Error('cluster.test.ts runs in the e2e-cluster project only');
  app = await startE2eApp();
  cluster = app.server as Cluster;
});
afterAll(async () => {
  await app?.close();
});

async function post<T>(base: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** A company's task in progress with its driver, and the driver's change-feed stream held on instance b. */
async function driverStreamOnB() {
  const b = (cluster.instances as [string, string])[1];
  const people = await makePeople(cluster);
  const taskId = await createTask(cluster, people.company, { status: 'in_progress' });
  await addDriver(cluster, taskId, people.driver.id);
  return { people, taskId, stream: await openSse(`${b}/api/events/`, people.driver.auth) };
}

describe('two server instances behind HAProxy', () => {
  it('both instances serve one browser session, without sticky sessions', async () => {
    const context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    try {
      app.proxy.reset();
      const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
      for (const path of ['/tasks/manage', '/drivers', '/reports', '/profile']) await page.goto(`${app.url}${path}`);
      await waitFor(() => new Set(app.proxy.requests.map((r) => r.instance).filter(Boolean)).size === 2, {
        message: 'answers from instance a and instance b',
      });
      expect(app.proxy.requests.filter((r) => r.status !== null && r.status >= 500)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('behind HAProxy each client keeps its own address: a password sprayer is locked out, a driver beside it is not (TRUST_PROXY)', async () => {
    // Clients on distinct loopback addresses; HAProxy connects to the instances from 127.0.0.1 and appends
    // the address it saw to X-Forwarded-For, which the instances trust (TRUST_PROXY=127.0.0.1).
    const signIn = (from: string, body: Record<string, string>, forged?: string) =>
      new Promise<number>((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = httpRequest(
          `${cluster.proxyUrl}/api/auth/login/`,
          {
            method: 'POST',
            localAddress: from,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...(forged ? { 'x-forwarded-for': forged } : {}) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    // 30 failures per address per instance; round-robin spreads them, so 2 × 30 closes the address on both. One after
    // another, so that the round-robin's order decides which instance counts which (a burst is held to the limit
    // too: tests/server/hardening.test.ts).
    const statuses: number[] = [];
    for (let i = 0; i < 64; i++) statuses.push(await signIn('127.0.0.2', { username: `spray-${i}@test.local`, password: 'Winter2026!' }));
    expect(statuses.filter((s) => s === 401).length).toBe(60);
    expect(statuses.filter((s) => s === 429).length).toBe(4);
    // The sprayer gets nowhere on either instance, not even by naming another address in front.
    const right = { username: DEMO.driver, password: DEMO_PASSWORD, device_id: `device-${randomUUID()}` };
    expect([await signIn('127.0.0.2', right), await signIn('127.0.0.2', right, '127.0.0.9')]).toEqual([429, 429]);
    // A driver on another address signs in through both instances.
    expect([await signIn('127.0.0.3', right), await signIn('127.0.0.3', right)]).toEqual([200, 200]);
  });

  it('rotates a refresh token on either instance and detects its reuse on the other', async () => {
    const [a, b] = cluster.instances as [string, string];
    const device = `device-${randomUUID()}`;
    const first = await post<TokenPair>(a, '/auth/login/', { username: DEMO.driver, password: DEMO_PASSWORD, device_id: device });
    expect(first.status).toBe(200);
    const second = await post<TokenPair>(b, '/auth/refresh/', { refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    const third = await post<TokenPair>(a, '/auth/refresh/', { refresh_token: second.body.refresh_token });
    expect(third.status).toBe(200);
    // The first token, used once on B, comes back on B after its successor was used on A: a theft.
    const reused = await post<{ detail: string }>(b, '/auth/refresh/', { refresh_token: first.body.refresh_token });
    expect(reused.status).toBe(401);
    // The whole family is revoked, whichever instance is asked.
    expect((await post(a, '/auth/refresh/', { refresh_token: third.body.refresh_token })).status).toBe(401);
  });

  it('a logout on one instance ends the access token on the other within its session cache', async () => {
    const [a, b] = cluster.instances as [string, string];
    const pair = (await post<TokenPair>(a, '/auth/login/', { username: DEMO.manager, password: DEMO_PASSWORD, device_id: `device-${randomUUID()}` })).body;
    const me = (base: string) => fetch(`${base}/api/users/me/`, { headers: { authorization: `Bearer ${pair.access_token}` } });
    expect((await me(b)).status).toBe(200);
    expect((await post(a, '/auth/logout/', { refresh_token: pair.refresh_token }, pair.access_token)).status).toBeLessThan(300);
    await waitFor(async () => (await me(b)).status === 401, { message: 'instance b refuses the logged-out token', timeout: 10_000 });
  });

  it('a change made through one instance reaches a change-feed stream held by the other (LISTEN/NOTIFY)', async () => {
    const [a] = cluster.instances as [string, string];
    const { people, taskId, stream } = await driverStreamOnB();
    try {
      await stream.next((e) => e.event === 'ready');
      const edit = await fetch(`${a}/api/tasks/${taskId}/`, {
        method: 'PUT',
        headers: { ...people.manager.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ cargo: 'Изменено на экземпляре a' }),
      });
      expect(edit.status).toBe(200);
      expect(JSON.parse((await stream.next((e) => e.event === 'message')).data)).toEqual({ path: `/tasks/${taskId}/`, method: 'PUT' });
    } finally {
      stream.close();
    }
  });

  it('100 changes in a row through either instance: each reaches a stream on the other, and a refetch on hearing it sees the change', async () => {
    const [a, b] = cluster.instances as [string, string];
    const { people, taskId, stream } = await driverStreamOnB();
    try {
      await stream.next((e) => e.event === 'ready');
      for (let i = 1; i <= 100; i++) {
        const cargo = `Поток через кластер ${i}`;
        // Written on a or b by turns; the stream is held on b, so half the changes cross LISTEN/NOTIFY.
        const edit = await fetch(`${i % 2 ? a : b}/api/tasks/${taskId}/`, {
          method: 'PUT',
          headers: { ...people.manager.auth, 'content-type': 'application/json' },
          body: JSON.stringify({ cargo }),
        });
        expect(edit.status).toBe(200);
        const messages = () => stream.events.filter((e) => e.event === 'message');
        await waitFor(() => messages().length === i, { message: `change ${i} heard on b`, timeout: 10_000, interval: 5 });
        expect(JSON.parse(messages()[i - 1]!.data)).toEqual({ path: `/tasks/${taskId}/`, method: 'PUT' });
        // What a screen does on hearing it: refetch, through the balancer (either instance).
        const seen = await fetch(`${cluster.proxyUrl}/api/tasks/assigned/`, { headers: people.driver.auth });
        const { items } = (await seen.json()) as { items: { id: number; cargo: string }[] };
        expect(items.find((t) => t.id === taskId)?.cargo, `change ${i}`).toBe(cargo);
      }
      expect(stream.events.filter((e) => e.event === 'message')).toHaveLength(100);
    } finally {
      stream.close();
    }
  });

  describe('reports', () => {
    let people: People;
    let association: number;
    beforeAll(async () => {
      people = await makePeople(cluster);
      association = await addDriver(cluster, await createTask(cluster, people.company), people.driver.id);
    });

    it('makes one report and one set of photos when the same Idempotency-Key reaches both instances at once', async () => {
      const key = randomUUID();
      const photos = join(cluster.config.dataDir, 'files', 'photos');
      const before = existsSync(photos) ? readdirSync(photos).length : 0;
      const send = (base: string) =>
        fetch(`${base}/api/reports/`, {
          method: 'POST',
          headers: { ...people.driver.auth, 'idempotency-key': key },
          body: reportForm(
            { association_id: association, quantity: '24.5', loading_is_buyer: '1', unloading_is_buyer: '0', completed_at: new Date().toISOString() },
            [{ data: JPEG_8x6, type: 'image/jpeg', filename: '1.jpg' }],
          ),
        });
      const responses = await Promise.all(cluster.instances.flatMap((base) => [send(base), send(base)]));
      const bodies = (await Promise.all(responses.map((r) => r.json()))) as Report[];
      expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
      expect(new Set(bodies.map((r) => r.id)).size).toBe(1);
      const rows = await cluster.db.kysely.selectFrom('reports').select('id').where('idempotency_key', '=', key).execute();
      expect(rows).toHaveLength(1);
      expect(readdirSync(photos).filter((f) => !f.endsWith('.tmp')).length - before).toBe(1);
    });
  });
});
