import { describe, expect, it, vi } from 'vitest';
import type { ClientErrorReport, NewReport } from '../../worker/api.ts';
import type { OutboxDeps, OutboxFactory } from '../../worker/outbox-types.ts';
import { NO_NETWORK_WRITE, SERVER_DOWN_WRITE } from '../../worker/http-api.ts';
import { createOutbox } from '../../worker/outbox.ts';
import { newOutboxRecord } from '../../worker/outbox-store.ts';
import { NO_OUTBOX_MESSAGE, noOutbox } from '../../worker/outbox-types.ts';
import { RECOVERY_FIRST_DELAY_MS } from '../../worker/recovery.ts';
import { networkFailure, settle } from './doubles.ts';
import { driverUser, driverWire, makeEngine, seedSession, serveAuth } from './harness.ts';

const report: NewReport = {
  association_id: 3,
  quantity: 12,
  total_loading_quantity: null,
  total_unloading_quantity: null,
  unloadingIsBuyer: 0,
  loadingIsBuyer: 0,
  photos: [],
};

describe('tabs and snapshots', () => {
  it('a tab that connects gets the latest snapshot at once', async () => {
    const { api, server, clock, connectTab } = await makeEngine();
    serveAuth(server, clock);
    await api.login('driver@demo.local', 'demo12345');
    await settle();
    const late = await connectTab();
    expect(late.snapshots).toHaveLength(1);
    expect(late.snapshots[0]).toEqual({
      auth: { isAuthenticated: true, loading: false, error: null, user: driverUser, initialized: false, offlineMode: false },
      network: { online: true, effectiveType: '4g', offlineMode: false, reconnectedAt: null, live: null },
      outbox: { pending: 0, flushing: false, items: [] },
      mode: 'shared',
      notices: [],
      writes: [],
      alerts: { items: [], counts: {} },
    });
    // Plain JSON: it survives structured cloning and JSON unchanged.
    expect(JSON.parse(JSON.stringify(late.snapshots[0]))).toEqual(late.snapshots[0]);
  });

  it('every change reaches every tab; a closed tab (its lock granted to the engine) is dropped', async () => {
    const { network, connectTab } = await makeEngine();
    const one = await connectTab();
    const two = await connectTab();
    network.setOnline(false);
    await settle();
    expect(one.latest()?.network.online).toBe(false);
    expect(two.latest()?.network.online).toBe(false);

    two.close();
    await settle();
    const seenByTwo = two.snapshots.length;
    network.setType('3g');
    await settle();
    expect(one.latest()?.network.effectiveType).toBe('3g');
    expect(two.snapshots).toHaveLength(seenByTwo);
  });

  it('changes in one tick are pushed as one snapshot', async () => {
    const { network, connectTab } = await makeEngine();
    const tab = await connectTab();
    network.setOnline(false);
    network.setType('2g');
    network.setOnline(true);
    await settle();
    expect(tab.snapshots).toHaveLength(2);
  });
});

/** An outbox double that records, for each flush, whether the engine could send at that moment. */
function flushRecorder() {
  const onlineAtFlush: boolean[] = [];
  const factory: OutboxFactory = (deps) => ({
    ...noOutbox(deps),
    queueReport: async () => ({ ok: true, data: 1 }),
    flush: async () => {
      onlineAtFlush.push(deps.isOnline() && deps.userId() !== null);
    },
    snapshot: () => ({ pending: 1, flushing: false, items: [] }),
  });
  return { factory, onlineAtFlush };
}

/** For what the engine does over several macrotask rounds: how many depends on the machine's load. */
const WAIT = { timeout: 5_000 };

/** A stored session started with the network up but the server unreachable: the engine is in offline mode. */
async function startedServerDown(options: Parameters<typeof makeEngine>[0] = {}) {
  const engine = await makeEngine(options);
  const auth = serveAuth(engine.server, engine.clock);
  const pair = auth.grant();
  await seedSession(engine.db, { access: pair.access_token, refresh: pair.refresh_token, profile: driverUser });
  engine.server.on('GET users/me/', () => {
    throw networkFailure();
  });
  await engine.api.startup();
  const tab = await engine.connectTab();
  expect(tab.latest()?.auth.offlineMode).toBe(true);
  return { ...engine, tab };
}

/** The driver's engine started from a stored session with no network: startup leaves it in offline mode. */
async function startedOffline(options: Parameters<typeof makeEngine>[0] = {}, accessTtlSeconds = 900) {
  const engine = await makeEngine(options);
  const auth = serveAuth(engine.server, engine.clock, accessTtlSeconds);
  const pair = auth.grant();
  await seedSession(engine.db, { access: pair.access_token, refresh: pair.refresh_token, profile: driverUser });
  engine.network.setOnline(false);
  await engine.api.startup();
  return { ...engine, auth };
}

