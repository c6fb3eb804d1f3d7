/**
 * How an HTTP call is declared once (docs/route-table.md). A declaration names the method
 * and path, who may call it, the zod schemas of its query and body, its answer type, what it makes stale in the
 * client's cache and who hears of it on the change feed. From it:
 * - the server registers the route (guard, validation, status) around a handler typed by it (server/routes/define.ts);
 * - the UI calls it by key, its parameters and answer typed end to end (src/engine/api.ts);
 * - the engine knows which cached areas a write invalidates; the change feed, who to tell; the RBAC test, what to cover.
 *
 * Keys are `METHOD /path` with `:name` path parameters, as Fastify registers them: `'PUT /companies/:id'`.
 */
import type { z } from 'zod';
import type { Role } from './roles.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type WriteMethod = Exclude<Method, 'GET'>;

/**
 * A cache area: the first segment of an API path. A client query belongs to the area of its path, and a write
 * names the areas whose queries it makes stale.
 */
export type Area =
  | 'auth'
  | 'users'
  | 'tasks'
  | 'reports'
  | 'companies'
  | 'transfers'
  | 'announcements'
  | 'wages'
  | 'progressive_rates'
  | 'registration-requests'
  | 'push'
  | 'client-errors'
  | 'onlyoffice'
  | 'audit'
  | 'payroll'
  | 'dispatch'
  | 'counterparties'
  | 'places'
  | 'vehicles'
  | 'trip-sheets'
  | 'price-lists'
  | 'trips'
  | 'invoices'
  | 'customer-links'
  | 'etrn'
  | 'documents'
  | 'c';

/**
 * Where pay shows: the statistics (`wages`) and the month's payroll (`payroll`). Every write that changes a load
 * (filing, edits, review), a rate, a task's money or an adjustment names both, so no screen of pay stays stale; so
 * does every write about the people and companies pay names (a rename, a move between companies, a deactivation).
 */
export const PAY = ['wages', 'payroll'] as const satisfies readonly Area[];

/**
 * Who hears of a write on the change feed, resolved on the server from the database (server/events/audience.ts):
 * `kind:where.name` reads an id from the path (`param`), the request body (`body`) or the answer (`answer`) and
 * asks the kind's resolver, before the write and after it; `caller` is the caller and their company's staff.
 */
export type AudienceKind =
  /** The task's company staff (and both sides of its transfers), its drivers, and the company's drivers while it is open. */
  | 'task'
  /** The task a report (by id) belongs to, as `task`. */
  | 'report-task'
  /** The task an association (by id) belongs to, as `task`. */
  | 'association-task'
  /** The user and their company's staff. */
  | 'user'
  /** Staff of the company (by id). */
  | 'company-staff'
  /** Staff and drivers of the company (by id). */
  | 'company'
  /** Both companies of a transfer and its tasks. */
  | 'transfer'
  /** Whom an announcement is for. */
  | 'announcement'
  /** Staff of the company an announcement (by id) is for; nobody for an all-company one. */
  | 'announcement-staff'
  /** Staff of the company whose progressive-rate band (by id) it is. */
  | 'rate-band';
export type AudienceRef = 'caller' | 'caller-only' | `${AudienceKind}:${'param' | 'body' | 'answer'}.${string}`;

/** Carries an answer type in a declaration without a runtime value. */
export interface Answer<T> {
  readonly __answer?: T;
}
export const answer = <T>(): Answer<T> => ({});

/** `null`: anyone, signed in or not. */
export type Roles = readonly Role[] | null;

export interface CallDecl {
  method: Method;
  path: string;
  roles: Roles;
  /** Path parameters that are not all ids (e.g. a month): their schema; left out, every `:name` is an id. */
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Bytes a request body may have, beyond the server's default 1 MB (an uploaded file). */
  bodyLimit?: number;
  /** The success status; 200 by default. A 202: accepted, done later (an export job). A 204 answers no body. */
  status?: 200 | 201 | 202 | 204;
  answer: Answer<unknown>;
  /** Writes: the cached areas to refetch besides the call's own. */
  invalidates?: readonly Area[];
  /** Writes: who hears of it on the change feed; left out, nobody (auth, exports, client errors). */
  audience?: readonly AudienceRef[];
}

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of a path: every `:name` is a positive integer id. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: number };

/** A call's path parameters as its handler gets them: its `params` schema's output, else ids. */
export type ParamsOf<C extends CallDecl> = C['params'] extends z.ZodType ? z.output<C['params']> : PathParams<C['path']>;
/** A call's path parameters as a client fills them in. */
export type ParamsIn<C extends CallDecl> = C['params'] extends z.ZodType ? z.input<C['params']> & Record<string, unknown> : PathParams<C['path']>;

export type AnswerOf<C extends CallDecl> = C['answer'] extends Answer<infer T> ? T : never;
export type QueryOf<C extends CallDecl> = C['query'] extends z.ZodType ? z.output<C['query']> : Record<never, never>;
/** A body as the client sends it (the schema's input: what JSON carries). */
export type BodyOf<C extends CallDecl> = C['body'] extends z.ZodType ? z.input<C['body']> : undefined;
/** A body as the server's handler gets it, validated. */
export type ParsedBodyOf<C extends CallDecl> = C['body'] extends z.ZodType ? z.output<C['body']> : undefined;

type Declared<M extends Method, P extends string, D> = D & { method: M; path: P };
type Options = Omit<CallDecl, 'method' | 'path'>;

function declare<M extends Method>(method: M) {
  return <const P extends string, const D extends Options>(path: P, decl: D): Declared<M, P, D> => ({ ...decl, method, path });
}
export const GET = declare('GET');
export const POST = declare('POST');
export const PUT = declare('PUT');
export const DELETE = declare('DELETE');

/** An area's calls keyed by `METHOD /path`. */
export type Keyed<T extends readonly CallDecl[]> = { [C in T[number] as `${C['method']} ${C['path']}`]: C };

export function keyOf(call: Pick<CallDecl, 'method' | 'path'>): string {
  return `${call.method} ${call.path}`;
}

/** Joins an area's declarations into its table. */
export function area<const T extends readonly CallDecl[]>(...calls: T): Keyed<T> {
  return Object.fromEntries(calls.map((c) => [keyOf(c), c])) as Keyed<T>;
}

/** A path's parameters filled in: `/companies/:id` with {id: 5} → `/companies/5`. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/** Whether a concrete path (no /api prefix, with or without the trailing slash) is an instance of a declared one. */
export function pathMatches(declared: string, concrete: string): boolean {
  const pattern = declared
    .replace(/\/$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}/?$`).test(concrete.split('?')[0] ?? '');
}
