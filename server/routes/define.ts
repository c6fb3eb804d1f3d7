/**
 * Registers declared calls (contract/call.ts) around their handlers: the guard from the declaration's roles,
 * path ids parsed (400 naming the parameter; a declaration with a `params` schema is parsed by it), query and body validated by its schemas (400 naming the field),
 * the declared success status. A handler gets what it needs, typed from the declaration, and answers the
 * declared type; it stays in its area's module beside the queries it uses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AnswerOf, CallDecl, Keyed, ParamsOf, ParsedBodyOf, QueryOf } from '../../contract/call.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { idParam, parse } from '../errors.ts';

export interface HandlerInput<C extends CallDecl> {
  /** The caller; null only on a public call (roles: null) made without signing in. */
  user: C['roles'] extends null ? AuthUser | null : AuthUser;
  params: ParamsOf<C>;
  query: QueryOf<C>;
  body: ParsedBodyOf<C>;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Answers with another success status than the declared one (a pending answer replaced: 200 beside 201). */
  setStatus: (status: 200 | 201) => void;
}

export type Handler<C extends CallDecl> = (input: HandlerInput<C>) => Promise<AnswerOf<C>> | AnswerOf<C>;

/** One handler per declared call of an area: a call left without one is a type error. */
export type Handlers<T extends Record<string, CallDecl>> = { [K in keyof T]: Handler<T[K]> };

const paramNames = (path: string): string[] => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);

/**
 * What a call with a big body may need besides (the Excel import: server/tasks/import-runner.ts): a refusal before
 * its body is read — the guard then runs before the body too — and the body left as its raw bytes.
 */
export interface CallOptions {
  /** After the guard, before a byte of the body is read: throws to refuse the call (its body is then never parsed). */
  beforeBody?: (request: FastifyRequest) => void | Promise<void>;
  /** Once the call is answered, or the client has gone away: gives back what `beforeBody` took. */
  afterAnswer?: (request: FastifyRequest) => void;
  /**
   * A JSON body as its raw bytes (a Buffer in `request.body`; the handler's `body` is then undefined), to be parsed
   * off the request thread: nothing scans or parses it here. The handler checks it against the call's schema.
   */
  rawJsonBody?: true;
}

export function registerCall<C extends CallDecl>(app: FastifyInstance, ctx: AppContext, call: C, handler: Handler<C>, options: CallOptions = {}): void {
  const names = paramNames(call.path);
  const { beforeBody, afterAnswer, rawJsonBody } = options;
  const guard = call.roles ? [ctx.guard(call.roles)] : [];
  const after = afterAnswer ? async (request: FastifyRequest) => afterAnswer(request) : undefined;
  const route: RouteOptions = {
    method: call.method,
    url: call.path,
    ...(call.bodyLimit ? { bodyLimit: call.bodyLimit } : {}),
    ...(beforeBody ? { onRequest: [...guard, async (request: FastifyRequest) => beforeBody(request)] } : guard.length ? { preHandler: guard } : {}),
    ...(after ? { onResponse: after, onRequestAbort: after } : {}),
    handler: async (request, reply) => {
      let status = call.status ?? 200;
      const params = (call.params ? parse(call.params, request.params) : Object.fromEntries(names.map((name) => [name, idParam(request.params, name)]))) as ParamsOf<C>;
      const input = {
        user: request.user ?? null,
        params,
        query: call.query ? parse(call.query, request.query) : {},
        body: call.body && !rawJsonBody ? parse(call.body, request.body) : undefined,
        request,
        reply,
        setStatus: (chosen: 200 | 201) => {
          status = chosen;
        },
      } as HandlerInput<C>;
      const result = await handler(input);
      if (reply.sent) return reply;
      if (status === 204) return reply.status(204).send();
      return reply.status(status).send(result);
    },
  };
  if (!rawJsonBody) {
    app.route(route);
    return;
  }
  // A scope of its own: its JSON is taken as bytes, every other route's parsed as usual.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.route(route);
  });
}

/** Registers every call of an area's table with its handler. */
export function registerArea<T extends Keyed<readonly CallDecl[]>>(
  app: FastifyInstance,
  ctx: AppContext,
  calls: T,
  handlers: Handlers<T>,
  options: { [K in keyof T]?: CallOptions } = {},
): void {
  for (const key of Object.keys(calls) as (keyof T & string)[]) {
    registerCall(app, ctx, calls[key] as T[keyof T] & CallDecl, handlers[key] as Handler<CallDecl>, options[key]);
  }
}
