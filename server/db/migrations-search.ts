/**
 * The searches of a carrier's years (issue 35, docs/scale.md «The searches»): a task's free text — cargo, loading
 * and unloading place — indexed for substring search, and the staff list's filter (company, status, date) as one
 * index whose entries alone answer its count and its newest-first page. Append-only, as migrations.ts.
 * - SQLite: an FTS5 table with the trigram tokenizer (substrings of 3+ characters, Unicode case folded — Cyrillic
 *   too — diacritics kept: «ё» stays «ё») over `tasks` as its external content, kept by triggers in the same
 *   statement as every insert, update and delete of a task: no write can leave it stale.
 * - PostgreSQL: pg_trgm's GIN index over the same three columns, which `ILIKE '%…%'` uses (when the server has the
 *   extension; without it the search still answers, by reading the rows).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';

const COLUMNS = 'cargo, loading_place, unloading_place';
const NEW = 'new.id, new.cargo, new.loading_place, new.unloading_place';
const OLD = "'delete', old.id, old.cargo, old.loading_place, old.unloading_place";

export function migration032(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('tasks_company_status_date_idx').on('tasks').columns(['company_id', 'status', 'date']).execute();
      if (dialect === 'sqlite') {
        await sql.raw(`create virtual table tasks_search using fts5(${COLUMNS}, content='tasks', content_rowid='id', tokenize='trigram')`).execute(db);
        await sql.raw(`insert into tasks_search(tasks_search) values ('rebuild')`).execute(db);
        await sql.raw(`create trigger tasks_search_insert after insert on tasks begin insert into tasks_search(rowid, ${COLUMNS}) values (${NEW}); end`).execute(db);
        await sql.raw(`create trigger tasks_search_delete after delete on tasks begin insert into tasks_search(tasks_search, rowid, ${COLUMNS}) values (${OLD}); end`).execute(db);
        await sql
          .raw(
            `create trigger tasks_search_update after update of ${COLUMNS} on tasks begin ` +
              `insert into tasks_search(tasks_search, rowid, ${COLUMNS}) values (${OLD}); insert into tasks_search(rowid, ${COLUMNS}) values (${NEW}); end`,
          )
          .execute(db);
        return;
      }
      const { rows } = await sql<{ name: string }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
      if (rows.length === 0) return;
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index tasks_text_trgm_idx on tasks using gin (cargo gin_trgm_ops, loading_place gin_trgm_ops, unloading_place gin_trgm_ops)`.execute(db);
    },
  };
}
