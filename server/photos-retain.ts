/**
 * `npm run photos:retain -- --years N --action archive|delete [--company ID] [--dry-run] [--archive-dir DIR]`: the
 * photo retention rule (server/reports/retention.ts, docs/scale.md): photos of tasks dated more than N years ago are
 * moved to DIR (default DATA_DIR/archive, under the same keys) or deleted; the trips and their figures stay, and
 * each report's history says so. Safe while the server runs (batches of 500 reports, one transaction each).
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openDb } from './db/connect.ts';
import { retainPhotos } from './reports/retention.ts';
import { localToday } from './tasks/scope.ts';

const { values } = parseArgs({
  options: { years: { type: 'string' }, action: { type: 'string' }, company: { type: 'string' }, 'dry-run': { type: 'boolean' }, 'archive-dir': { type: 'string' } },
});
const years = Number(values.years);
if (!Number.isInteger(years) || years < 1) {
  console.error('--years: a whole number of years, at least 1');
  process.exit(2);
}
if (values.action !== 'archive' && values.action !== 'delete') {
  console.error('--action: archive (moved to the archive folder) or delete');
  process.exit(2);
}
const companyId = values.company === undefined ? undefined : Number(values.company);
if (companyId !== undefined && !(Number.isInteger(companyId) && companyId > 0)) {
  console.error('--company: a company id');
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, sqliteFile: join(config.dataDir, 'reis.sqlite'), sqliteBusyWaitMs: config.sqliteBusyWaitMs });
try {
  const archiveDir = resolve(values['archive-dir'] ?? join(config.dataDir, 'archive'));
  const result = await retainPhotos(db, { filesDir: join(config.dataDir, 'files'), archiveDir }, { years, action: values.action, companyId, dryRun: values['dry-run'], today: localToday() });
  const what = values['dry-run'] ? 'would go' : values.action === 'archive' ? `moved to ${archiveDir}` : 'deleted';
  console.info(`Photos of tasks before ${result.before}: ${result.photos} photos of ${result.reports} reports (${Math.round(result.bytes / 1024 / 1024)} MB) ${what}.`);
} finally {
  await db.close();
}
