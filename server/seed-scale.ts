/**
 * `npm run seed:scale [-- --years 3 --trucks 200 --carriers 50]`: a big carrier's history (server/db/scale-seed.ts,
 * docs/scale.md) into a new database: DATA_DIR/reis.sqlite (`--data-dir` or DATA_DIR), or the empty PostgreSQL
 * database DATABASE_URL names. `--days N` instead of years; `--end YYYY-MM-DD` (default today) is the last day;
 * `--seed`, `--photo-files` (real JPEGs for the newest photos, default 50). Every account's password: scale12345.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seedScale, SCALE_PASSWORD, type ScaleOptions } from './db/scale-seed.ts';
import { localToday } from './tasks/scope.ts';

export function scaleOptions(values: Record<string, string | boolean | undefined>): ScaleOptions {
  const num = (name: string, fallback: number, min: number) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: expected a number ≥ ${min}, got ${String(raw)}`);
    return n;
  };
  const end = typeof values.end === 'string' ? values.end : localToday();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(end)) throw new Error(`--end: expected YYYY-MM-DD, got ${end}`);
  const days = values.days !== undefined ? Math.round(num('days', 1, 1)) : Math.max(1, Math.round(num('years', 3, 0.003) * 365));
  return { days, trucks: Math.round(num('trucks', 200, 1)), carriers: Math.round(num('carriers', 50, 0)), end, seed: Math.round(num('seed', 35, 0)), photoFiles: Math.round(num('photo-files', 50, 0)) };
}

export const SCALE_ARGS = {
  years: { type: 'string' },
  days: { type: 'string' },
  trucks: { type: 'string' },
  carriers: { type: 'string' },
  end: { type: 'string' },
  seed: { type: 'string' },
  'photo-files': { type: 'string' },
} as const;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { ...SCALE_ARGS, 'data-dir': { type: 'string' } } });
  const options = scaleOptions(values);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data');
  const databaseUrl = process.env.DATABASE_URL || undefined;
  console.info(`seed:scale ${JSON.stringify(options)} → ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `${dataDir}/reis.sqlite`}`);
  const summary = await seedScale({ dataDir, databaseUrl }, options, (line) => console.info(line));
  console.info(JSON.stringify(summary, null, 2));
  console.info(`Sign in as ${summary.accounts.admin}, ${summary.accounts.driver} (password ${SCALE_PASSWORD}).`);
}