describe('the network coming back', () => {
  it('in offline mode: the profile fetch ends offline mode, and reconnectedAt tells tabs to refetch', async () => {
    const { server, clock, network, connectTab } = await startedOffline();
    const tab = await connectTab();
    expect(tab.latest()?.network).toMatchObject({ online: false, offlineMode: true, reconnectedAt: null });

    clock.advance(1_000);
    network.setOnline(true);
    await vi.waitFor(() => expect(tab.latest()?.network).toMatchObject({ offlineMode: false }), WAIT);
    expect(server.count('GET users/me/')).toBe(1);
    expect(tab.latest()?.network).toMatchObject({ online: true, offlineMode: false, reconnectedAt: clock.now() });
    expect(tab.latest()?.auth).toMatchObject({ offlineMode: false, user: driverUser });
  });

  it('leaves offline mode on a tab\'s online hint when the worker itself got no event', async () => {
    const { api, server, network, connectTab } = await startedOffline();
    const tab = await connectTab();
    expect(tab.latest()?.network).toMatchObject({ online: false, offlineMode: true });

    network.setOnlineSilently(true);
    await settle(4);
    expect(server.count('GET users/me/')).toBe(0);
    await api.networkChanged();
    await vi.waitFor(() => expect(tab.latest()?.network).toMatchObject({ online: true, offlineMode: false }), WAIT);
    expect(server.count('GET users/me/')).toBe(1);
  });

  it('when offline mode ends, the outbox flushes (the online event came while it still lasted)', async () => {
    const { factory, onlineAtFlush } = flushRecorder();
    const { server, network } = await startedOffline({ outbox: factory });
    expect(onlineAtFlush).toEqual([]);

    network.setOnline(true);
    await vi.waitFor(() => expect(onlineAtFlush).toEqual([true]), WAIT);
    expect(server.count('GET users/me/')).toBe(1);
  });

  it('the change feed opening sends the whole queue at once, reports waiting out a retry delay too (heal in seconds)', async () => {
    const flushes: { everything?: boolean }[] = [];
    const factory: OutboxFactory = (deps) => ({
      ...noOutbox(deps),
      queueReport: async () => ({ ok: true, data: 1 }),
      flush: async (options) => void flushes.push(options ?? {}),
      snapshot: () => ({ pending: 1, flushing: false, items: [] }),
    });
    let opened = 0;
    const feedFetch = async () => {
      opened += 1;
      return new Response(new ReadableStream<Uint8Array>({ start: () => undefined }), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const { api, server, db, clock } = await makeEngine({ outbox: factory, feedFetch });
    const auth = serveAuth(server, clock);
    const pair = auth.grant();
    await seedSession(db, { access: pair.access_token, refresh: pair.refresh_token, profile: driverUser });
    await api.startup();
    await vi.waitFor(() => expect(opened).toBeGreaterThan(0), WAIT);
    await vi.waitFor(() => expect(flushes).toContainEqual({ everything: true }), WAIT);
  });

  it('a started engine flushes once startup knows the signed-in user (its own first flush knew nobody)', async () => {
    const { factory, onlineAtFlush } = flushRecorder();
    const { api, server, db, clock } = await makeEngine({ outbox: factory });
    const auth = serveAuth(server, clock);
    const pair = auth.grant();
    await seedSession(db, { access: pair.access_token, refresh: pair.refresh_token, profile: driverUser });
    expect(onlineAtFlush).toEqual([]);
    await api.startup();
    await vi.waitFor(() => expect(onlineAtFlush).toEqual([true]), WAIT);
  });

  it('refreshes first when the token expired meanwhile', async () => {
    const { server, clock, network, auth } = await startedOffline({}, 120);
    clock.advance(120_000);
    network.setOnline(true);
    // The refresh, then the profile fetch.
    await vi.waitFor(() => expect(server.log.some((request) => request.path === 'users/me/')).toBe(true), WAIT);
    expect(server.count('POST auth/refresh/')).toBe(1);
    expect(server.log.find((request) => request.path === 'users/me/')?.headers.authorization).toBe(`Bearer ${auth.state.access}`);
  });

  it('with the network up but the server unreachable, it tries again on a back-off', async () => {
    const { server, clock, tab } = await startedServerDown();
    clock.advance(RECOVERY_FIRST_DELAY_MS);
    await vi.waitFor(() => expect(server.count('GET users/me/')).toBe(2), WAIT);

    server.on('GET users/me/', () => ({ status: 200, data: driverWire }));
    clock.advance(RECOVERY_FIRST_DELAY_MS); // the back-off doubled: not yet
    await settle(4);
    expect(server.count('GET users/me/')).toBe(2);
    clock.advance(RECOVERY_FIRST_DELAY_MS);
    await vi.waitFor(() => expect(tab.latest()?.auth.offlineMode).toBe(false), WAIT);
    expect(server.count('GET users/me/')).toBe(3);
  });
});

describe('waking in offline mode', () => {
  it('a tab coming to the front, or «Отправить сейчас», asks the server at once and the queue follows', async () => {
    const { factory, onlineAtFlush } = flushRecorder();
    const { api, server, tab } = await startedServerDown({ outbox: factory });
    const before = server.count('GET users/me/');

    // Still down: waking tries once, at once, and says the engine is still offline.
    expect(await api.wake()).toBe(false);
    expect(server.count('GET users/me/')).toBe(before + 1);

    // The server is back: «Отправить сейчас» ends offline mode first, then flushes with the server reachable.
    server.on('GET users/me/', () => ({ status: 200, data: driverWire }));
    await api.flushNow();
    expect(server.count('GET users/me/')).toBe(before + 2);
    await vi.waitFor(() => expect(tab.latest()?.auth.offlineMode).toBe(false), WAIT);
    expect(onlineAtFlush.at(-1)).toBe(true);
    // Online, waking asks nothing.
    expect(await api.wake()).toBe(true);
    expect(server.count('GET users/me/')).toBe(before + 2);
  });
});

describe('writes while the server is unreachable', () => {
  it('in offline mode a write asks the server once and, still down, fails at once saying the server is unavailable', async () => {
    const { api, server } = await startedServerDown();
    server.on('PUT tasks/5/', () => ({ status: 200, data: {} }));
    const profileChecks = server.count('GET users/me/');
    const result = await api.send('PUT', '/tasks/5/', { status: 'in_progress' });
    expect(result).toEqual({ ok: false, message: SERVER_DOWN_WRITE, status: null, network: true, unreachable: true });
    expect(server.count('PUT tasks/5/')).toBe(0);
    expect(server.count('GET users/me/')).toBe(profileChecks + 1);

    // Back: the same write asks first, offline mode ends, and it goes.
    server.on('GET users/me/', () => ({ status: 200, data: driverWire }));
    expect((await api.send('PUT', '/tasks/5/', { status: 'in_progress' })).ok).toBe(true);
  });

  it('without a network a write fails at once, never touching the wire', async () => {
    const { api, server, network } = await startedServerDown();
    network.setOnline(false);
    expect(await api.send('POST', '/tasks/1/accept/')).toMatchObject({ ok: false, network: true, message: NO_NETWORK_WRITE });
    expect(server.count('POST tasks/1/accept/')).toBe(0);
  });

  it('a write that meets a dead connection while online makes the engine check the server, and offline mode begins', async () => {
    const { api, server, db, clock, connectTab } = await makeEngine();
    const auth = serveAuth(server, clock);
    const pair = auth.grant();
    await seedSession(db, { access: pair.access_token, refresh: pair.refresh_token, profile: driverUser });
    server.on('GET users/me/', () => ({ status: 200, data: driverWire }));
    await api.startup();
    const tab = await connectTab();
    expect(tab.latest()?.auth.offlineMode).toBe(false);

    // The server goes down.
    server.on('GET users/me/', () => {
      throw networkFailure();
    });
    server.on('PUT tasks/5/', () => {
      throw networkFailure();
    });
    expect(await api.send('PUT', '/tasks/5/', {})).toMatchObject({ ok: false, network: true });
    await vi.waitFor(() => expect(tab.latest()?.auth.offlineMode).toBe(true), WAIT);
    // The next write does not wait for the wire.
    expect(await api.send('PUT', '/tasks/5/', {})).toMatchObject({ message: SERVER_DOWN_WRITE, unreachable: true });
    expect(server.count('PUT tasks/5/')).toBe(1);
  });
});

describe('the report outbox behind a busy server', () => {
  it('503, a proxy page for 502, and 429 are not attempts: the report stays with 0 attempts and goes when the server answers', async () => {
    const { api, server, db, clock } = await makeEngine({ outbox: createOutbox, compress: async (photo) => photo });
    serveAuth(server, clock);
    await api.login('driver@demo.local', 'demo12345');
    server.on('GET tasks/assigned/', () => ({ status: 200, data: { items: [{ id: 1, driver_associations: [{ id: 41 }] }], next_offset: null } }));
    const answers = [
      { status: 503, data: { detail: 'Сервер перезапускается' } },
      { status: 502, data: '<html>Bad Gateway</html>' },
      { status: 429, data: { detail: 'Слишком много запросов' } },
      { status: 201, data: { id: 77 } },
    ];
    server.on('POST reports/', () => answers.shift()!);
    const queued = await api.queueReport({ association_id: 41, quantity: 12, total_loading_quantity: null, total_unloading_quantity: null, unloadingIsBuyer: 0, loadingIsBuyer: 0, photos: [] });
    expect(queued.ok).toBe(true);
    // Queueing tries at once (503); then each «Отправить сейчас» sends whatever the retry time (502, 429).
    await vi.waitFor(() => expect(server.count('POST reports/')).toBe(1), WAIT);
    for (let i = 0; i < 3; i++) {
      await vi.waitFor(async () => expect((await db.getAll('outbox'))[0]).toMatchObject({ sent: false, attempts: 0, lastError: null }), WAIT);
      if (i < 2) await api.flushNow();
    }
    await api.flushNow();
    expect(server.count('POST reports/')).toBe(4);
    await vi.waitFor(async () => expect((await db.getAll('outbox')).filter((r) => !r.sent)).toEqual([]), WAIT);
  });
});

describe('client errors', () => {
  const error: ClientErrorReport = {
    message: 'boom',
    stack: 'Error: boom\n    at x',
    source: 'app.js',
    lineno: 1,
    colno: 2,
    userAgent: 'Vitest',
    url: 'http://app.test/profile',
    time: '2026-11-21T09:00:00.000Z',
  };

  it('are posted to /api/log-client-error with the X-Device-Id header', async () => {
    const { api, server, connectTab } = await makeEngine();
    server.on('POST log-client-error', () => ({ status: 204 }));
    await connectTab();
    await api.logClientError(error);
    expect(server.log[0]).toMatchObject({ method: 'POST', path: 'log-client-error', body: error });
    expect(server.log[0]?.headers['x-device-id']).toBe('device-1');
  });

  it('at most 10 a minute leave the device', async () => {
    const { api, server, clock } = await makeEngine();
    server.on('POST log-client-error', () => ({ status: 204 }));
    for (let i = 0; i < 15; i++) await api.logClientError(error);
    expect(server.count('POST log-client-error')).toBe(10);
    clock.advance(61_000);
    await api.logClientError(error);
    expect(server.count('POST log-client-error')).toBe(11);
  });
});

describe('the outbox plug', () => {
  it('without an outbox, queueing answers a Russian failure', async () => {
    const { api } = await makeEngine();
    expect(await api.queueReport(report)).toEqual({ ok: false, message: NO_OUTBOX_MESSAGE, status: null, network: false });
  });

  it('an outbox gets an authorised multipart POST with progress, the assigned ids, notices and pushes', async () => {
    let ports!: OutboxDeps;
    let pending = 0;
    const factory: OutboxFactory = (given) => {
      ports = given;
      return {
        ...noOutbox(given),
        queueReport: async () => {
          pending += 1;
          given.onChange(true);
          return { ok: true, data: 41 };
        },
        snapshot: () => ({ pending, flushing: false, items: [] }),
      };
    };
    const { api, server, clock, connectTab } = await makeEngine({ outbox: factory });
    const auth = serveAuth(server, clock);
    await api.login('driver@demo.local', 'demo12345');
    const tab = await connectTab();

    expect(await api.queueReport(report)).toEqual({ ok: true, data: 41 });
    await settle();
    expect(tab.latest()?.outbox.pending).toBe(1);

    const progress: number[] = [];
    server.on('POST reports/', (request) => {
      request.config.onUploadProgress?.({ loaded: 50, total: 100, bytes: 50, lengthComputable: true });
      return auth.authorised(request.headers) ? { status: 201, data: { id: 9 } } : { status: 401, data: { detail: 'Требуется вход' } };
    });
    const record = { ...newOutboxRecord(report, driverUser.id, clock.now()), idempotencyKey: 'k-1' };
    const sent = await ports.sendReport(record, [], (p) => progress.push(p));
    expect(sent).toEqual({ ok: true, data: { id: 9 } });
    expect(server.log.at(-1)?.headers['idempotency-key']).toBe('k-1');
    expect(server.log.at(-1)?.body).toBeInstanceOf(FormData);
    expect((server.log.at(-1)?.body as FormData).get('association_id')).toBe('3');
    expect(progress).toEqual([0.5]);

    server.on('GET tasks/assigned/', () => ({ status: 200, data: [{ id: 1, driver_associations: [{ id: 3 }, { id: 4 }] }] }));
    expect(await ports.assignedAssociationIds()).toEqual([3, 4]);
    server.on('GET tasks/assigned/', () => {
      throw networkFailure();
    });
    expect(await ports.assignedAssociationIds()).toBeNull();

    ports.notify('Отчёт удалён из очереди: Задача закрыта');
    await settle();
    expect(tab.latest()?.notices).toEqual([{ id: 1, message: 'Отчёт удалён из очереди: Задача закрыта', at: clock.now() }]);
    expect(ports.userId()).toBe(7);
    expect(ports.isOnline()).toBe(true);
  });
});
