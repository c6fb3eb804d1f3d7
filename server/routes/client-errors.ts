/**
 * Uncaught client errors (docs/product.md §7, "Client errors"). Posting is public, because a page that crashed may have
 * no valid token; it is bounded instead: 64 kB per body, long fields cut, a rate limit per address and
 * a cap on the rows kept. A super-admin reads them newest first.
 */
import type { RouteModule } from '../context.ts';
import { clientErrorCalls } from '../../contract/calls/client-errors.ts';
import { authenticate } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { tooManyRequests } from '../errors.ts';
import { RateLimiter } from '../rate-limit.ts';
import { registerArea } from './define.ts';

export const CLIENT_ERRORS_PER_MINUTE = 30;
/** Rows kept; older ones are pruned as new ones arrive, so a crash loop cannot fill the disk. */
const KEEP_ROWS = 10_000;

export const clientErrorRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const limiter = new RateLimiter(CLIENT_ERRORS_PER_MINUTE, 60_000);

  registerArea(app, ctx, clientErrorCalls, {
    'POST /log-client-error': async ({ body, request }) => {
      const header = request.headers['x-device-id'];
      const deviceId = typeof header === 'string' && header.trim() ? header.trim().slice(0, 100) : null;
      // Keyed by address: the device id is the client's own word, and rotating it must not lift the limit.
      if (!limiter.hit(`ip:${request.ip}`)) {
        throw tooManyRequests('Слишком много отчётов об ошибках, попробуйте позже');
      }
      const user = await authenticate(request, { db, tokens: ctx.tokens, sessions: ctx.refresh });
      const { id } = await db.kysely
        .insertInto('client_errors')
        .values({
          user_id: user?.id ?? null,
          device_id: deviceId ?? user?.device_id ?? null,
          message: body.message,
          stack: body.stack ?? null,
          source: body.source ?? null,
          lineno: body.lineno ?? null,
          colno: body.colno ?? null,
          user_agent: body.userAgent ?? request.headers['user-agent']?.slice(0, 500) ?? null,
          url: body.url ?? null,
          time: body.time ?? null,
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (id % 100 === 0) await db.kysely.deleteFrom('client_errors').where('id', '<=', id - KEEP_ROWS).execute();
      return { id };
    },

    'GET /client-errors/': async ({ query: { limit, offset } }) => {
      const items = await db.kysely
        .selectFrom('client_errors')
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const { total } = await db.kysely
        .selectFrom('client_errors')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .executeTakeFirstOrThrow();
      const count = Number(total);
      return { items, next_offset: offset + items.length < count ? offset + items.length : null, total: count };
    },
  });
};
