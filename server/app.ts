/**
 * Builds the Fastify app: /api routes per area, JSON errors, and the built PWA with an SPA fallback.
 * `buildApp` does no listening, so tests drive it with `app.inject` or listen on port 0.
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
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
    // wildcard: files are looked up per request, so a rebuilt dist/ is served without a restart.
    await app.register(fastifyStatic, {
      root: config.distDir,
      wildcard: true,
      index: false,
      setHeaders(res, path) {
        // Hashed assets never change; the service worker and the page must never be served stale.
        if (path.includes(`${sep}assets${sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // SPA fallback for page routes only: a missing /assets/x.js must stay a 404, never HTML.
    if (hasDist && request.method === 'GET' && !pathname.startsWith('/api') && !/\.[a-z0-9]+$/i.test(pathname)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    if (pathname.startsWith('/api')) {
      return reply.status(404).send({ detail: `Нет такого адреса API: ${request.method} ${request.url}` });
    }
    return reply.status(404).send({ detail: 'Не найдено' });
  });

  return app;
}
