/**
 * Bulk rows into the project's own tables for the scale seed (scale-seed.ts): buffered multi-row INSERTs with
 * prepared statements, in long transactions. SQLite through a raw better-sqlite3 connection with bulk-load pragmas
 * (no journal, no fsync, a big page cache); PostgreSQL through one pg client. The secondary indexes of the big
 * tables are dropped for the load and made again after it (faster than keeping them in order row by row).
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

export type Value = string | number | null;

export interface Sink {
  readonly dialect: 'sqlite' | 'postgres';
  insert(table: string, columns: readonly string[], rows: readonly Value[][]): Promise<void>;
  /** Ends the current transaction and starts the next (bounds what one transaction holds). */
  checkpoint(): Promise<void>;
  /** Drops the secondary (non-unique) indexes of `tables`; answers the statements that make them again. */
  dropIndexes(tables: readonly string[]): Promise<string[]>;
  exec(sql: string): Promise<void>;
  /** Commits and closes; sequences follow the explicit ids written. */
  finish(tables: readonly string[]): Promise<void>;
}

/** Rows per statement: under both databases' parameter limits (SQLite 32 766, PostgreSQL 65 535). */
const rowsPer = (columns: number) => Math.max(1, Math.min(500, Math.floor(30_000 / columns)));

/** The rows in statements' worth: each chunk with the statement's cache key. */
function* chunks(table: string, columns: readonly string[], rows: readonly Value[][]): Generator<{ key: string; rows: readonly Value[][] }> {
  const per = rowsPer(columns.length);
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    yield { key: `${table}_${chunk.length}`, rows: chunk };
  }
}

function insertSql(table: string, columns: readonly string[], rows: number, placeholder: (i: number) => string): string {
  const tuples: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) tuples.push(`(${columns.map(() => placeholder(++n)).join(',')})`);
  return `insert into ${table} (${columns.join(',')}) values ${tuples.join(',')}`;
}

export function sqliteSink(file: string): Sink {
  const db = new SQLite(file);
  // Bulk-load pragmas: the file is new and nobody reads it until the seed is done; a crash means seeding again.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -262144');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = OFF');
  const statements = new Map<string, SQLite.Statement>();
  db.exec('begin');
  return {
    dialect: 'sqlite',
    async insert(table, columns, rows) {
      for (const chunk of chunks(table, columns, rows)) {
        let statement = statements.get(chunk.key);
        if (!statement) {
          statement = db.prepare(insertSql(table, columns, chunk.rows.length, () => '?'));
          statements.set(chunk.key, statement);
        }
        statement.run(chunk.rows.flat());
      }
    },
    async checkpoint() {
      db.exec('commit');
      db.exec('begin');
    },
    async dropIndexes(tables) {
      const rows = db
        .prepare(`select name, sql from sqlite_master where type = 'index' and sql is not null and sql not like 'create unique%' collate nocase and tbl_name in (${tables.map(() => '?').join(',')})`)
        .all(...tables) as { name: string; sql: string }[];
      for (const r of rows) db.exec(`drop index ${r.name}`);
      return rows.map((r) => r.sql);
    },
    async exec(sql) {
      db.exec(sql);
    },
    async finish() {
      db.exec('commit');
      db.pragma('locking_mode = NORMAL');
      db.pragma('journal_mode = WAL');
      db.close();
    },
  };
}

export async function postgresSink(url: string): Promise<Sink> {
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('set synchronous_commit = off');
  await client.query('begin');
  // A failed statement ends the seed: the connection is closed with it (nothing is left holding the database).
  const query = async (config: string | pg.QueryConfig, values?: unknown[]) => {
    try {
      return await client.query(config as pg.QueryConfig, values);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };
  return {
    dialect: 'postgres',
    async insert(table, columns, rows) {
      for (const chunk of chunks(table, columns, rows)) {
        await query({ name: `seed_${chunk.key}`, text: insertSql(table, columns, chunk.rows.length, (n) => `$${n}`), values: chunk.rows.flat() });
      }
    },
    async checkpoint() {
      await query('commit');
      await query('begin');
    },
    async dropIndexes(tables) {
      const { rows } = (await query(
        `select i.indexname, i.indexdef from pg_indexes i
          where i.schemaname = current_schema() and i.tablename = any($1) and i.indexdef not like 'CREATE UNIQUE%'
            and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        [tables],
      )) as pg.QueryResult<{ indexname: string; indexdef: string }>;
      for (const r of rows) await query(`drop index ${r.indexname}`);
      return rows.map((r) => r.indexdef);
    },
    async exec(sql) {
      await query(sql);
    },
    async finish(tables) {
      await query('commit');
      for (const t of tables) {
        await query(`select setval(pg_get_serial_sequence('${t}', 'id'), coalesce((select max(id) from ${t}), 0) + 1, false)`);
      }
      await query('analyze');
      await client.end();
    },
  };
}
