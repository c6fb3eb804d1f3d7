/**
 * The service worker's outbox flush (sw/outbox-sync.ts): the engines' outbox code over the same IndexedDB,
 * under the same 'outbox-flush' lock, with fetch instead of axios and without ever refreshing a token.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runOutboxSync, type OutboxSyncDeps } from '../../sw/outbox-sync.ts';
import { KV, openEngineDb, type EngineDb, type OutboxRecord } from '../../worker/db.ts';
import { FLUSH_LOCK, MAX_ATTEMPTS } from '../../worker/outbox.ts';
import { createIdbStore } from '../../worker/idb-store.ts';
import { newOutboxRecord } from '../../worker/outbox-store.ts';
import { deferred, fifoLocks, report, T0 } from './outbox-doubles.ts';

function base64url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

function accessToken(sub: number, role = 'driver', exp = T0 / 1000 + 900, nonce = ''): string {
  return `${base64url({ alg: 'HS256' })}.${base64url({ sub: String(sub), role, typ: 'access', exp, nonce })}.sig`;
}

interface SeenFetch {
  method: string;
  url: string;
  headers: Headers;
  body: FormData | null;
}

type Route = (request: SeenFetch) => Response | Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let db: EngineDb;
let seq = 0;
let seen: SeenFetch[];
let onPost: Route;
let assigned: number[];
let notes: string[];
let announced: number;
let locks: ReturnType<typeof fifoLocks>;

const fetchDouble = vi.fn<OutboxSyncDeps['fetch']>(async (input, init) => {
  const request: SeenFetch = {
    method: init?.method ?? 'GET',
    url: String(input),
    headers: new Headers(init?.headers),
    body: init?.body instanceof FormData ? init.body : null,
  };
  seen.push(request);
  if (request.method === 'POST' && request.url === 'http://app.test/api/reports/') return onPost(request);
  if (request.method === 'GET' && request.url === 'http://app.test/api/tasks/assigned/') {
    return json({ items: [{ id: 1, driver_associations: assigned.map((id) => ({ id })) }], next_offset: null });
  }
  return json({ detail: 'Не найдено' }, 404);
});

function deps(over: Partial<OutboxSyncDeps> = {}): Partial<OutboxSyncDeps> {
  return {
    openDb: () => openEngineDb(`sw-outbox-${seq}`),
    fetch: fetchDouble,
    apiBase: 'http://app.test/api',
    now: () => T0,
    online: () => true,
    locks,
    notify: (message) => notes.push(message),
    announce: () => (announced += 1),
    ...over,
  };
}

async function queued(associationId: number, over: Partial<OutboxRecord> = {}, photos: Blob[] = []): Promise<number> {
  const store = createIdbStore(db.name);
  try {
    return await store.outbox.add({ ...newOutboxRecord(report(associationId), 7, T0 - 1000), ...over }, photos);
  } finally {
    store.close();
  }
}

const posts = () => seen.filter((request) => request.method === 'POST');
let nextId = 100;
const stored: Route = () => json({ id: nextId++ }, 201);

beforeEach(async () => {
  seq += 1;
  db = await openEngineDb(`sw-outbox-${seq}`);
  await db.put('kv', accessToken(7), KV.token);
  seen = [];
  onPost = stored;
  assigned = [];
  notes = [];
  announced = 0;
  locks = fifoLocks();
  fetchDouble.mockClear();
});

afterEach(() => {
  db.close();
  vi.restoreAllMocks();
});

describe('runOutboxSync', () => {
  it('sends each due report once, as multipart with the bearer and its Idempotency-Key, then resolves it', async () => {
    const first = await queued(11, {}, [new Blob(['jpeg-1'], { type: 'image/jpeg' })]);
    const second = await queued(12);
    assigned = [12];
    const keys = [(await db.get('outbox', first))!.idempotencyKey, (await db.get('outbox', second))!.idempotencyKey];

    await expect(runOutboxSync(deps())).resolves.toBe('flushed');

    expect(posts()).toHaveLength(2);
    expect(posts().map((p) => p.headers.get('idempotency-key'))).toEqual(keys);
    expect(posts().every((p) => p.headers.get('authorization') === `Bearer ${accessToken(7)}`)).toBe(true);
    const form = posts()[0]!.body!;
    expect(form.get('association_id')).toBe('11');
    expect(form.get('quantity')).toBe('12.5');
    expect(await Promise.all(form.getAll('photos').map((file) => (file as File).text()))).toEqual(['jpeg-1']);
    // 11 left /tasks/assigned/: resolved and deleted with its photo; 12 is still there, so it stays, marked sent.
    expect(await db.get('outbox', first)).toBeUndefined();
    expect(await db.count('photos')).toBe(0);
    expect(await db.get('outbox', second)).toMatchObject({ sent: true, sentAt: T0, attempts: 0 });
    expect(announced).toBe(1);
  });

  it('a 401 does not count as an attempt: it stops and leaves the items for later', async () => {
    const first = await queued(11);
    const second = await queued(12);
    onPost = () => json({ detail: 'Требуется вход' }, 401);

    await runOutboxSync(deps());

    expect(posts()).toHaveLength(1);
    expect(seen.some((request) => request.url.endsWith('/auth/refresh/'))).toBe(false);
    expect(await db.get('outbox', first)).toMatchObject({ sent: false, attempts: 0, lastError: null });
    expect((await db.get('outbox', first))!.nextAttemptAt).toBeGreaterThan(T0);
    expect(await db.get('outbox', second)).toMatchObject({ sent: false, attempts: 0 });
  });

  it('a network error does not count either, and stops the batch', async () => {
    const first = await queued(11);
    await queued(12);
    onPost = () => Promise.reject(new TypeError('Failed to fetch'));

    await runOutboxSync(deps());

    expect(posts()).toHaveLength(1);
    expect(await db.get('outbox', first)).toMatchObject({ sent: false, attempts: 0 });
  });

  it('a busy or unreachable server (503 while restarting, a proxy page for 502, 429) does not count and stops the batch', async () => {
    const first = await queued(11);
    await queued(12);
    for (const answer of [json({ detail: 'Сервер перезапускается' }, 503), new Response('<html>Bad Gateway</html>', { status: 502 }), json({}, 429)]) {
      onPost = () => Promise.resolve(answer.clone());
      await runOutboxSync(deps());
      expect(await db.get('outbox', first)).toMatchObject({ sent: false, attempts: 0 });
    }
    expect(posts()).toHaveLength(3);
  });

  it("a refusal counts, with the server's detail, and the batch goes on", async () => {
    const first = await queued(11);
    const second = await queued(12);
    assigned = [12];
    onPost = (request) => (request.body?.get('association_id') === '11' ? json({ detail: 'Задача отменена' }, 409) : stored(request));

    await runOutboxSync(deps());

    expect(posts()).toHaveLength(2);
    expect(await db.get('outbox', first)).toMatchObject({ sent: false, attempts: 1, lastError: 'Задача отменена', nextAttemptAt: T0 + 2000 });
    expect(await db.get('outbox', second)).toMatchObject({ sent: true });
  });

  it('gives an item up after the 10th counted refusal and tells the driver why', async () => {
    const id = await queued(11, { attempts: MAX_ATTEMPTS - 1 });
    onPost = () => json({ detail: 'Задание не найдено' }, 404);

    await runOutboxSync(deps());

    expect(await db.get('outbox', id)).toMatchObject({ givenUp: true, lastError: 'Задание не найдено' });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('Задание не найдено');
    // A later sync leaves it alone: only the driver sends it again.
    await runOutboxSync(deps());
    expect(posts()).toHaveLength(1);
  });

  it("waits for the 'outbox-flush' lock an engine holds, then skips what that engine sent", async () => {
    const id = await queued(11);
    assigned = [11];
    const engineSending = deferred();
    const engineFlush = locks.request(FLUSH_LOCK, async () => {
      await engineSending.promise;
      const record = (await db.get('outbox', id))!;
      await db.put('outbox', { ...record, sent: true, sentAt: T0 });
    });

    const run = runOutboxSync(deps());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(posts()).toHaveLength(0);
    engineSending.resolve();
    await engineFlush;
    await expect(run).resolves.toBe('flushed');

    expect(posts()).toHaveLength(0);
    expect(await db.get('outbox', id)).toMatchObject({ sent: true });
  });

  it("sends only the signed-in driver's own reports — also one whose retry time has not come: a sync is the moment", async () => {
    await queued(11, { userId: 8 });
    const waiting = await queued(12, { nextAttemptAt: T0 + 60_000 });

    await runOutboxSync(deps());

    expect(posts()).toHaveLength(1);
    // Sent, then resolved at once (its association is not in /tasks/assigned/ any more): gone from the queue.
    expect(await db.get('outbox', waiting)).toBeUndefined();
    expect(await db.get('outbox', waiting - 1)).toMatchObject({ sent: false, userId: 8 });
  });

  it('uses the token as stored at each send (the engine may have rotated it)', async () => {
    await queued(11);
    await queued(12);
    const rotated = accessToken(7, 'driver', T0 / 1000 + 900, 'rotated');
    onPost = async (request) => {
      await db.put('kv', rotated, KV.token);
      return stored(request);
    };

    await runOutboxSync(deps());

    expect(posts().map((p) => p.headers.get('authorization'))).toEqual([`Bearer ${accessToken(7)}`, `Bearer ${rotated}`]);
  });

  it('stops when another user signed in meanwhile: their token never carries this driver’s report', async () => {
    await queued(11);
    await queued(12);
    onPost = async (request) => {
      await db.put('kv', accessToken(8), KV.token);
      return stored(request);
    };

    await runOutboxSync(deps());

    expect(posts()).toHaveLength(1);
  });

  const cases: Array<[string, () => Promise<unknown>, Partial<OutboxSyncDeps>]> = [
    ['no-token', () => db.delete('kv', KV.token), {}],
    ['not-driver', () => db.put('kv', accessToken(3, 'manager'), KV.token), {}],
    ['expired', () => db.put('kv', accessToken(7, 'driver', T0 / 1000 - 1), KV.token), {}],
    ['no-locks', async () => undefined, { locks: null }],
    ['offline', async () => undefined, { online: () => false }],
  ];
  it.each(cases)('sends nothing: %s', async (outcome, arrange, over) => {
    await queued(11);
    await arrange();

    await expect(runOutboxSync(deps(over))).resolves.toBe(outcome);

    expect(fetchDouble).not.toHaveBeenCalled();
    expect(announced).toBe(0);
  });

  it('never throws when the database cannot be opened', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await expect(runOutboxSync(deps({ openDb: () => Promise.reject(new Error('VersionError')) }))).resolves.toBe('failed');
  });
});
