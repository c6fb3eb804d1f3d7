/**
 * Builds the Fastify app: /api routes per area, JSON errors, and the built PWA with an SPA fallback.
 * `buildApp` does no listening, so tests drive it with `app.inject` or listen on port 0.
 */
import { existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
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
import { memoryBus, postgresBus } from './events/bus.ts';
import { installChangeFeed } from './events/feed.ts';
import { Pusher, type PushTransport } from './push/push.ts';
import { pushAfterWrite } from './push/triggers.ts';
import { installHistory } from './audit/history.ts';
import { installJsonCompression } from './compress.ts';
import { installSecurityHeaders } from './security-headers.ts';
import { installCustomerPage } from './customer-links/page.ts';
import { startWaitAlertJob, type WaitAlertJob } from './trips/wait-alerts.ts';
import { startPayrollCloses, type PayrollCloses } from './payroll/close-jobs.ts';

export interface RegisteredRoute {
  method: string;
  /** With its prefix: '/api/companies/:id'. */
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: RegisteredRoute[];
    /** The long-wait alerts' job (server/trips/wait-alerts.ts): tests run a pass at a time of their choice. */
    waitAlerts: WaitAlertJob;
    /** Months' closes as jobs (server/payroll/close-jobs.ts): tests wait for them with `idle()`. */
    payrollCloses: PayrollCloses;
  }
}

export interface BuildOptions {
  config: Config;
  db: Db;
  storage?: FileStorage;
  /** How push messages travel; tests pass one that records them (default: fetch to the push service). */
  pushTransport?: PushTransport;
}

export async function buildApp({ config, db, storage, pushTransport }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ? { level: 'info' } : false,
    // The spec writes paths both with and without a trailing slash; accept both.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    // Off unless TRUST_PROXY names the proxies in front: then the client's address comes from X-Forwarded-For.
    trustProxy: config.trustProxy,
    // A request must arrive whole in time; Node checks open requests every `connectionsCheckingInterval`, so
    // the check runs often enough for the limit to hold within a tenth of it.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.round(config.requestTimeoutMs / 10))),
    },
    // The router's own refusals (a malformed %-escape, a 3 000-character id) answer like every other error.
    frameworkErrors: (error, _request, rawReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      // The option's reply type is generic over a route that does not exist yet; it is a plain reply.
      void (rawReply as unknown as FastifyReply)
        .code(tooLong ? 414 : 400)
        .send({ detail: tooLong ? 'Слишком длинный адрес запроса' : 'Некорректный адрес запроса' });
    },
    // Malformed HTTP that never becomes a request (a NUL in a header, Content-Length with Transfer-Encoding,
    // headers too large): Node would answer with its own bare page; ours is the same JSON, in Russian.
    clientErrorHandler: (error, socket) => {
      // Nothing to say on a closed socket, nor after an answer to this request has begun (a route may answer
      // before the body is in, e.g. a 400 for a missing header): a second status line would corrupt it.
      const answering = (socket as unknown as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
      if (!socket.writable || answering?.headersSent) {
        socket.destroy();
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      const [status, text, detail] =
        code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'Слишком большие заголовки запроса']
          : code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'Request Timeout', `Запрос не пришёл целиком за ${Math.round(config.requestTimeoutMs / 1000)} с: проверьте связь и отправьте ещё раз`]
            : [400, 'Bad Request', 'Некорректный HTTP-запрос'];
      const body = JSON.stringify({ detail });
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  app.decorateRequest('user', null);
  // Every route as registered, for the tests that prove each one declared and covered (tests/server/contract.test.ts).
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  installErrorHandler(app);

  const tokens = new AccessTokens(config.jwtSecret, config.accessTokenTtl);
  const refresh = new RefreshTokens(db, config.refreshTokenTtl, config.sessionCacheMs);
  const pusher = new Pusher(db, config.vapid, pushTransport);
  const changes = config.databaseUrl
    ? postgresBus(config.databaseUrl, () => app.log.warn('change feed: LISTEN connection lost; streams may miss changes'))
    : memoryBus();
  const ctx: AppContext = {
    config,
    db,
    tokens,
    refresh,
    guard: makeGuard({ db, tokens, sessions: refresh }),
    storage: storage ?? new DiskStorage(join(config.dataDir, 'files')),
    payrollCloses: startPayrollCloses(db, changes, (error) => app.log.error({ err: error }, 'payroll close failed')),
  };
  app.decorate('payrollCloses', ctx.payrollCloses);
  // The server stops once the close under way is stored or rolled back, before the change feed's bus closes.
  app.addHook('preClose', async () => ctx.payrollCloses.close());
  const waitAlerts = startWaitAlertJob(db, changes, { timer: config.waitAlertJob !== false });
  app.decorate('waitAlerts', waitAlerts);
  app.addHook('onClose', async () => waitAlerts.close());

  // Security headers on every answer (nosniff, frame and referrer policy, cross-origin isolation of resources).
  // No page-wide Content-Security-Policy: the PWA's workers, blob: photo previews and the optional OnlyOffice
  // frame would each need holes in it; stored files (photos, exports) get their own strict one where served.
  installSecurityHeaders(app, { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });

  await app.register(
    async (api) => {
      // First: its hooks see every write route registered after it.
      installChangeFeed(api, ctx, changes, config.eventsHeartbeatMs, (facts, before) => pushAfterWrite(db, pusher, facts, before));
      installHistory(api, db);
      for (const register of routeModules) await register(api, ctx);
      // Last of the onSend hooks: the feed and the history above read the answer as JSON text first.
      installJsonCompression(api);
      api.setNotFoundHandler((request, reply) =>
        reply.status(404).send({ detail: `Нет такого адреса API: ${request.method} ${request.url}` }),
      );
    },
    { prefix: '/api' },
  );

  const hasDist = existsSync(join(config.distDir, 'index.html'));
  if (hasDist) {
    // wildcard: files are looked up per request, so a rebuilt dist/ is served without a restart.
    // preCompressed: the build wrote .br/.gz beside each text file (scripts/precompress.ts); the one the
    // browser accepts is sent with Content-Encoding and Vary: Accept-Encoding, else the file itself.
    await app.register(fastifyStatic, {
      root: config.distDir,
      wildcard: true,
      index: false,
      preCompressed: true,
      setHeaders(res, path) {
        // Hashed assets never change; the service worker and the page must never be served stale.
        if (path.includes(`${sep}assets${sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else res.header('cache-control', 'no-cache');
      },
    });
    app.get('/', (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  installCustomerPage(app, ctx, hasDist);
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
