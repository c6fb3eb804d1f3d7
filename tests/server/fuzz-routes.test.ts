/**
 * Every registered API route, fuzzed: the route list is the app's own (`registeredRoutes`, as in
 * contract.test.ts), never written by hand, so a new route is walked the day it is registered. Each route is
 * called by the callers allowed there with malformed path ids, malformed bodies and content types, and garbage
 * query values; whatever it answers must be below 500, and a 4xx must carry a Russian `detail`.
 *
 * Path parameters other than the one being spoiled point at real objects of a fresh company, so a handler that
 * loads its object before reading the body is still driven into its validation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { ALL_CALLS, callFor } from '../../contract/calls/index.ts';
import type { CallDecl } from '../../contract/call.ts';
import type { Role } from '../../contract/roles.ts';
import * as alertsContract from '../../contract/alerts.ts';
import * as announcementsContract from '../../contract/announcements.ts';
import * as driverContract from '../../contract/driver.ts';
import * as entitiesContract from '../../contract/entities.ts';
import * as exportsContract from '../../contract/exports.ts';
import * as payloadsContract from '../../contract/payloads.ts';
import * as reportChecksContract from '../../contract/report-checks.ts';
import * as transfersContract from '../../contract/transfers.ts';
import * as wagesContract from '../../contract/wages.ts';
import { nowIso } from '../../server/db/connect.ts';
import { addVehicle } from '../../server/users/accounts.ts';
import type { RegisteredRoute } from '../../server/app.ts';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday, pendingTransfer } from '../fixtures/tasks.ts';
import { encodeForm, reportForm } from '../fixtures/forms.ts';
import { JPEG_8x6 } from '../fixtures/images.ts';

/**
 * Not walked: the change feed's stream answers only when it ends, so an allowed caller would hang the walk
 * (tests/server/events.test.ts covers its refusals).
 */
const SKIPPED = ['GET /api/events/'];

const BAD_IDS = ['abc', '-1', '0', '1.5', '2147483648', '99999999999999999999', '%00', 'x'.repeat(300), '0x10', '1e3', '%20', '%2e%2e'];
const CYRILLIC = /[А-Яа-яЁё]/;

type Caller = 'anon' | 'driver' | 'manager' | 'admin' | 'super';
const ROLE_CALLER: Record<Role, Caller> = { driver: 'driver', manager: 'manager', admin: 'admin', 'super-admin': 'super' };

// ── Field names and their kinds, read from the contract's zod schemas ──

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'other';

/** The top-level fields of a schema (through optional, default, pipe, union…) with the kind each expects. */
function fieldsOf(schema: unknown, depth = 0): Map<string, Kind> {
  const fields = new Map<string, Kind>();
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 8) return fields;
  const merge = (inner: unknown) => fieldsOf(inner, depth + 1).forEach((kind, name) => fields.has(name) || fields.set(name, kind));
  switch (def.type) {
    case 'object':
      for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) fields.set(name, kindOf(field));
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      merge(def.innerType);
      break;
    case 'pipe':
      merge(def.in);
      break;
    case 'union':
      for (const option of def.options as unknown[]) merge(option);
      break;
    case 'intersection':
      merge(def.left);
      merge(def.right);
      break;
    case 'lazy':
      merge((def.getter as () => unknown)());
      break;
  }
  return fields;
}

function kindOf(schema: unknown, depth = 0): Kind {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 8) return 'other';
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'literal':
    case 'template_literal':
      return 'string';
    case 'number':
    case 'int':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
    case 'tuple':
    case 'set':
      return 'array';
    case 'object':
    case 'record':
    case 'map':
      return 'object';
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return kindOf(def.innerType, depth + 1);
    case 'pipe':
      return kindOf(def.in, depth + 1);
    case 'union':
      return kindOf((def.options as unknown[])[0], depth + 1);
    default:
      return 'other';
  }
}

const DEEP = { a: { b: { c: { d: { e: { f: { g: [{ h: {} }] } } } } } } };

