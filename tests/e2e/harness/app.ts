/**
 * The whole product for an end-to-end test: the real server (built PWA from dist/, demo seed, a temp SQLite
 * file) behind a FaultProxy, and Chromium (Firefox: firefox.ts). Tests talk to `proxy.url`, never to the server
 * directly. In the two-instance run the server is tests/fixtures/cluster.ts: PostgreSQL, two processes, HAProxy.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../../fixtures/server.ts';
import { startCluster } from '../../fixtures/cluster.ts';
import { seedDemo } from '../../../server/db/seed.ts';
import { mapTilesFromEnv } from '../../../server/config.ts';
import { FaultProxy } from './proxy.ts';
import { launchBrowser } from './browser.ts';

/** The server behind its fault proxy: what Chromium's `startE2eApp` and Firefox's `startFirefoxApp` share. */
export interface E2eServer {
  server: TestServer;
  proxy: FaultProxy;
  url: string;
  close(): Promise<void>;
}

export interface E2eApp extends E2eServer {
  browser: Browser;
}

export const DEMO_PASSWORD = 'demo12345';
export const DEMO = {
  driver: 'driver@demo.local',
  manager: 'manager@demo.local',
  admin: 'admin@demo.local',
  super: 'super@demo.local',
} as const;

/**
 * True in the two-instance run (vitest project e2e-cluster): the same tests, with PostgreSQL, two server
 * processes and HAProxy between the fault proxy and the server.
 */
export const CLUSTER = process.env.E2E_CLUSTER === '1';

export interface E2eOptions {
  accessTokenTtl?: number;
  /** MAP_TILE_URL: the place card's map (tests serve its tiles with page.route). */
  mapTileUrl?: string;
}

async function startE2eServer(options: E2eOptions = {}): Promise<E2eServer> {
  const distDir = resolve('dist');
  if (!existsSync(resolve(distDir, 'index.html'))) throw new Error('dist/ is missing: run `npx vite build` first');
  let server: TestServer;
  if (CLUSTER) {
    server = await startCluster({ distDir, ...options });
  } else {
    server = await startTestServer({
      config: {
        distDir,
        ...(options.accessTokenTtl ? { accessTokenTtl: options.accessTokenTtl } : {}),
        ...(options.mapTileUrl ? { mapTiles: mapTilesFromEnv(options.mapTileUrl, undefined) } : {}),
      },
    });
    await seedDemo(server.db);
  }
  const proxy = new FaultProxy(server.url);
  const url = await proxy.start();
  return {
    server,
    proxy,
    url,
    async close() {
      await proxy.stop();
      await server.close();
    },
  };
}

/** The server and proxy with a browser, closed together (Chromium here; firefox.ts launches Firefox). */
export async function startE2eAppWith<B extends { close(): Promise<void> }>(
  launch: () => Promise<B>,
  options: E2eOptions = {},
): Promise<E2eServer & { browser: B }> {
  const app = await startE2eServer(options);
  let browser: B;
  try {
    browser = await launch();
  } catch (error) {
    await app.close();
    throw error;
  }
  return {
    ...app,
    browser,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

export function startE2eApp(options: E2eOptions = {}): Promise<E2eApp> {
  return startE2eAppWith(launchBrowser, options);
}
