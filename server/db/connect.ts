/**
 * Opens the database: a SQLite file under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Runs the migrations before returning, so a fresh file or an empty PostgreSQL database is usable at once.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import type { Database } from './schema.ts';
import { migrationProvider, type Dialect } from './migrations.ts';
import { BusyAwareSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-driver.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Whether the database's case-insensitive match folds Cyrillic (PostgreSQL's ILIKE by its ctype; server/tasks/search.ts). */
  foldsCase: boolean;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://... — when set, PostgreSQL is used. */
  databaseUrl?: string | undefined;
  /** Path of the SQLite file when no databaseUrl is given. */
  sqliteFile: string;
  /** SQLite: how long a write waits for another process's write lock before a 503, ms (default 5000). */
  sqliteBusyWaitMs?: number | undefined;
}

export async function openDb(options: DbOptions): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  if (options.databaseUrl) {
    dialect = 'postgres';
    // Bigint counts come back as strings from pg; parse int8 as a JS number (our ids and counts fit).
    pg.types.setTypeParser(20, (v: string) => Number(v));
    kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.databaseUrl, max: 10 }) }),
    });
  } else {
    dialect = 'sqlite';
    mkdirSync(dirname(options.sqliteFile), { recursive: true });
    const writer = new SQLite(options.sqliteFile);
    // Opening may wait for another writer (nothing is served yet); after it SQLite never waits more than a
    // few milliseconds inside a call: a locked database is waited for with timers (sqlite-driver.ts).
    writer.pragma('busy_timeout = 5000');
    writer.pragma('journal_mode = WAL');
    writer.pragma('foreign_keys = ON');
    writer.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    const reader = new SQLite(options.sqliteFile, { readonly: true, fileMustExist: true });
    reader.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    kysely = new Kysely<Database>({
      dialect: new BusyAwareSqliteDialect({ writer, reader, busyWaitMs: options.sqliteBusyWaitMs ?? 5000 }),
    });
  }

  const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    // The migration's own error named: a bare «failed» left a broken migration to be found by hand.
    if (r.status === 'Error') throw new Error(`migration ${r.migrationName} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
  // The searches need one ILIKE instead of four spellings when the database's ctype folds Cyrillic (search.ts).
  // SQLite's LIKE folds ASCII only: its searches try the spellings.
  let foldsCase = false;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ folds: boolean }>`select 'ЁЖ' ilike 'ёж' as folds`.execute(kysely);
    foldsCase = rows[0]?.folds === true;
  }

  return { kysely, dialect, foldsCase, close: () => kysely.destroy() };
}

/** ISO time now, the one format every time column uses. */
export function nowIso(): string {
  return new Date().toISOString();
}
