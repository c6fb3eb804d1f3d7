/**
 * Builds engines for tests: a fresh fake-indexeddb database (or a shared one), a fake server behind the
 * axios adapter, a manual clock, a network double and a FIFO lock double.
 */
import 'fake-indexeddb/auto';
import type { UserWire } from '../../contract/entities.ts';
import type { Snapshot, TabInfo } from '../../worker/api.ts';
import type { CrossTabMessage } from '../../worker/cross-tab.ts';
import { KV, openEngineDb, type EngineDb } from '../../worker/db.ts';
import { createIdbStore } from '../../worker/idb-store.ts';
import type { EngineStore } from '../../worker/store.ts';
import { createEngine, type EngineDeps } from '../../worker/engine.ts';
import type { OutboxFactory } from '../../worker/outbox-types.ts';
import type { Channel, Locks } from '../../worker/ports.ts';
import { createFakeServer, createFifoLocks, createManualClock, createNetwork, makeJwt, type FakeServer } from './doubles.ts';

let databases = 0;
export function freshDb(): Promise<EngineDb> {
  databases += 1;
  return openEngineDb(`engine-test-${databases}-${Math.random().toString(36).slice(2)}`);
}

export const driverWire: UserWire = {
  id: 7,
  email: 'driver@demo.local',
  name: 'Иван Водителев',
  phone: '+7 900 000-00-01',
  company_id: 1,
  company_name: 'Первая',
  role: { name: 'driver' },
  is_active: true,
  current_transport: null,
  vehicle_id: null,
  vehicle: null,
  license_series: null,
  license_number: null,
  license_issued: null, inn: null,
};

export const driverUser = { ...driverWire, role: 'driver' as const };

export interface EngineOptions {
  db?: EngineDb;
  server?: FakeServer;
  clock?: ReturnType<typeof createManualClock>;
  locks?: Locks & { held(name: string): boolean };
  network?: ReturnType<typeof createNetwork>;
  channel?: Channel<CrossTabMessage>;
  mode?: Snapshot['mode'];
  outbox?: OutboxFactory;
  compress?: (photo: Blob) => Promise<Blob>;
  feedFetch?: EngineDeps['feedFetch'];
}

export async function makeEngine(options: EngineOptions = {}) {
  const db = options.db ?? (await freshDb());
  const server = options.server ?? createFakeServer();
  const clock = options.clock ?? createManualClock();
  const locks = options.locks ?? createFifoLocks();
  const network = options.network ?? createNetwork();
  // The engine's own connection, as in a browser; the test reads and seeds through `db`.
  const store = createIdbStore(db.name);
  const engine = createEngine({
    mode: options.mode ?? 'shared',
    store,
    baseURL: 'http://app.test/api/',
    clock,
    locks,
    network,
    adapter: server.adapter,
    ...(options.channel ? { channel: options.channel } : {}),
    ...(options.outbox ? { outbox: options.outbox } : {}),
    ...(options.compress ? { compress: options.compress } : {}),
    ...(options.feedFetch ? { feedFetch: options.feedFetch } : {}),
  });
  let tabs = 0;
  /** Connects a tab that holds its Web Lock until `close()`. */
  async function connectTab() {
    tabs += 1;
    const snapshots: Snapshot[] = [];
    let release = () => undefined as void;
    const info: TabInfo = { deviceId: 'device-1', deviceInfo: 'Vitest', lockName: `tab-${tabs}-${Math.random()}` };
    void locks.request(info.lockName, () => new Promise<void>((resolve) => (release = resolve)));
    await engine.api.connect(info, (snapshot) => snapshots.push(snapshot));
    return { snapshots, info, close: () => release(), latest: () => snapshots.at(-1) };
  }
  return { engine, api: engine.api, db, store, server, clock, locks, network, connectTab };
}

/** Stores a session as a previous visit left it. */
export async function seedSession(db: EngineDb, session: { access?: string; refresh?: string; profile?: unknown }): Promise<void> {
  if (session.access) await db.put('kv', session.access, KV.token);
  if (session.refresh) await db.put('kv', session.refresh, KV.refresh);
  if (session.profile) await db.put('kv', session.profile, KV.profile);
}

/**
 * A server double with real token rules: one valid access token at a time, refresh tokens rotate
 * (a used one is refused), protected routes answer 401 to anything else.
 */
export function serveAuth(server: FakeServer, clock: { now(): number }, ttlSeconds = 900) {
  let serial = 0;
  const issue = () => {
    serial += 1;
    return { access_token: makeJwt(Math.floor(clock.now() / 1000) + ttlSeconds, '7', `a${serial}`), refresh_token: `refresh-${serial}`, token_type: 'bearer' };
  };
  const state = { access: '', refresh: '' };
  const grant = () => {
    const pair = issue();
    state.access = pair.access_token;
    state.refresh = pair.refresh_token;
    return pair;
  };
  server.on('POST auth/login/', (request) => {
    const body = request.body as { username: string; password: string };
    if (body.username === 'driver@demo.local' && body.password === 'demo12345') return { status: 200, data: grant() };
    return { status: 401, data: { detail: 'Неверный e-mail или пароль' } };
  });
  server.on('POST auth/refresh/', (request) => {
    const body = request.body as { refresh_token: string };
    if (body.refresh_token !== state.refresh) return { status: 401, data: { detail: 'Сессия недействительна' } };
    return { status: 200, data: grant() };
  });
  server.on('POST auth/logout/', () => ({ status: 204 }));
  const authorised = (headers: Record<string, string>) => headers.authorization === `Bearer ${state.access}`;
  server.on('GET users/me/', (request) =>
    authorised(request.headers) ? { status: 200, data: driverWire } : { status: 401, data: { detail: 'Требуется вход' } },
  );
  return {
    state,
    authorised,
    /** Puts a session in place as if a login had happened earlier; answers the pair. */
    grant,
  };
}

/** A store on `name` whose connections the test can reach (to close them, as the browser may). */
export function trackedStore(name: string): { store: EngineStore; connections: EngineDb[] } {
  const connections: EngineDb[] = [];
  const store = createIdbStore(name, async (dbName, events) => {
    const db = await openEngineDb(dbName, events);
    connections.push(db);
    return db;
  });
  return { store, connections };
}

interface FakeTransaction {
  _execRequestAsync(request: { operation: () => unknown }): IDBRequest;
}

/**
 * The device is full for the next `count` writes into `storeName`: each fails as in a browser — the request
 * errs with QuotaExceededError and its transaction aborts (fake-indexeddb runs the failing operation). Answers
 * the undo.
 */
export function fillDisk(storeName: string, count = 1): () => void {
  const proto = IDBObjectStore.prototype;
  const originals = { put: proto.put, add: proto.add };
  let left = count;
  for (const method of ['put', 'add'] as const) {
    const original = originals[method] as (this: IDBObjectStore, ...args: unknown[]) => IDBRequest;
    (proto as unknown as Record<string, unknown>)[method] = function (this: IDBObjectStore, ...args: unknown[]): IDBRequest {
      if (this.name === storeName && left > 0) {
        left -= 1;
        const tx = this.transaction as unknown as FakeTransaction;
        tx._execRequestAsync = (request) => {
          delete (tx as Partial<FakeTransaction>)._execRequestAsync;
          const operation = () => {
            throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          };
          return tx._execRequestAsync({ ...request, operation });
        };
      }
      return original.apply(this, args);
    };
  }
  return () => Object.assign(proto, originals);
}
