/**
 * Configuration from the environment. Secrets that are not given are generated once into DATA_DIR,
 * so a restart keeps sessions valid and a fresh machine needs no setup.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import webpush from 'web-push';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** SQLite: how long a write waits for another process's write lock before it is answered 503, ms. */
  sqliteBusyWaitMs: number;
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
  /** Change-feed streams one user may hold on one instance; a new one beyond it ends their oldest. */
  eventStreamsPerUser: number;
  /**
   * The longest a request may take to arrive whole, headers and body (ms): a socket that announces a body and
   * trickles it is answered 408 and closed. Generous for a report's photos on a 2G uplink (docs/hardening.md).
   */
  requestTimeoutMs: number;
  /**
   * The proxies whose X-Forwarded-For names the client's address (Fastify's `trustProxy`): false (the socket's
   * address is the client's), or their addresses / CIDR ranges (docs/hardening.md).
   */
  trustProxy: false | string[];
  /** Sign-ups an hour from one address, and into one company (server/users/signup-limits.ts). */
  signupsPerAddress: number;
  signupsPerCompany: number;
  /** Excel imports read at once: in this process, and of one company (server/tasks/import-runner.ts). */
  importsPerProcess: number;
  importsPerCompany: number;
  /** Signs push messages (VAPID): the public key is served to clients, `subject` names the sender. */
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** Fill an empty database with demo data. */
  demo: boolean;
  /** Log requests (off in tests). */
  logger: boolean;
  /** Export files older than this many days are deleted. */
  exportRetentionDays: number;
  /**
   * Run the companies' photo-retention rules once a day (server/reports/retention-job.ts); not from the environment:
   * test servers turn it off and run a pass themselves.
   */
  photoRetentionJob?: boolean;
  /**
   * Alert staff of running waits past the company's threshold, every minute (server/trips/wait-alerts.ts); not from
   * the environment: test servers turn it off and run a pass themselves (`app.waitAlerts`).
   */
  waitAlertJob?: boolean;
  /** An OnlyOffice Docs server that /table opens exports in; unset: the built-in read-only grid. */
  onlyofficeUrl: string | undefined;
  /** Signs the OnlyOffice editor config when the OnlyOffice server expects JWTs. */
  onlyofficeJwtSecret: string | undefined;
  /**
   * The map on a place's card (docs/registers.md): a tile URL template with `{z}`, `{x}`, `{y}` (and optionally
   * `{s}`, `{r}`) and the attribution shown on it; no URL: no map, the card works without it.
   */
  mapTiles: { url: string; attribution: string } | null;
  /**
   * The operator's API adapter (server/documents/diadoc.ts, docs/documents.md «The Диадок API adapter»): off unless
   * DIADOC_TOKEN, DIADOC_BOX_ID and DIADOC_COMPANY_ID are all given; then that company's ready titles are sent and
   * polled by a background job instead of the files adapter.
   */
  diadoc: DiadocSettings | null;
  /**
   * What every company's Диадок client shares (docs/documents.md «The operator of a company»): the API's origin, the
   * job's period, the calls' timeout and the token endpoint — from DIADOC_API_URL, DIADOC_POLL_SECONDS,
   * DIADOC_TIMEOUT_SECONDS and DIADOC_TOKEN_URL, read even when the three above are not given. Absent: the defaults.
   */
  diadocApi?: DiadocApi;
  /** Run the operator job on its timer; not from the environment: tests turn it off and run passes themselves. */
  operatorJob?: boolean;
}

export interface DiadocSettings {
  /** DIADOC_API_URL: https://diadoc-api.kontur.ru (the staging one: https://diadoc-api-staging.kontur.ru). */
  url: string;
  /** DIADOC_TOKEN: the OpenID Connect access token, sent as `Authorization: Bearer …`. */
  token: string;
  /** DIADOC_BOX_ID: the carrier's box (`FromBoxId`, `boxId`). */
  boxId: string;
  /** DIADOC_COMPANY_ID: our company whose titles go through it. */
  companyId: number;
  /** DIADOC_POLL_SECONDS (60): how often the job sends and polls, ms. */
  pollMs: number;
  /** DIADOC_TIMEOUT_SECONDS (30): a call not answered by then has an unknown outcome, ms. */
  timeoutMs: number;
  /**
   * OpenID Connect's Refresh Token Flow (the Диадок «Авторизация» page): with DIADOC_REFRESH_TOKEN, DIADOC_CLIENT_ID and
   * DIADOC_CLIENT_SECRET, a 401 gets a new access token once (DIADOC_TOKEN_URL, the provider's token endpoint) and the
   * call is made again; without them a 401 is reported as it is.
   */
  refresh?: DiadocRefresh | null;
}