/** A value of the wrong type for a field expecting `kind`. */
const WRONG: Record<Kind, unknown> = {
  string: 12345,
  number: 'abc',
  boolean: 'да',
  array: DEEP,
  object: 'x',
  other: DEEP,
};

type Twist = 'missing ids' | 'ids past int4' | 'huge numbers' | 'negative numbers' | 'fractions' | 'long strings' | 'odd dates';

const STRING_SAMPLES = ['2026-09-01', '2026-09', '08:00', '+79990000000', 'fuzz@test.local', 'Тест'];

/**
 * A body that passes the schema's types (as far as names and formats tell) with one twist on its values: what a
 * handler gets past validation, where a missing foreign key or an overflowing number would surface as a 500.
 */
function plausible(schema: unknown, name: string, twist: Twist, depth = 0): unknown {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 6) return null;
  const next = (inner: unknown, innerName = name) => plausible(inner, innerName, twist, depth + 1);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([key, field]) => [key, next(field, key)]));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return next(def.innerType);
    case 'pipe':
      return next(def.in);
    case 'lazy':
      return next((def.getter as () => unknown)());
    case 'union':
      return next((def.options as unknown[])[0]);
    case 'intersection':
      return { ...(next(def.left) as object), ...(next(def.right) as object) };
    case 'array':
      return [next(def.element)];
    case 'tuple':
      return (def.items as unknown[]).map((item) => next(item));
    case 'record':
      return {};
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'boolean':
      return true;
    case 'number':
    case 'int': {
      const id = /(^|_)id$|Id$|ids$/.test(name);
      if (twist === 'missing ids') return id ? 99_999_999 : 5;
      if (twist === 'ids past int4') return 2_147_483_648;
      if (twist === 'huge numbers') return id ? 9_007_199_254_740_991 : 1e300;
      if (twist === 'negative numbers') return -1;
      if (twist === 'fractions') return 0.5;
      return 5;
    }
    case 'string': {
      if (twist === 'long strings') return 'я'.repeat(10_000);
      const patterns = ((def.checks as { _zod: { def: { pattern?: RegExp } } }[] | undefined) ?? []).map((c) => c._zod.def.pattern).filter((p): p is RegExp => p instanceof RegExp);
      if (twist === 'odd dates' && (/date|day/.test(name) || patterns.some((p) => p.test('2026-09-01')))) return '2026-02-30';
      if (twist === 'odd dates' && /month/.test(name)) return '2026-13';
      const byName = /date|day|from|to$/.test(name) ? '2026-09-01' : /month/.test(name) ? '2026-09' : /mail/.test(name) ? 'fuzz@test.local' : undefined;
      const candidates = byName ? [byName, ...STRING_SAMPLES] : STRING_SAMPLES.slice().reverse();
      return candidates.find((c) => patterns.every((p) => p.test(c))) ?? 'Тест';
    }
    default:
      return null;
  }
}

const TWISTS: Twist[] = ['missing ids', 'ids past int4', 'huge numbers', 'negative numbers', 'fractions', 'long strings', 'odd dates'];

/** A stand-in schema per kind, for the body of a route registered by hand. */
const KIND_SCHEMA: Record<Kind, ZodType> = { string: z.string(), number: z.number(), boolean: z.boolean(), array: z.array(z.number()), object: z.object({}), other: z.string() };

const zodSchemas = (module: Record<string, unknown>): ZodType[] => Object.values(module).filter((v): v is ZodType => v instanceof z.ZodType);

/** Every field any contract schema names: the body of a route registered by hand is fuzzed with all of them. */
const CONTRACT_FIELDS = (() => {
  const all = new Map<string, Kind>();
  const schemas = [
    ...ALL_CALLS.flatMap((c) => [c.body, c.query]),
    ...[alertsContract, announcementsContract, driverContract, entitiesContract, exportsContract, payloadsContract, reportChecksContract, transfersContract, wagesContract].flatMap(
      (m) => zodSchemas(m as Record<string, unknown>),
    ),
  ];
  for (const schema of schemas) fieldsOf(schema).forEach((kind, name) => all.has(name) || all.set(name, kind));
  // The sign-in and sign-up bodies of the auth routes, registered by hand.
  for (const name of ['username', 'password', 'device_id', 'refresh', 'refresh_token', 'email', 'name', 'phone', 'company_id', 'role', 'message', 'stack', 'url'])
    if (!all.has(name)) all.set(name, name === 'company_id' ? 'number' : 'string');
  return all;
})();

