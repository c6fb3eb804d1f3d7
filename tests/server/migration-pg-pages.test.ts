/**
 * 044_payroll_lines_pages (docs/scale.md «PostgreSQL at full size»): PostgreSQL reads a closed month's lines by
 * (company, month, id) — the sheet's pages — and is told how many reports an assignment has (n_distinct), which its
 * sample of side-by-side reports got three times wrong. SQLite's (company_id, month) index already ends in the id:
 * it is left as it was.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { fitReportAssociations } from '../../server/db/migrations-scale.ts';

describe.each(backends)('044_payroll_lines_pages ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;

  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  beforeAll(async () => {
    p = await makePeople(s);
  });

  it("indexes a month's lines by id on PostgreSQL, and keeps SQLite's index", async () => {
    const names =
      s.db.dialect === 'postgres'
        ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'payroll_lines'`.execute(s.db.kysely)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'payroll_lines'`.execute(s.db.kysely)).rows;
    const indexes = names.map((r) => r.name);
    expect(indexes.includes('payroll_lines_month_id_idx')).toBe(s.db.dialect === 'postgres');
    expect(indexes.includes('payroll_lines_month_idx')).toBe(s.db.dialect === 'sqlite');
  });

  it("tells PostgreSQL the share of distinct assignments among the reports, none while there are no reports", async () => {
    if (s.db.dialect !== 'postgres') return;
    const option = async () =>
      (await sql<{ options: string[] | null }>`select attoptions as options from pg_attribute where attrelid = 'reports'::regclass and attname = 'association_id'`.execute(s.db.kysely)).rows[0]?.options ?? null;
    // The empty database of the test: migration 044 left the column to ANALYZE.
    expect(await option()).toBeNull();
    const one = await addDriver(s, await createTask(s, p.company, { status: 'completed' }), p.driver.id, { status: 'completed' });
    const two = await addDriver(s, await createTask(s, p.company, { status: 'completed' }), p.driver2.id, { status: 'completed' });
    for (const association of [one, one, one, two]) {
      await s.db.kysely.insertInto('reports').values({ association_id: association, driver_id: association === one ? p.driver.id : p.driver2.id, loading_is_buyer: 0, unloading_is_buyer: 0, created_at: nowIso(), updated_at: nowIso() }).execute();
    }
    await fitReportAssociations(s.db.kysely as never);
    expect(await option()).toEqual(['n_distinct=-0.5000']);
  });
});
