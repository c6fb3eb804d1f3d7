/**
 * The live change feed: GET /api/events/ is a server-sent event stream, authenticated like every
 * call (the engine reads it with fetch, so the bearer header travels). Each successful write of a tracked route
 * becomes one small event — `data: {"path": "/tasks/12/"}`, what to refetch — told to the streams whose user
 * may hear of it (audience.ts), on every instance (bus.ts).
 *
 * - `id:` is `<instance>.<seq>`. A reconnect with Last-Event-ID gets what it missed from this instance's
 *   memory of the last 1 000 changes; an id it cannot place (another instance, a restart, too old) gets
 *   `event: reset` — refetch everything on screen.
 * - A comment line every `heartbeatMs` keeps proxies from closing the stream and lets the client see that it
 *   is alive; at each one the session is checked again, so a logout or deactivation ends the stream, and so
 *   does the token's expiry (the client reconnects with a fresh one, losing nothing).
 * - A graceful stop ends every stream first (it would otherwise hold the process for its 10 s).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { authenticate, type AuthUser } from '../auth/guard.ts';
import { eventCalls } from '../../contract/calls/events.ts';
import { registerArea } from '../routes/define.ts';
import { audienceOf, field, hears, mergeAudiences, num, tracked, type Audience, type WriteFacts } from './audience.ts';
import type { Change, ChangeBus } from './bus.ts';
import { alertChange, alertsAfterWrite } from './alerts.ts';

const KEPT = 1_000;

interface Pending {
  before: Audience | null;
  answer: string | null;
}

interface Stream {
  user: AuthUser;
  send(text: string): void;
  end(): void;
}

function routeOf(request: FastifyRequest): string {
  return (request.routeOptions.url ?? '').replace(/^\/api/, '');
}

function factsOf(request: FastifyRequest, answer: unknown): WriteFacts {
  return {
    method: request.method,
    route: routeOf(request),
    params: (request.params ?? {}) as Record<string, string>,
    body: request.body,
    caller: request.user ?? null,
    answer,
  };
}

/** Also told of each successful tracked write, with what was read before it (push notifications). */
export type AfterWrite = (facts: WriteFacts, before: Audience | null) => Promise<void>;

/** The user whose company, role or activity a write may have changed (their streams must end), or null. */
function accountChanged(facts: WriteFacts): number | null {
  const key = `${facts.method} ${facts.route}`;
  if (key === 'PUT /users/:id/' || key === 'PUT /users/drivers/:id/' || key === 'DELETE /users/drivers/:id/') return num(facts.params.id);
  if (key === 'POST /companies/:id/users/') return num(field(facts.body, 'user_id'));
  return null;
}