/** Query keys the app reads, for garbage values: the declared ones, and every contract field for the rest. */
const QUERY_KEYS = [
  ...new Set([
    ...ALL_CALLS.flatMap((c) => [...fieldsOf(c.query).keys()]),
    ...[driverContract, exportsContract].flatMap((m) => zodSchemas(m as Record<string, unknown>)).flatMap((s) => [...fieldsOf(s).keys()]),
    'limit',
    'offset',
    'page',
    'date',
    'ids',
    'mode',
    'photo_id',
    'include_inactive',
    'q',
    'role',
    'file',
    'token',
  ]),
];

// ── A fresh company per route, with an object behind every kind of path id ──

interface Place {
  company: number;
  users: Record<Exclude<Caller, 'anon'>, SignedInUser>;
  ids: Record<string, number>;
}

/** A company with one user of each role, a task of today with its driver on it, and the driver's second vehicle. */
async function freshPlace(s: TestServer): Promise<Place> {
  const company = await makeCompany(s);
  const [driver, manager, admin, superAdmin] = await Promise.all([
    makeUser(s, 'driver', company, { vehicle: 'А001АА 77' }).then((u) => withAccessToken(s, u)),
    makeUser(s, 'manager', company).then((u) => withAccessToken(s, u)),
    makeUser(s, 'admin', company).then((u) => withAccessToken(s, u)),
    makeUser(s, 'super-admin', null).then((u) => withAccessToken(s, u)),
  ]);
  const task = await createTask(s, company, { date: dayFromToday(0) });
  const association = await addDriver(s, task, driver.id);
  const vehicle = await addVehicle(s.db.kysely, driver.id, { vehicle_number: 'В002ВВ 77', vehicle_brand: 'МАЗ', vehicle_capacity: 20 }, false);
  return {
    company,
    users: { driver, manager, admin, super: superAdmin },
    ids: { company, task, association, vehicle, driver: driver.id, manager: manager.id },
  };
}

