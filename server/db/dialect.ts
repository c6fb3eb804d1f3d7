/** The SQL dialect a database speaks: SQLite by default, PostgreSQL by DATABASE_URL (connect.ts). */
export type Dialect = 'sqlite' | 'postgres';
