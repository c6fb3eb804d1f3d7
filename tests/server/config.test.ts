/**
 * Configuration read by several server processes at once: instances started together on one DATA_DIR (the
 * two-instance deployment) must all sign tokens with the same secret.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diadocFromEnv, loadConfig, mapTilesFromEnv } from '../../server/config.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'reis-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const READ_SECRET = `
const { loadConfig } = await import('./server/config.ts');
// All processes read the folder at the same moment, as instances started together by a supervisor would.
while (Date.now() < Number(process.env.START_AT));
const config = loadConfig({ DATA_DIR: process.env.DATA_DIR });
process.stdout.write(config.jwtSecret + ' ' + config.vapid.publicKey);
`;

function secretOfNewProcess(startAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', READ_SECRET], { env: { ...process.env, DATA_DIR: dataDir, START_AT: String(startAt) } }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

describe('the generated secrets', () => {
  it('is one secret and one VAPID key pair for six processes started at once on an empty DATA_DIR, stored once, whole', async () => {
    const startAt = Date.now() + 3_000;
    const answers = await Promise.all(Array.from({ length: 6 }, () => secretOfNewProcess(startAt)));
    expect(new Set(answers).size).toBe(1);
    const [secret, vapidPublic] = answers[0]!.split(' ');
    expect(secret).toMatch(/^[\w-]{64}$/);
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toEqual({ jwtSecret: secret });
    expect(JSON.parse(readFileSync(join(dataDir, 'vapid.json'), 'utf8'))).toMatchObject({ publicKey: vapidPublic });
    // No leftover of the write-aside-then-link.
    expect(readdirSync(dataDir).sort()).toEqual(['secrets.json', 'vapid.json']);
  });
});

describe('TRUST_PROXY', () => {
  it('off unless given; a list of proxies; never "trust everyone" nor a hop count', async () => {
    const { trustProxyFromEnv } = await import('../../server/config.ts');
    for (const off of [undefined, '', ' ', '0', 'false']) expect(trustProxyFromEnv(off)).toBe(false);
    expect(trustProxyFromEnv('10.0.0.1, 10.1.0.0/16,::1,loopback')).toEqual(['10.0.0.1', '10.1.0.0/16', '::1', 'loopback']);
    expect(() => trustProxyFromEnv('true')).toThrow(/not true/);
    expect(() => trustProxyFromEnv('1')).toThrow(/hop count/);
    expect(() => trustProxyFromEnv('proxy.local')).toThrow(/neither an address nor a CIDR/);
  });
});

describe('MAP_TILE_URL', () => {
  it('is no map when unset or empty; a template with {z}, {x}, {y} (an http(s) URL or a path here) with OpenStreetMap credited unless told', () => {
    expect(loadConfig({ DATA_DIR: dataDir }, { jwtSecret: 'x', vapid: { publicKey: 'p', privateKey: 'k', subject: 's' } }).mapTiles).toBeNull();
    expect(mapTilesFromEnv('  ', 'ignored')).toBeNull();
    expect(mapTilesFromEnv('https://{s}.tile.example.org/{z}/{x}/{y}.png', undefined)).toEqual({ url: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', attribution: '© участники OpenStreetMap' });
    expect(mapTilesFromEnv('/tiles/{z}/{x}/{y}.png', ' © Своя подложка ')).toEqual({ url: '/tiles/{z}/{x}/{y}.png', attribution: '© Своя подложка' });
  });

  it('stops the start-up on a template that cannot draw a map, naming what is wrong', () => {
    expect(() => mapTilesFromEnv('https://tile.example.org/{z}/{x}.png', undefined)).toThrow(/must name \{y\}/);
    expect(() => mapTilesFromEnv('ftp://tile.example.org/{z}/{x}/{y}.png', undefined)).toThrow(/http\(s\) URL or a path/);
    expect(() => mapTilesFromEnv('//tile.example.org/{z}/{x}/{y}.png', undefined)).toThrow(/http\(s\) URL or a path/);
    expect(() => mapTilesFromEnv('https://tile.example.org/{z}/{x}/{y}.png"onerror="x', undefined)).toThrow(/quotes/);
  });
});

describe('DIADOC_*', () => {
  it('is off (the files adapter) unless the token, the box and the company are all given; defaults for the rest', () => {
    expect(loadConfig({ DATA_DIR: dataDir }, { jwtSecret: 'x', vapid: { publicKey: 'p', privateKey: 'k', subject: 's' } }).diadoc).toBeNull();
    expect(diadocFromEnv({ DIADOC_TOKEN: 't', DIADOC_BOX_ID: 'box' })).toBeNull();
    expect(diadocFromEnv({ DIADOC_TOKEN: ' t ', DIADOC_BOX_ID: 'box', DIADOC_COMPANY_ID: '7' })).toEqual({ url: 'https://diadoc-api.kontur.ru', token: 't', boxId: 'box', companyId: 7, pollMs: 60_000, timeoutMs: 30_000, refresh: null });
    expect(diadocFromEnv({ DIADOC_TOKEN: 't', DIADOC_BOX_ID: 'box', DIADOC_COMPANY_ID: '7', DIADOC_API_URL: 'https://diadoc-api-staging.kontur.ru/', DIADOC_POLL_SECONDS: '30', DIADOC_TIMEOUT_SECONDS: '10' })).toMatchObject({ url: 'https://diadoc-api-staging.kontur.ru', pollMs: 30_000, timeoutMs: 10_000 });
  });

  it('refreshes the token only with the refresh token, the client and its secret all given', () => {
    const on = { DIADOC_TOKEN: 't', DIADOC_BOX_ID: 'box', DIADOC_COMPANY_ID: '7' };
    expect(diadocFromEnv({ ...on, DIADOC_REFRESH_TOKEN: 'r', DIADOC_CLIENT_ID: 'app' })?.refresh).toBeNull();
    expect(diadocFromEnv({ ...on, DIADOC_REFRESH_TOKEN: 'r', DIADOC_CLIENT_ID: 'app', DIADOC_CLIENT_SECRET: 's' })?.refresh).toEqual({ tokenUrl: 'https://identity.kontur.ru/connect/token', clientId: 'app', clientSecret: 's', refreshToken: 'r' });
    expect(() => diadocFromEnv({ ...on, DIADOC_REFRESH_TOKEN: 'r', DIADOC_CLIENT_ID: 'app', DIADOC_CLIENT_SECRET: 's', DIADOC_TOKEN_URL: 'identity' })).toThrow(/DIADOC_TOKEN_URL must be an http\(s\) URL/);
  });

  it('stops the start-up on a malformed one, naming it', () => {
    const on = { DIADOC_TOKEN: 't', DIADOC_BOX_ID: 'box' };
    expect(() => diadocFromEnv({ ...on, DIADOC_COMPANY_ID: 'ООО' })).toThrow(/DIADOC_COMPANY_ID must be a positive integer/);
    expect(() => diadocFromEnv({ ...on, DIADOC_COMPANY_ID: '7', DIADOC_API_URL: 'diadoc-api.kontur.ru' })).toThrow(/DIADOC_API_URL must be an http\(s\) origin/);
    expect(() => diadocFromEnv({ ...on, DIADOC_COMPANY_ID: '7', DIADOC_POLL_SECONDS: '0' })).toThrow(/DIADOC_POLL_SECONDS/);
  });
});
