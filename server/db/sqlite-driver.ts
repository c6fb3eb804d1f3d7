/**
 * Kysely over better-sqlite3 that never blocks the event loop waiting for another process's write lock
 * (docs/sqlite-busy.md). better-sqlite3 is synchronous: SQLite's own busy_timeout would wait inside the call and
 * stall every request. Here SQLite's timeout is a few milliseconds and a busy database is retried with timers,
 * up to a wait budget; past it a `DatabaseBusyError` (answered 503 with Retry-After, server/errors.ts).
 *
 * Two connections to the file:
 * - the writer, behind an in-process lock, for every statement that may write and for every transaction.
 *   A transaction begins with BEGIN IMMEDIATE, so the write lock is taken (and waited for) at BEGIN, where a
 *   retry is safe; after it no statement of the transaction meets another writer (nor WAL's BUSY_SNAPSHOT).
 * - the reader (read-only) for a row-returning read-only statement outside a transaction: it never waits for
 *   the writer's lock, and WAL lets it read beside any writer, ours or another process's.
 */
import type SQLite from 'better-sqlite3';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

/** SQLite's own busy_timeout on both connections: absorbs a momentary lock without stalling the event loop. */
export const SQLITE_BUSY_TIMEOUT_MS = 2;

/** The database stayed locked by another writer for the whole wait budget; answered 503 with Retry-After. */
export class DatabaseBusyError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super('database is busy (locked by another writer)', options);
    this.name = 'DatabaseBusyError';
  }
}

/** SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT). */
export function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export interface BusyAwareSqliteConfig {
  writer: SQLite.Database;
  /** A read-only connection to the same file (WAL mode). */
  reader: SQLite.Database;
  /** How long a statement or a transaction's BEGIN may wait for the write lock in all, ms. */
  busyWaitMs: number;
}

export class BusyAwareSqliteDialect implements Dialect {
  constructor(private readonly config: BusyAwareSqliteConfig) {}
  createDriver(): Driver {
    return new BusyAwareSqliteDriver(this.config);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function run(stmt: SQLite.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** A FIFO lock on the writer connection whose waiters give up at their deadline. */
class WriterLock {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  acquire(deadline: number, onTimeout: () => Error): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(grant), 1);
        reject(onTimeout());
      }, Math.max(0, deadline - Date.now()));
      this.#waiters.push(grant);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = false;
  }
}

/** How many prepared statements each connection keeps; the app's distinct queries are far fewer. */
export const STATEMENTS_KEPT = 1_000;

/**
 * `prepare(sql)` once per SQL text: Kysely compiles every query to SQL, and preparing the same statement again
 * was a tenth of an authenticated GET. Reuse is safe: better-sqlite3 runs a statement to its end synchronously
 * (rows are read with `all`, never a lazy iterator), and SQLite re-prepares it itself after a schema change.
 */
function statementCache(db: SQLite.Database): (sql: string) => SQLite.Statement {
  const statements = new Map<string, SQLite.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      // A bound, not an LRU: dynamic SQL (lists of ids of every length) must not grow it without end.
      if (statements.size >= STATEMENTS_KEPT) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
}

class BusyAwareSqliteDriver implements Driver {
  readonly #writerLock = new WriterLock();
  readonly #prepareReader: (sql: string) => SQLite.Statement;
  readonly #prepareWriter: (sql: string) => SQLite.Statement;
  readonly #retryAfterSeconds: number;

  constructor(private readonly config: BusyAwareSqliteConfig) {
    this.#retryAfterSeconds = Math.max(1, Math.ceil(config.busyWaitMs / 1000));
    this.#prepareReader = statementCache(config.reader);
    this.#prepareWriter = statementCache(config.writer);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // Nothing is reserved here: a statement outside a transaction takes the connection it needs when it runs.
    return new BusyAwareConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = this.deadline();
    await this.lockWriter(connection as BusyAwareConnection, deadline);
    await this.retryBusy(() => this.config.writer.exec('BEGIN IMMEDIATE'), deadline);
  }