export function installChangeFeed(api: FastifyInstance, ctx: AppContext, bus: ChangeBus, heartbeatMs: number, afterWrite?: AfterWrite): void {
  const instance = randomBytes(4).toString('hex');
  let seq = 0;
  const recent: { seq: number; change: Change }[] = [];
  const streams = new Set<Stream>();
  const pending = new WeakMap<FastifyRequest, Pending>();

  const format = (n: number, change: Change) =>
    change.alert
      ? `id: ${instance}.${n}\nevent: alert\ndata: ${JSON.stringify(change.alert)}\n\n`
      : `id: ${instance}.${n}\ndata: ${JSON.stringify({ path: change.path, method: change.method })}\n\n`;

  const unsubscribe = bus.subscribe((change) => {
    // A user's account changed (company, role, activity): their streams end at once, on every instance.
    if (change.endStreamsOf !== undefined) {
      for (const stream of [...streams]) if (stream.user.id === change.endStreamsOf) stream.end();
      return;
    }
    seq += 1;
    recent.push({ seq, change });
    if (recent.length > KEPT) recent.shift();
    for (const stream of streams) if (hears(stream.user, change.audience)) stream.send(format(seq, change));
  });

  // The writes: what they were about before, what they made after, told once they succeeded.
  api.addHook('preHandler', async (request) => {
    if (!tracked(request.method, routeOf(request))) return;
    const before = await audienceOf(ctx.db, factsOf(request, undefined)).catch(() => null);
    pending.set(request, { before, answer: null });
  });
  api.addHook('onSend', async (request, reply, payload) => {
    const entry = pending.get(request);
    if (entry && reply.statusCode < 300 && typeof payload === 'string') entry.answer = payload;
    return payload;
  });
  api.addHook('onResponse', async (request, reply) => {
    const entry = pending.get(request);
    if (!entry || reply.statusCode >= 300) return;
    let answer: unknown;
    try {
      answer = entry.answer ? JSON.parse(entry.answer) : null;
    } catch {
      answer = null;
    }
    const facts = factsOf(request, answer);
    if (afterWrite) void afterWrite(facts, entry.before).catch((error: unknown) => request.log.error({ err: error }, 'after a write'));
    try {
      const after = await audienceOf(ctx.db, facts);
      const audience = mergeAudiences(entry.before, after);
      const path = request.url.split('?')[0]!.replace(/^\/api/, '');
      bus.publish({ path, method: request.method, audience });
    } catch (error) {
      request.log.error({ err: error }, 'change feed: audience failed');
    }
    const account = accountChanged(facts);
    if (account !== null) bus.publish({ path: '', audience: { staffOf: [], driversOf: [], users: [] }, endStreamsOf: account });
    try {
      for (const addressed of await alertsAfterWrite(ctx.db, { ...facts, status: reply.statusCode })) {
        bus.publish(alertChange(addressed));
      }
    } catch (error) {
      request.log.error({ err: error }, 'change feed: alert failed');
    }
  });

  // The stream takes the reply over (hijack): registerCall sends nothing after it.
  registerArea(api, ctx, eventCalls, {
    'GET /events/': ({ user, request, reply }) => {
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
        'x-content-type-options': 'nosniff',
        // Not reused after the stream: when it ends (a logout, a graceful stop) the socket goes with it, so a
        // stopping server never waits on a kept-alive connection.
        connection: 'close',
      });
      res.write('retry: 3000\n\n');

      // What this stream missed since Last-Event-ID, if this instance can tell; else: refetch everything.
      const last = request.headers['last-event-id'];
      if (typeof last === 'string' && last !== '') {
        const [from, n] = last.split('.');
        const since = Number(n);
        const oldest = recent[0]?.seq ?? seq + 1;
        if (from === instance && Number.isInteger(since) && since >= oldest - 1 && since <= seq) {
          for (const r of recent) if (r.seq > since && hears(user, r.change.audience)) res.write(format(r.seq, r.change));
        } else {
          res.write(`id: ${instance}.${seq}\nevent: reset\ndata: {}\n\n`);
        }
      }
      res.write(`id: ${instance}.${seq}\nevent: ready\ndata: {}\n\n`);

      let ended = false;
      const stream: Stream = {
        user,
        send: (text) => void res.write(text),
        end() {
          if (ended) return;
          ended = true;
          clearInterval(beat);
          streams.delete(stream);
          res.end();
        },
      };
      const beat = setInterval(() => {
        res.write(': ping\n\n');
        void authenticate(request, { db: ctx.db, tokens: ctx.tokens, sessions: ctx.refresh })
          .then((still) => {
            // Who hears what depends on the company and the role: a user moved to another company, or with another
            // role, reconnects to be heard as they are now.
            if (!still || still.company_id !== user.company_id || still.role !== user.role) stream.end();
          })
          .catch(() => undefined);
      }, heartbeatMs);
      // At most so many streams per user on this instance: a script opening hundreds is cut down, oldest first (an
      // honest browser holds one per engine; docs/hardening.md).
      const mine = [...streams].filter((other) => other.user.id === user.id);
      for (const oldest of mine.slice(0, Math.max(0, mine.length + 1 - ctx.config.eventStreamsPerUser))) oldest.end();
      streams.add(stream);
      res.on('close', () => stream.end());
      res.on('error', () => stream.end());
      return undefined;
    },
  });

  api.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.end();
  });
  api.addHook('onClose', async () => {
    unsubscribe();
    await bus.close();
  });
}