export interface DiadocRefresh {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

/** What every company's Диадок client shares; see `Config.diadocApi`. */
export interface DiadocApi {
  url: string;
  pollMs: number;
  timeoutMs: number;
  tokenUrl: string;
}

/** The shared Диадок settings from the environment (each with its default); a malformed one stops the start. */
export function diadocApiFromEnv(env: NodeJS.ProcessEnv): DiadocApi {
  const url = (env.DIADOC_API_URL?.trim() || 'https://diadoc-api.kontur.ru').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/\s]+$/.test(url)) throw new Error(`DIADOC_API_URL must be an http(s) origin, e.g. https://diadoc-api.kontur.ru; got "${url}"`);
  const tokenUrl = env.DIADOC_TOKEN_URL?.trim() || 'https://identity.kontur.ru/connect/token';
  if (!/^https?:\/\/\S+$/.test(tokenUrl)) throw new Error(`DIADOC_TOKEN_URL must be an http(s) URL; got "${tokenUrl}"`);
  return {
    url,
    pollMs: intFromEnv(env.DIADOC_POLL_SECONDS, 60, 'DIADOC_POLL_SECONDS') * 1000,
    timeoutMs: intFromEnv(env.DIADOC_TIMEOUT_SECONDS, 30, 'DIADOC_TIMEOUT_SECONDS') * 1000,
    tokenUrl,
  };
}

/**
 * The environment's Диадок company (the fallback of docs/documents.md «The operator of a company»: used while that
 * company has no setting saved), or null when any of the three required is missing; a malformed one stops the start.
 */
export function diadocFromEnv(env: NodeJS.ProcessEnv): DiadocSettings | null {
  const token = env.DIADOC_TOKEN?.trim() ?? '';
  const boxId = env.DIADOC_BOX_ID?.trim() ?? '';
  const company = env.DIADOC_COMPANY_ID?.trim() ?? '';
  if (!token || !boxId || !company) return null;
  const api = diadocApiFromEnv(env);
  return {
    url: api.url,
    token,
    boxId,
    companyId: intFromEnv(company, 0, 'DIADOC_COMPANY_ID'),
    pollMs: api.pollMs,
    timeoutMs: api.timeoutMs,
    refresh: refreshFromEnv(env, api.tokenUrl),
  };
}

function refreshFromEnv(env: NodeJS.ProcessEnv, tokenUrl: string): DiadocRefresh | null {
  const refreshToken = env.DIADOC_REFRESH_TOKEN?.trim() ?? '';
  const clientId = env.DIADOC_CLIENT_ID?.trim() ?? '';
  const clientSecret = env.DIADOC_CLIENT_SECRET?.trim() ?? '';
  if (!refreshToken || !clientId || !clientSecret) return null;
  return { tokenUrl, clientId, clientSecret, refreshToken };
}

