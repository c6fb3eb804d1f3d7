/**
 * An online backup of the SQLite file: SQLite's backup API (through better-sqlite3) copies a consistent
 * snapshot page by page while the server keeps reading and writing (WAL mode). Restoring is copying the file
 * back in place while the server is stopped. PostgreSQL is backed up with its own tools (pg_dump).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';

/** Copies `source` to `destination` (overwritten) as one consistent snapshot; answers the pages copied. */
export async function backupSqlite(source: string, destination: string): Promise<number> {
  mkdirSync(dirname(destination), { recursive: true });
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const result = await db.backup(destination);
    return result.totalPages;
  } finally {
    db.close();
  }
}
