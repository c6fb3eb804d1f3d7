/**
 * Migration 012 (issue 31; server/db/migrations-registers.ts) on a copy of the demo data: the demo seeded into a
 * database at the migration before it (011) (with a few texts spelt differently and a plate that is not Russian), then migrated.
 * Every task keeps its texts and links the place of its normalised name (one place per name and company); every
 * per-driver vehicle is in the company's fleet, a driver's current one his vehicle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, freshPostgres } from '../fixtures/server.ts';
import { migrationProvider } from '../../server/db/migrations.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { nowIso, type Db } from '../../server/db/connect.ts';
import type { Database } from '../../server/db/schema.ts';
import { addVehicle, createAccount } from '../../server/users/accounts.ts';
import { placeKey } from '../../contract/registers.ts';
import { parsePlate } from '../../contract/plates.ts';

interface Before {
  tasks: { id: number; company_id: number; cargo: string; loading_place: string; unloading_place: string }[];
  transports: { user_id: number; company_id: number | null; vehicle_number: string; is_current: number }[];
}

describe.each(backends)('migration 012 on the demo data ($name)', ({ databaseUrl }) => {
  let db: Db;
  let before: Before;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    let kysely: Kysely<Database>;
    if (databaseUrl) {
      const fresh = await freshPostgres(databaseUrl);
      kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url, max: 2 }) }) });
      cleanup = async () => {
        await kysely.destroy();
        await fresh.drop();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'reis-migration-'));
      kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(join(dir, 'reis.sqlite')) }) });
      cleanup = async () => {
        await kysely.destroy();
        rmSync(dir, { recursive: true, force: true });
      };
    }
    const dialect = databaseUrl ? 'postgres' : 'sqlite';
    db = { kysely, dialect, foldsCase: false, close: () => kysely.destroy() };
    const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
    const atPrevious = await migrator.migrateTo('011_late_payments');
    expect(atPrevious.error).toBeUndefined();
    expect(await seedDemo(db, { registers: false })).toBe(true);

    // Texts people typed differently, and a plate that is not a Russian one.
    const north = (await kysely.selectFrom('companies').select('id').where('name', '=', 'ООО «СеверТранс»').executeTakeFirstOrThrow()).id;
    const now = nowIso();
    for (const [from, to] of [
      ['карьер  «ЛЕСНОЙ» ', 'ЖК «Северный парк», корп. 3'],
      ['Карьер «Лесной»', '  жк «северный парк», КОРП. 3'],
    ] as const) {
      await kysely
        .insertInto('tasks')
        .values({ company_id: north, date: '2026-01-15', cargo: 'Щебень', loading_place: from, unloading_place: to, planned_quantity: 10, unit: 'т', status: 'open', created_at: now, updated_at: now })
        .execute();
    }
    const foreigner = await createAccount(kysely, { email: 'foreign@demo.local', password_hash: 'x', name: 'Асан', phone: '+7 900 000-00-09', role: 'driver', company_id: north });
    await addVehicle(kysely, foreigner, { vehicle_number: '01 KZ 123ABC', vehicle_brand: 'MAN', vehicle_capacity: 22 }, true);

    before = {
      tasks: await kysely.selectFrom('tasks').select(['id', 'company_id', 'cargo', 'loading_place', 'unloading_place']).orderBy('id').execute(),
      transports: await kysely
        .selectFrom('transports as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.user_id', 'u.company_id', 't.vehicle_number', 't.is_current'])
        .execute(),
    };
    const latest = await migrator.migrateToLatest();
    expect(latest.error).toBeUndefined();
  });
  afterAll(async () => cleanup?.());

  it('keeps every task’s texts and links each to the place of its normalised name', async () => {
    const after = await db.kysely
      .selectFrom('tasks')
      .select(['id', 'company_id', 'cargo', 'loading_place', 'unloading_place', 'loading_place_id', 'unloading_place_id', 'customer_id'])
      .orderBy('id')
      .execute();
    expect(after.map(({ id, company_id, cargo, loading_place, unloading_place }) => ({ id, company_id, cargo, loading_place, unloading_place }))).toEqual(before.tasks);
    const places = new Map((await db.kysely.selectFrom('places').selectAll().execute()).map((p) => [p.id, p]));
    for (const task of after) {
      expect(task.customer_id).toBeNull();
      for (const [text, id] of [
        [task.loading_place, task.loading_place_id],
        [task.unloading_place, task.unloading_place_id],
      ] as const) {
        const place = places.get(id as number);
        expect(place, `${task.id}: ${text}`).toBeDefined();
        expect(place?.company_id).toBe(task.company_id);
        expect(place?.name_key).toBe(placeKey(text));
        expect(place?.radius_m).toBe(150);
      }
    }
  });

  it('makes one place per normalised name and company, named by its most used spelling', async () => {
    const keys = new Set(before.tasks.flatMap((t) => [t.loading_place, t.unloading_place].map((text) => `${t.company_id}|${placeKey(text)}`)));
    const places = await db.kysely.selectFrom('places').select(['company_id', 'name', 'name_key']).execute();
    expect(places).toHaveLength(keys.size);
    expect(new Set(places.map((p) => `${p.company_id}|${p.name_key}`))).toEqual(keys);
    expect(places.map((p) => p.name)).toContain('Карьер «Лесной»');
    expect(places.map((p) => p.name)).not.toContain('карьер «ЛЕСНОЙ»');
  });

  it('moves every per-driver vehicle into its company’s fleet, the current one onto the driver', async () => {
    const vehicles = await db.kysely.selectFrom('vehicles').selectAll().execute();
    const users = new Map((await db.kysely.selectFrom('users').select(['id', 'vehicle_id']).execute()).map((u) => [u.id, u.vehicle_id]));
    for (const t of before.transports) {
      const russian = parsePlate(t.vehicle_number);
      const key = russian.ok ? russian.plate.normalized : t.vehicle_number.toUpperCase();
      const vehicle = vehicles.find((v) => v.company_id === t.company_id && v.plate_key === key);
      expect(vehicle, t.vehicle_number).toBeDefined();
      expect(vehicle?.is_foreign).toBe(russian.ok ? 0 : 1);
      if (t.is_current === 1) expect(users.get(t.user_id)).toBe(vehicle?.id);
    }
    expect(vehicles.find((v) => v.plate === 'А123ВС 77')).toMatchObject({ make: 'КАМАЗ 65115', capacity_t: 15, is_active: 1 });
    expect(vehicles).toHaveLength(new Set(before.transports.map((t) => `${t.company_id}|${t.vehicle_number}`)).size);
  });
});