function intFromEnv(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

/**
 * A generated value kept in DATA_DIR/`name`, made once. Several instances may start at once on one DATA_DIR:
 * the file appears whole (written aside, then linked) and only once (link refuses an existing name), so every
 * instance reads the same value.
 */
function onceInDataDir<T>(dataDir: string, name: string, valid: (value: unknown) => value is T, make: () => T): T {
  const file = join(dataDir, name);
  const stored = (): T | undefined => {
    if (!existsSync(file)) return undefined;
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return valid(value) ? value : undefined;
  };
  const existing = stored();
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const made = make();
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, JSON.stringify(made, null, 2), { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return made;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = stored();
    if (!winner) throw new Error(`${file} holds no valid value`, { cause: error });
    return winner;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * TRUST_PROXY: unset, '', '0' or 'false' — trust nobody (the socket's address is the client's); otherwise a
 * comma-separated list of the proxies' addresses or CIDR ranges (or proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`): a request from one of them is taken to come from the address it appended to X-Forwarded-For.
 * 'true' and hop counts are refused: 'true' lets any client claim any address, and Fastify ignores a hop count
 * (it cannot tell a proxy from a client that sends the header itself).
 */
export function trustProxyFromEnv(value: string | undefined): false | string[] {
  const given = value?.trim() ?? '';
  if (given === '' || given === '0' || given === 'false') return false;
  if (given === 'true' || /^\d+$/.test(given)) {
    throw new Error(`TRUST_PROXY=${given}: name the proxies' addresses (e.g. 127.0.0.1 or 10.0.0.0/8), not ${given === 'true' ? 'true' : 'a hop count'}`);
  }
  const list = given.split(',').map((part) => part.trim()).filter(Boolean);
  for (const part of list) {
    if (!/^([0-9a-fA-F:.]+(\/\d{1,3})?|loopback|linklocal|uniquelocal)$/.test(part)) throw new Error(`TRUST_PROXY: "${part}" is neither an address nor a CIDR range`);
  }
  return list;
}

/** The attribution OpenStreetMap's tiles (and most others, drawn from its data) require. */
export const OSM_ATTRIBUTION = '© участники OpenStreetMap';

/**
 * MAP_TILE_URL: unset or '' — no map; otherwise an http(s) URL template, or a path on this server (a tile proxy
 * behind the same origin), naming `{z}`, `{x}` and `{y}`. MAP_TILE_ATTRIBUTION: what the map credits
 * (OpenStreetMap's contributors unless given). A wrong template stops the start-up, as TRUST_PROXY does.
 */
export function mapTilesFromEnv(url: string | undefined, attribution: string | undefined): Config['mapTiles'] {
  const given = url?.trim() ?? '';
  if (given === '') return null;
  const missing = ['{z}', '{x}', '{y}'].filter((part) => !given.includes(part));
  if (missing.length > 0) throw new Error(`MAP_TILE_URL must name ${missing.join(', ')}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png; got "${given}"`);
  const absolute = /^https?:\/\/[^/\s]+\//.test(given);
  if (!absolute && !/^\/[^/]/.test(given)) throw new Error(`MAP_TILE_URL must be an http(s) URL or a path on this server starting with /; got "${given}"`);
  if (/[\s"'<>\\]/.test(given)) throw new Error(`MAP_TILE_URL must not contain spaces, quotes, angle brackets or backslashes; got "${given}"`);
  return { url: given, attribution: attribution?.trim() || OSM_ATTRIBUTION };
}

const hasString = (key: string) => (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[key] === 'string';

function loadSecret(dataDir: string, given: string | undefined): string {
  if (given) return given;
  return onceInDataDir(dataDir, 'secrets.json', hasString('jwtSecret'), () => ({ jwtSecret: randomBytes(48).toString('base64url') })).jwtSecret!;
}

/** The VAPID key pair push messages are signed with: given by environment, else generated once into DATA_DIR. */
function loadVapid(dataDir: string, env: NodeJS.ProcessEnv): { publicKey: string; privateKey: string } {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  const keys = onceInDataDir(dataDir, 'vapid.json', hasString('privateKey'), () => ({ ...webpush.generateVAPIDKeys() }));
  return { publicKey: keys.publicKey!, privateKey: keys.privateKey! };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  return {
    port: intFromEnv(env.PORT, 8080, 'PORT'),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    sqliteBusyWaitMs: intFromEnv(env.SQLITE_BUSY_WAIT_MS, 5000, 'SQLITE_BUSY_WAIT_MS'),
    jwtSecret: overrides.jwtSecret ?? loadSecret(dataDir, env.JWT_SECRET),
    accessTokenTtl: intFromEnv(env.ACCESS_TOKEN_TTL, 15 * 60, 'ACCESS_TOKEN_TTL'),
    refreshTokenTtl: intFromEnv(env.REFRESH_TOKEN_TTL, 30 * 24 * 3600, 'REFRESH_TOKEN_TTL'),
    distDir: resolve(env.DIST_DIR ?? './dist'),
    eventsHeartbeatMs: intFromEnv(env.EVENTS_HEARTBEAT_MS, 25_000, 'EVENTS_HEARTBEAT_MS'),
    eventStreamsPerUser: intFromEnv(env.EVENT_STREAMS_PER_USER, 10, 'EVENT_STREAMS_PER_USER'),
    trustProxy: trustProxyFromEnv(env.TRUST_PROXY),
    requestTimeoutMs: intFromEnv(env.REQUEST_TIMEOUT_MS, 120_000, 'REQUEST_TIMEOUT_MS'),
    signupsPerAddress: intFromEnv(env.SIGNUPS_PER_ADDRESS, 5, 'SIGNUPS_PER_ADDRESS'),
    signupsPerCompany: intFromEnv(env.SIGNUPS_PER_COMPANY, 30, 'SIGNUPS_PER_COMPANY'),
    // One core is left to the request thread: a file being read takes a core of its own.
    importsPerProcess: intFromEnv(env.IMPORTS_PER_PROCESS, Math.max(1, availableParallelism() - 1), 'IMPORTS_PER_PROCESS'),
    importsPerCompany: intFromEnv(env.IMPORTS_PER_COMPANY, 1, 'IMPORTS_PER_COMPANY'),
    vapid: overrides.vapid ?? { ...loadVapid(dataDir, env), subject: env.VAPID_SUBJECT || 'mailto:admin@reis.local' },
    demo: env.DEMO === '1',
    logger: env.LOG !== '0',
    exportRetentionDays: intFromEnv(env.EXPORT_RETENTION_DAYS, 7, 'EXPORT_RETENTION_DAYS'),
    onlyofficeUrl: env.ONLYOFFICE_URL || undefined,
    onlyofficeJwtSecret: env.ONLYOFFICE_JWT_SECRET || undefined,
    mapTiles: mapTilesFromEnv(env.MAP_TILE_URL, env.MAP_TILE_ATTRIBUTION),
    diadoc: diadocFromEnv(env),
    diadocApi: diadocApiFromEnv(env),
    ...overrides,
  };
}
