import { PostgresAdapter, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** The SQL dialect a database speaks: SQLite by default, PostgreSQL by DATABASE_URL (connect.ts). */
export type Dialect = 'sqlite' | 'postgres';

/** Whether a query builder (a database or a transaction of one) speaks PostgreSQL — for the few dialect-aware reads that get only the builder. */
export function isPostgres(db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
