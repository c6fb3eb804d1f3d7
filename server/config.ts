/**
 * Configuration from the environment. Secrets that are not given are generated once into DATA_DIR,
 * so a restart keeps sessions valid and a fresh machine needs no setup.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Secret for signing access tokens (HS256). */
  jwtSecret: string;
  /** Access token lifetime, seconds (15 min by default). */
  accessTokenTtl: number;
  /** Refresh token lifetime, seconds (30 days by default). */
  refreshTokenTtl: number;
  /** How long a live session is remembered per process (ms); not from the environment, for benchmarks and tests. */
  sessionCacheMs?: number;
  /** Folder with the built PWA, served with an SPA fallback when it exists. */
  distDir: string;
  /** How often the change feed's streams get a heartbeat (and their session is checked again), ms. */
  eventsHeartbeatMs: number;
  /** Fill an empty database with demo data. */
  demo: boolean;
  /** Log requests (off in tests). */
  logger: boolean;
  /** Export files older than this many days are deleted. */
  exportRetentionDays: number;
  /** An OnlyOffice Docs server that /table opens exports in; unset: the built-in read-only grid. */
  onlyofficeUrl: string | undefined;
  /** Signs the OnlyOffice editor config when the OnlyOffice server expects JWTs. */
  onlyofficeJwtSecret: string | undefined;
}

function intFromEnv(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function loadSecret(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = join(dataDir, 'secrets.json');
  const stored = (): string | undefined =>
    existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { jwtSecret?: string }).jwtSecret : undefined;
  const existing = stored();
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  // Several instances may start at once on one DATA_DIR: the file appears whole (written aside, then linked)
  // and only once (link refuses an existing name), so every instance signs with the same secret.
  const jwtSecret = randomBytes(48).toString('base64url');
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, JSON.stringify({ jwtSecret }, null, 2), { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return jwtSecret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = stored();
    if (!winner) throw new Error(`${file} has no jwtSecret`, { cause: error });
    return winner;
  } finally {
    rmSync(tmp, { force: true });
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  return {
    port: intFromEnv(env.PORT, 8080, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: overrides.jwtSecret ?? loadSecret(dataDir, env.JWT_SECRET),
    accessTokenTtl: intFromEnv(env.ACCESS_TOKEN_TTL, 15 * 60, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtl: intFromEnv(env.REFRESH_TOKEN_TTL, 30 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    distDir: resolve(env.DIST_DIR ?? './dist'),
    eventsHeartbeatMs: intFromEnv(env.EVENTS_HEARTBEAT_MS, 25_000, 'EVENTS_HEARTBEAT_MS'),
    demo: env.DEMO === '1',
    logger: env.LOG !== '0',
    exportRetentionDays: intFromEnv(env.EXPORT_RETENTION_DAYS, 7, 'EXPORT_RETENTION_DAYS'),
    onlyofficeUrl: env.ONLYOFFICE_URL || undefined,
    onlyofficeJwtSecret: env.ONLYOFFICE_JWT_SECRET || undefined,
    ...overrides,
  };
}
