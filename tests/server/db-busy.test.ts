/**
 * A SQLite file locked by another process (a migration, an admin's sqlite shell): reads go on, a write waits
 * without blocking the event loop, and past the wait budget it is answered 503 with Retry-After (docs/sqlite-busy.md).
 * SQLite only: PostgreSQL has no file lock to hold.
 */
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';

/** Long enough for a lock released after 100 ms, short enough for the 503 test to end soon. */
const BUDGET_MS = 2000;

describe('a database locked by another writer (sqlite)', () => {
  let server: TestServer;
  let company: number;
  let manager: SignedInUser;
  serveSuite(
    undefined,
    (s) => {
      server = s;
    },
    { config: { sqliteBusyWaitMs: BUDGET_MS } },
  );

  beforeAll(async () => {
    company = await makeCompany(server);
    manager = await withAccessToken(server, await makeUser(server, 'manager', company));
  });

  /** Another connection to the same file holding the write lock, as a second process would. */
  let locker: SQLite.Database | null = null;
  function lock(): SQLite.Database {
    locker = new SQLite(join(server.config.dataDir, 'reis.sqlite'));
    locker.exec('BEGIN IMMEDIATE');
    return locker;
  }
  function release(): void {
    if (locker?.inTransaction) locker.exec('ROLLBACK');
  }
  afterEach(() => {
    release();
    locker?.close();
    locker = null;
  });

  const taskBody = (cargo: string) => ({
    company_id: company,
    date: dayFromToday(1),
    cargo,
    loading_place: 'Карьер «Лесной»',
    unloading_place: 'Стройка',
    planned_quantity: 40,
  });
  const tasksWithCargo = async (cargo: string) =>
    (await server.db.kysely.selectFrom('tasks').select('id').where('cargo', '=', cargo).execute()).length;

  it('answers a read while a write waits for the lock (the event loop is not blocked)', async () => {
    const held = lock();
    let writeSettled = false;
    const write = call(server, 'POST', '/api/tasks/', { token: manager.token, body: taskBody('Песок, пока заперто') }).finally(() => {
      writeSettled = true;
    });
    // Give the write time to reach the database and start waiting; a blocked event loop would delay this timer
    // until the write has given up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const me = await call(server, 'GET', '/api/users/me/', { token: manager.token });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(manager.id);
    // The read was answered while the lock was held and the write was still waiting for it.
    expect(held.inTransaction).toBe(true);
    expect(writeSettled).toBe(false);
    release();
    expect((await write).status).toBe(201);
  });

  it('lets the event loop turn before each statement: a call of many statements never holds it from first to last', async () => {
    // better-sqlite3 answers synchronously; without a turn before each statement, a call's statements would run
    // back to back in one turn (a year's statistics, a sheet's pages) and every other request would wait.
    const order: string[] = [];
    setImmediate(() => order.push('another request'));
    await server.db.kysely.selectFrom('users').select('id').limit(1).execute();
    order.push('read');
    await server.db.kysely.selectFrom('users').select('id').limit(1).execute();
    expect(order).toEqual(['another request', 'read']);
  });

  it('drops and creates an index of the same name outside a transaction (a migration): the reader a schema behind never refuses it', async () => {
    const { sql } = await import('kysely');
    await sql`create index probe_idx on users (email)`.execute(server.db.kysely);
    await sql`drop index probe_idx`.execute(server.db.kysely);
    await sql`create index probe_idx on users (name)`.execute(server.db.kysely);
    const made = await sql<{ sql: string }>`select sql from sqlite_master where name = 'probe_idx'`.execute(server.db.kysely);
    expect(made.rows.map((r) => r.sql)).toEqual(['CREATE INDEX probe_idx on users (name)']);
    // A statement wrong everywhere is still refused, with SQLite's own words.
    await expect(sql`create index probe_idx on users (name)`.execute(server.db.kysely)).rejects.toThrow(/already exists/);
    await sql`drop index probe_idx`.execute(server.db.kysely);
  });

  it('answers a write 503 with Retry-After and a Russian detail past the wait budget, and writes nothing', async () => {
    const held = lock();
    const cargo = 'Щебень, не записан';
    const res = await call(server, 'POST', '/api/tasks/', { token: manager.token, body: taskBody(cargo) });
    expect(held.inTransaction).toBe(true);
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.detail).toMatch(/База данных занята/);
    release();
    expect(await tasksWithCargo(cargo)).toBe(0);
  });

  it('a write that gets the lock within the budget succeeds', async () => {
    lock();
    const timer = setTimeout(release, 100);
    const cargo = 'Гравий, дождался';
    try {
      const res = await call(server, 'POST', '/api/tasks/', { token: manager.token, body: taskBody(cargo) });
      expect(res.status).toBe(201);
    } finally {
      clearTimeout(timer);
    }
    expect(await tasksWithCargo(cargo)).toBe(1);
  });
});
