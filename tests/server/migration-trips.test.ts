/**
 * 014_trips on a database made before it: the reports filed so far are trips entered after the fact, with no trip id;
 * a trip id is unique; the companies keep the default trip settings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databaseBefore, type OlderDatabase } from '../fixtures/migrations.ts';
import { openDb } from '../../server/db/connect.ts';

describe('014_trips', () => {
  const made: OlderDatabase[] = [];
  afterEach(() => {
    for (const database of made.splice(0)) database.remove();
  });

  it('marks the reports an older database holds as entered after the fact, and keeps trip ids unique', async () => {
    const database = await databaseBefore('_trips');
    made.push(database);
    const { file, old } = database;
    const now = '2026-11-02T00:00:00Z';
    await old.insertInto('companies').values({ name: 'Перевозчик', created_at: now }).execute();
    await old.insertInto('users').values({ email: 'd@x.ru', password_hash: 'x', name: 'Водитель', role: 'driver', company_id: 1, created_at: now }).execute();
    await old.insertInto('tasks').values({ company_id: 1, date: '2026-11-02', cargo: 'Щебень', loading_place: 'А', unloading_place: 'Б', planned_quantity: 10, created_at: now, updated_at: now }).execute();
    await old.insertInto('task_drivers').values({ task_id: 1, driver_id: 1, created_at: now }).execute();
    await old.insertInto('reports').values({ association_id: 1, driver_id: 1, completed_at: now, created_at: now, updated_at: now }).execute();
    await old.destroy();

    const db = await openDb({ sqliteFile: file });
    try {
      const [report] = await db.kysely.selectFrom('reports').select(['trip_uid', 'after_the_fact']).execute();
      expect(report).toEqual({ trip_uid: null, after_the_fact: 1 });
      const company = await db.kysely.selectFrom('companies').select('trip_settings').executeTakeFirstOrThrow();
      expect(company.trip_settings).toBeNull();
      const trip = { association_id: 1, driver_id: 1, loading_is_buyer: 0, unloading_is_buyer: 0, created_at: now, updated_at: now, trip_uid: '00000000-0000-4000-8000-000000000001', after_the_fact: 0 };
      await db.kysely.insertInto('reports').values(trip).execute();
      await expect(db.kysely.insertInto('reports').values(trip).execute()).rejects.toThrow(/UNIQUE/);
    } finally {
      await db.close();
    }
  });
});
