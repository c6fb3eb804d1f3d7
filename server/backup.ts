/**
 * `npm run backup [-- --out FILE]`: a consistent copy of the SQLite database, safe while the server runs.
 * Default: DATA_DIR/backups/reis-YYYY-MM-DDTHH-MM-SS.sqlite. With DATABASE_URL (PostgreSQL) it says to use
 * pg_dump. Restore: stop the server, copy the backup over DATA_DIR/reis.sqlite (and delete reis.sqlite-wal
 * and reis.sqlite-shm if present), start the server.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { backupSqlite } from './db/backup.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const config = loadConfig();
if (config.databaseUrl) {
  console.error('The database is PostgreSQL (DATABASE_URL): back it up with pg_dump, e.g. `pg_dump -Fc "$DATABASE_URL" > reis.dump`.');
  process.exit(2);
}
const source = join(config.dataDir, 'reis.sqlite');
if (!existsSync(source)) {
  console.error(`No database at ${source}: nothing to back up.`);
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const destination = resolve(values.out ?? join(config.dataDir, 'backups', `reis-${stamp}.sqlite`));
const pages = await backupSqlite(source, destination);
console.info(`Backup written: ${destination} (${pages} pages). Restore: stop the server, copy it over ${source}, remove ${source}-wal and ${source}-shm, start the server.`);
