/**
 * Uncaught client errors (issue 3, section 6). Posting is public, because a page that crashed may have
 * no valid token; it is bounded instead: 64 kB per body, long fields cut, a rate limit per address and
 * a cap on the rows kept. A super-admin reads them newest first.
 */
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import type { ClientErrorEntry, Page } from '../../contract/entities.ts';
import { SUPER_ONLY } from '../../contract/roles.ts';
import { clientErrorSchema } from '../../contract/payloads.ts';
import { authenticate } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { parse, tooManyRequests } from '../errors.ts';
import { RateLimiter } from '../rate-limit.ts';

export const CLIENT_ERROR_BODY_LIMIT = 64 * 1024;
export const CLIENT_ERRORS_PER_MINUTE = 30;
/** Rows kept; older ones are pruned as new ones arrive, so a crash loop cannot fill the disk. */
const KEEP_ROWS = 10_000;

const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** navigator.sendBeacon posts text/plain; its text is the same JSON. */
function jsonOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

export const clientErrorRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const limiter = new RateLimiter(CLIENT_ERRORS_PER_MINUTE, 60_000);

  app.post('/log-client-error', { bodyLimit: CLIENT_ERROR_BODY_LIMIT }, async (request, reply) => {
    const header = request.headers['x-device-id'];
    const deviceId = typeof header === 'string' && header.trim() ? header.trim().slice(0, 100) : null;
    // Keyed by address: the device id is the client's own word, and rotating it must not lift the limit.
    if (!limiter.hit(`ip:${request.ip}`)) {
      throw tooManyRequests('Слишком много отчётов об ошибках, попробуйте позже');
    }
    const body = parse(clientErrorSchema, jsonOf(request.body));
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
    return reply.status(201).send({ id });
  });

  app.get('/client-errors/', { preHandler: ctx.guard(SUPER_ONLY) }, async (request): Promise<Page<ClientErrorEntry>> => {
    const { limit, offset } = parse(pageQuery, request.query);
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
  });
};
