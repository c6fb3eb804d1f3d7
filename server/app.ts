/**
 * Builds the Fastify app: /api routes per area, JSON errors, and the built PWA with an SPA fallback.
 * `buildApp` does no listening, so tests drive it with `app.inject` or listen on port 0.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.ts';
import type { Db } from './db/connect.ts';
import type { AppContext } from './context.ts';
import { AccessTokens } from './auth/jwt.ts';
import { makeGuard } from './auth/guard.ts';
import { RefreshTokens } from './auth/refresh.ts';
import { DiskStorage, type FileStorage } from './files/storage.ts';
import { installErrorHandler } from './errors.ts';
import { routeModules } from './routes/index.ts';

export interface BuildOptions {
  config: Config;
  db: Db;
  storage?: FileStorage;
}

export async function buildApp({ config, db, storage }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ? { level: 'info' } : false,
    // The spec writes paths both with and without a trailing slash; accept both.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    trustProxy: false,
  });
  app.decorateRequest('user', null);
  installErrorHandler(app);

  const tokens = new AccessTokens(config.jwtSecret, config.accessTokenTtl);
  const ctx: AppContext = {
    config,
    db,
    tokens,
    refresh: new RefreshTokens(db, config.refreshTokenTtl),
    guard: makeGuard(db, tokens),
    storage: storage ?? new DiskStorage(join(config.dataDir, 'files')),
  };

  await app.register(
    async (api) => {
      for (const register of routeModules) await register(api, ctx);
      api.setNotFoundHandler((request, reply) =>
        reply.status(404).send({ detail: `Нет такого адреса API: ${request.method} ${request.url}` }),
      );
    },
    { prefix: '/api' },
  );

  const hasDist = existsSync(join(config.distDir, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, { root: config.distDir, wildcard: false, index: false });
    // The service worker must never be served stale, or an update is never noticed.
    app.addHook('onSend', async (request, reply) => {
      if (request.url === '/sw.js' || request.url.startsWith('/index.html')) reply.header('cache-control', 'no-cache');
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (hasDist && request.method === 'GET' && !request.url.startsWith('/api')) {
      // SPA fallback: the client router decides, including its own not-found page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ detail: 'Не найдено' });
  });

  return app;
}