/** The objects only some routes name, made when a route needs one. */
const MAKERS: Record<string, (s: TestServer, place: Place) => Promise<number | Record<string, number>>> = {
  async report(s, { ids, users }) {
    const { payload, headers } = await encodeForm(
      reportForm({ association_id: ids.association as number, quantity: '24.5', total_loading_quantity: '25' }, [{ data: JPEG_8x6, filename: 'a.jpg' }]),
    );
    const posted = await s.app.inject({
      method: 'POST',
      url: '/api/reports/',
      payload,
      headers: { ...headers, ...users.driver.auth, 'idempotency-key': randomUUID() },
    });
    if (posted.statusCode !== 201) throw new Error(`report fixture: ${posted.statusCode} ${posted.body}`);
    const report = posted.json() as { id: number; photos: { id: number }[] };
    return { report: report.id, photo: report.photos[0]?.id ?? 1 };
  },
  async band(s, { company }) {
    const row = await s.db.kysely
      .insertInto('progressive_rates')
      .values({ company_id: company, min_quantity: 0, max_quantity: null, rate: 450, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  },
  async transfer(s, { company, ids }) {
    const third = await makeCompany(s);
    return pendingTransfer(s, ids.task as number, company, third);
  },
  async announcement(s, { company, users }) {
    const now = nowIso();
    const announcement = await s.db.kysely
      .insertInto('announcements')
      .values({ company_id: company, author_id: users.manager.id, title: 'Объявление', body: 'Текст', requires_response: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const response = await s.db.kysely
      .insertInto('announcement_responses')
      .values({ announcement_id: announcement.id, user_id: users.driver.id, text: 'Буду', status: 'pending', created_at: now, decided_at: null, decided_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { announcement: Number(announcement.id), response: Number(response.id) };
  },
  async template(s, { company }) {
    const now = nowIso();
    const row = await s.db.kysely
      .insertInto('task_templates')
      .values({ company_id: company, name: `Шаблон ${randomUUID()}`, fields: JSON.stringify({ cargo: 'Щебень' }), created_by: null, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  },
  async exportJob(s, { users }) {
    const res = await s.app.inject({ method: 'POST', url: '/api/tasks/completed/export', headers: users.manager.auth, payload: {} });
    if (res.statusCode !== 202) throw new Error(`export fixture: ${res.statusCode} ${res.body}`);
    return (res.json() as { id: number }).id;
  },
  async registration(s, { company }) {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/registration-requests/',
      payload: { email: `r-${randomUUID().slice(0, 8)}@test.local`, password: 'password-1', name: 'Заявитель', phone: '+7 900 333-22-11', company_id: company },
    });
    if (res.statusCode !== 201) throw new Error(`registration fixture: ${res.statusCode} ${res.body}`);
    return (res.json() as { id: number }).id;
  },
};
const MADE_BY: Record<string, string> = { photo: 'report', response: 'announcement' };

/** Which object a path parameter of a route names, so a real one can be filled in beside a spoiled one. */
function paramObject(url: string, name: string): string {
  if (name === 'company_id') return 'company';
  if (name === 'driverId') return 'driver';
  if (name === 'photoId') return 'photo';
  const rules: [RegExp, string][] = [
    [/^\/api\/users\/me\/transport\//, 'vehicle'],
    [/^\/api\/users\//, 'driver'],
    [/^\/api\/registration-requests\//, 'registration'],
    [/^\/api\/companies\//, 'company'],
    [/^\/api\/tasks\/drivers\//, 'driver'],
    [/^\/api\/tasks\/templates\//, 'template'],
    [/^\/api\/tasks\/completed\/export\//, 'exportJob'],
    [/^\/api\/tasks\//, 'task'],
    [/^\/api\/reports\/association\//, 'association'],
    [/^\/api\/reports\//, 'report'],
    [/^\/api\/(wages|payroll)\/driver\//, 'driver'],
    [/^\/api\/wages\/company\//, 'company'],
    [/^\/api\/wages\/manager\//, 'manager'],
    [/^\/api\/progressive_rates\/company\//, 'company'],
    [/^\/api\/progressive_rates\//, 'band'],
    [/^\/api\/transfers\/carrier-task\//, 'task'],
    [/^\/api\/transfers\//, 'transfer'],
    [/^\/api\/announcements\/responses\//, 'response'],
    [/^\/api\/announcements\//, 'announcement'],
  ];
  return rules.find(([re]) => re.test(url))?.[1] ?? 'none';
}

/** The real values of a route's path parameters, making the objects they name. */
async function realParams(s: TestServer, url: string, place: Place): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of paramNames(url)) {
    if (name === 'month') {
      values[name] = '2026-09';
      continue;
    }
    const object = paramObject(url, name);
    const maker = MAKERS[MADE_BY[object] ?? object];
    if (place.ids[object] === undefined && maker) {
      const made = await maker(s, place);
      Object.assign(place.ids, typeof made === 'number' ? { [object]: made } : made);
    }
    values[name] = String(place.ids[object] ?? 1);
  }
  return values;
}

const paramNames = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
const fill = (url: string, values: Record<string, string>) => url.replace(/:([A-Za-z_]+)/g, (_, name: string) => values[name] ?? '1');

// ── The cases ──

interface Case {
  name: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
}

function bodyCases(fields: Map<string, Kind>, schema: unknown): { name: string; payload: string | Buffer; contentType: string }[] {
  const record = (value: (kind: Kind) => unknown) => JSON.stringify(Object.fromEntries([...fields].map(([name, kind]) => [name, value(kind)])));
  const cases = [
    { name: 'invalid JSON', payload: '{"a": 1,', contentType: 'application/json' },
    { name: 'JSON null', payload: 'null', contentType: 'application/json' },
    { name: 'JSON array', payload: '[1, "a", null, {}]', contentType: 'application/json' },
    { name: 'JSON string', payload: '"строка"', contentType: 'application/json' },
    { name: 'JSON number', payload: '42', contentType: 'application/json' },
    { name: 'JSON true', payload: 'true', contentType: 'application/json' },
    { name: 'empty JSON body', payload: '', contentType: 'application/json' },
    { name: 'wrong-typed fields', payload: record((kind) => WRONG[kind]), contentType: 'application/json' },
    { name: 'deep objects in every field', payload: record(() => DEEP), contentType: 'application/json' },
    { name: 'arrays in every field', payload: record(() => [1, 'a', null]), contentType: 'application/json' },
    { name: 'nulls in every field', payload: record(() => null), contentType: 'application/json' },
    { name: 'huge and negative numbers', payload: record((kind) => (kind === 'number' ? -1e308 : 1e308)), contentType: 'application/json' },
    { name: 'strings in every field', payload: record(() => '\u0000<script>'.padEnd(300, 'я')), contentType: 'application/json' },
    { name: 'text/plain', payload: 'hello', contentType: 'text/plain' },
    { name: 'application/xml', payload: '<a><b>1</b></a>', contentType: 'application/xml' },
    { name: 'form-urlencoded', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    { name: 'JSON with a charset Node cannot read', payload: '{}', contentType: 'application/json; charset=klingon' },
  ];
  for (const twist of TWISTS) cases.push({ name: `plausible body, ${twist}`, payload: JSON.stringify(plausible(schema, '', twist)), contentType: 'application/json' });
  const boundary = 'fuzzboundary';
  cases.push({
    name: 'multipart where JSON is expected',
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  });
  cases.push({ name: 'broken multipart', payload: `--${boundary}\r\nContent-Disposition: form-data; na`, contentType: `multipart/form-data; boundary=${boundary}` });
  cases.push({ name: 'multipart without a boundary', payload: 'x', contentType: 'multipart/form-data' });
  return cases;
}

function queryCases(keys: string[]): { name: string; query: string }[] {
  const all = (value: string) => keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(value)}`).join('&');
  return [
    ...keys.map((k) => ({ name: `?${k}=abc`, query: `${encodeURIComponent(k)}=abc` })),
    { name: 'every key -1', query: all('-1') },
    { name: 'every key 1.5e400', query: all('1.5e400') },
    { name: 'every key empty', query: all('') },
    { name: 'every key NUL', query: keys.map((k) => `${k}=%00`).join('&') },
    { name: 'every key twice', query: keys.map((k) => `${k}=1&${k}=2`).join('&') },
    { name: 'every key as an object', query: keys.map((k) => `${k}[a]=1`).join('&') },
    { name: 'every key 300 chars', query: all('9'.repeat(300)) },
    { name: 'every key a bad date', query: all('2026-13-45') },
  ];
}

function callersOf(method: string, url: string): Caller[] {
  const declared: CallDecl | undefined = callFor(method, url.slice(4));
  // A declared call names who may make it; a route registered by hand is tried by everyone.
  if (declared && declared.path === url.slice(4)) return declared.roles ? [...new Set(declared.roles.map((r) => ROLE_CALLER[r]))] : ['anon', 'driver'];
  return ['anon', 'driver', 'manager', 'admin', 'super'];
}

function casesOf(method: string, url: string, real: Record<string, string>, firstCaller: boolean): Case[] {
  const names = paramNames(url);
  const realUrl = fill(url, real);
  const missingUrl = fill(url, Object.fromEntries(names.map((n) => [n, n === 'month' ? '2026-09' : '99999'])));
  const cases: Case[] = [];
  // One spoiled parameter at a time, the others real; a body that is valid-looking enough not to mask the id.
  for (const name of names) {
    for (const bad of BAD_IDS) {
      const spoiled = bad.startsWith('%') ? bad : encodeURIComponent(bad);
      cases.push({ name: `${name}=${bad.length > 30 ? `${bad.slice(0, 5)}…(${bad.length})` : bad}`, url: fill(url, { ...real, [name]: spoiled }), ...(method === 'GET' ? {} : { payload: '{}', contentType: 'application/json' }) });
    }
  }
  if (method !== 'GET') {
    const declared = callFor(method, url.slice(4));
    const schema = declared?.body && declared.path === url.slice(4) ? declared.body : z.object(Object.fromEntries([...CONTRACT_FIELDS].map(([name, kind]) => [name, KIND_SCHEMA[kind]])));
    const fields = fieldsOf(schema);
    // A write is never pointed at a real object with a body that might pass: DELETE bodies go to a missing id.
    const target = method === 'DELETE' ? missingUrl : realUrl;
    for (const c of bodyCases(fields.size ? fields : CONTRACT_FIELDS, schema)) cases.push({ ...c, url: target });
  }
  {
    const declared = callFor(method, url.slice(4));
    const declaredKeys = declared?.query && declared.path === url.slice(4) ? [...fieldsOf(declared.query).keys()] : [];
    // A declared call without a query schema ignores the query: a few garbage keys are enough there.
    const keys = declaredKeys.length ? declaredKeys : declared?.path === url.slice(4) ? ['limit', 'page', 'date'] : QUERY_KEYS;
    const body = method === 'GET' ? {} : { payload: '{}', contentType: 'application/json' };
    for (const q of queryCases(keys)) if (firstCaller || !q.name.startsWith('?')) cases.push({ name: q.name, url: `${method === 'DELETE' ? missingUrl : realUrl}?${q.query}`, ...body });
  }
  return cases;
}

describe.each(backends)('every API route under malformed input ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  serveSuite(databaseUrl, (s) => {
    server = s;
  });

  it('answers below 500, and a 4xx with a Russian detail', { timeout: 120_000 }, async () => {
    const routes = [
      ...new Map(
        server.app.registeredRoutes
          .filter((r) => r.url.startsWith('/api/') && !['HEAD', 'OPTIONS'].includes(r.method))
          .map((r) => [`${r.method} ${r.url}`, r] as const),
      ).values(),
    ];
    const walked = routes.filter((r) => !SKIPPED.includes(`${r.method} ${r.url}`));
    expect(walked.length).toBeGreaterThan(100);
    const violations: string[] = [];
    let sent = 0;
    const send = async (route: RegisteredRoute, caller: Caller, place: Place, c: Case) => {
      const headers: Record<string, string> = {};
      if (caller !== 'anon') headers.authorization = place.users[caller].auth.authorization;
      if (c.contentType !== undefined) headers['content-type'] = c.contentType;
      if (route.method === 'POST') headers['idempotency-key'] = randomUUID();
      const res = await server.app.inject({
        method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: c.url,
        headers,
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      sent++;
      let detail: unknown;
      try {
        detail = (JSON.parse(res.body) as { detail?: unknown }).detail;
      } catch {
        detail = undefined;
      }
      const label = `${route.method} ${route.url} [${caller}] ${c.name} → ${res.statusCode}`;
      if (res.statusCode >= 500) violations.push(`${label} ${res.body.slice(0, 160)}`);
      else if (res.statusCode >= 400 && (typeof detail !== 'string' || !CYRILLIC.test(detail)))
        violations.push(`${label} without a Russian detail: ${res.body.slice(0, 160)}`);
      return { status: res.statusCode, detail };
    };
    for (const route of walked) {
      const place = await freshPlace(server);
      const real = await realParams(server, route.url, place);
      let firstCaller = true;
      for (const caller of callersOf(route.method, route.url)) {
        // Each garbage query key alone goes to the first caller let in; the others get the rest.
        const cases = casesOf(route.method, route.url, real, firstCaller);
        // The guard turns a caller away before anything is read: one request shows it, the rest would repeat it.
        const probe = cases.find((c) => c.name.startsWith('?')) ?? (cases[0] as Case);
        const first = await send(route, caller, place, probe);
        if ((first.status === 401 && first.detail === 'Требуется вход в систему') || (first.status === 403 && first.detail === 'Недостаточно прав')) continue;
        firstCaller = false;
        for (const c of cases) await send(route, caller, place, c);
      }
    }
    process.stdout.write(`fuzz: ${walked.length} routes, ${sent} requests\n`);
    expect(violations).toEqual([]);
  });
});
