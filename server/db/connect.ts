/**
 * Opens the database: a SQLite file under DATA_DIR by default, PostgreSQL when DATABASE_URL is set.
 * Runs the migrations before returning, so a fresh file or an empty PostgreSQL database is usable at once.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './schema.ts';
import { migrationProvider, type Dialect } from './migrations.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://... — when set, PostgreSQL is used. */
  databaseUrl?: string | undefined;
  /** Path of the SQLite file when no databaseUrl is given. */
  sqliteFile: string;
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
    const sqlite = new SQLite(options.sqliteFile);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }

  const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  for (const r of results ?? []) {
    if (r.status === 'Error') throw new Error(`migration ${r.migrationName} failed`);
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));

  return { kysely, dialect, close: () => kysely.destroy() };
}

/** How many prepared statements one SQLite database keeps; the app's distinct queries are far fewer. */
export const STATEMENTS_KEPT = 1_000;

/**
 * The database as Kysely's SQLite driver sees it, with each SQL text prepared once: Kysely asks `prepare(sql)`
 * for every query, and compiling the same statement again was a tenth of an authenticated GET. Reusing a
 * statement is safe here: the driver runs one query at a time on its single connection (its mutex, held for a
 * stream's whole iteration too), and SQLite re-prepares a statement itself after a schema change.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        // A bound, not an LRU: dynamic SQL (lists of ids of every length) must not grow it without end.
        if (statements.size >= STATEMENTS_KEPT) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** ISO time now, the one format every time column uses. */
export function nowIso(): string {
  return new Date().toISOString();
}