  async commitTransaction(): Promise<void> {
    // In WAL mode a COMMIT after BEGIN IMMEDIATE does not meet another writer; if it ever does, SQLite keeps
    // the transaction open and the COMMIT may be retried.
    await this.retryBusy(() => this.config.writer.exec('COMMIT'), this.deadline());
  }

  async rollbackTransaction(): Promise<void> {
    // SQLite rolls back by itself after some errors; a second ROLLBACK would throw over the first error.
    if (this.config.writer.inTransaction) this.config.writer.exec('ROLLBACK');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const conn = connection as BusyAwareConnection;
    if (!conn.holdsWriter) return;
    conn.holdsWriter = false;
    if (this.config.writer.inTransaction) this.config.writer.exec('ROLLBACK');
    this.#writerLock.release();
  }

  async destroy(): Promise<void> {
    this.config.reader.close();
    this.config.writer.close();
  }

  /** One statement: in the connection's transaction, else on the reader or, writing, under the writer lock. */
  async execute(conn: BusyAwareConnection, { sql, parameters }: CompiledQuery): Promise<QueryResult<unknown>> {
    if (conn.holdsWriter) {
      try {
        return run(this.#prepareWriter(sql), parameters);
      } catch (error) {
        // Inside a transaction a busy statement cannot be retried alone: the transaction is rolled back.
        if (isSqliteBusy(error)) throw this.busy(error);
        throw error;
      }
    }
    // A turn of the event loop before every statement outside a transaction: better-sqlite3 runs it synchronously,
    // so a call made of many statements (a year's statistics, a sheet's pages) would otherwise hold the loop from
    // its first to its last while every other request waits (issue 35: no call delays another by more than 100 ms).
    await nextTurn();
    const deadline = this.deadline();
    // A statement the reader cannot prepare goes to the writer, which prepares it again (a real error is thrown
    // there): the reader's schema may be a statement behind the writer's — `drop index x` then `create index x`
    // outside a transaction (a migration) failed to prepare on the reader with «index x already exists».
    const readStmt = await this.retryBusy(() => this.#prepareReader(sql), deadline).catch((error: unknown) => {
      if (isSqliteBusy(error)) throw error;
      return null;
    });
    // Row-returning and read-only (SELECT, WITH … SELECT, a reading PRAGMA other than a connection setting).
    if (readStmt?.reader && readStmt.readonly && !/^\s*pragma\b/i.test(sql)) {
      return this.retryBusy(() => run(readStmt, parameters), deadline);
    }
    await this.lockWriter(conn, deadline);
    try {
      const stmt = this.#prepareWriter(sql);
      // A single statement outside a transaction is atomic: when it fails busy it did nothing and may run again.
      return await this.retryBusy(() => run(stmt, parameters), deadline);
    } finally {
      conn.holdsWriter = false;
      this.#writerLock.release();
    }
  }

  private deadline(): number {
    return Date.now() + this.config.busyWaitMs;
  }

  private busy(cause?: unknown): DatabaseBusyError {
    return new DatabaseBusyError(this.#retryAfterSeconds, { cause });
  }

  private async lockWriter(conn: BusyAwareConnection, deadline: number): Promise<void> {
    // Waiting behind our own writer counts against the same budget: a queue of writes behind another process's
    // lock all answer 503 at the budget, not one budget after another.
    await this.#writerLock.acquire(deadline, () => this.busy());
    conn.holdsWriter = true;
  }

  /** Runs `fn` again with a growing pause (timers, not SQLite's blocking wait) while the database is busy. */
  private async retryBusy<T>(fn: () => T, deadline: number): Promise<T> {
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return fn();
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
        const left = deadline - Date.now();
        if (left <= 0) throw this.busy(error);
        await sleep(Math.min(pause, left));
      }
    }
  }
}

class BusyAwareConnection implements DatabaseConnection {
  /** Set while this connection holds the writer lock: for its transaction, or for one writing statement. */
  holdsWriter = false;

  constructor(private readonly driver: BusyAwareSqliteDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, compiledQuery) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Not streamed from SQLite: an open iterator would keep its connection busy for every other request.
    const { rows } = await this.executeQuery<R>(compiledQuery);
    for (const row of rows) yield { rows: [row] };
  }
}
