/**
 * One rule for whole numbers in paths and queries (contract/fields.ts): digits only, no sign, spaces, point,
 * exponent, hex or leading zero, and in range — never coerced. Walked over the route table, so a call added
 * tomorrow with a numeric path or query parameter is covered the day it is declared: every path id (a `:name`
 * without a `params` schema), every `wireInt`/`wireId` field of a `params` or `query` schema, each sent
 * '0x1', '1e0', '+1', '1.0', '01', ' 1' and one past its range, answers 400 naming the parameter.
 *
 * Validation runs before any handler reads the database, so one backend (SQLite) decides it.
 */
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { ALL_CALLS } from '../../contract/calls/index.ts';
import { keyOf, type CallDecl } from '../../contract/call.ts';
import { wireNumbers } from '../../contract/fields.ts';
import type { Role } from '../../contract/roles.ts';
import type { TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';

const BAD = ['0x1', '1e0', '+1', '1.0', '01', ' 1'];

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The schema under optional/default/nullable wrappers. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let def = defOf(current); def && ['optional', 'default', 'nullable', 'prefault'].includes(def.type); def = defOf(current)) current = def.innerType;
  return current;
}

/** A query or params schema's top-level fields (through intersections and refinements). */
function fieldsOf(schema: unknown): Map<string, ZodType> {
  const def = defOf(schema);
  const fields = new Map<string, ZodType>();
  if (!def) return fields;
  if (def.type === 'object') for (const [name, field] of Object.entries(def.shape as Record<string, ZodType>)) fields.set(name, field);
  if (def.type === 'intersection') for (const side of [def.left, def.right]) fieldsOf(side).forEach((field, name) => fields.set(name, field));
  if (def.type === 'pipe') fieldsOf(def.in).forEach((field, name) => fields.set(name, field));
  return fields;
}

/** Every schema node under a schema, to find a `z.coerce` anywhere in it. */
function* nodes(schema: unknown, seen = new Set<unknown>()): Generator<Def> {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  yield def;
  for (const value of Object.values(def)) {
    if (Array.isArray(value)) for (const item of value) yield* nodes(item, seen);
    else if (value && typeof value === 'object' && '_zod' in value) yield* nodes(value, seen);
    else if (def.type === 'object' && value && typeof value === 'object') for (const field of Object.values(value)) yield* nodes(field, seen);
  }
}

const SAMPLES = ['2026-11-20', '2026-11', 'task', 'cargo', 'x'.repeat(20), '1', 'start', 't1.xml', 'A'.repeat(43)];

/** A valid value for a required field (a number: its lowest in range but at least 1), or undefined to leave it out. */
function sample(field: ZodType): string | undefined {
  if (field.safeParse(undefined).success) return undefined;
  const range = wireNumbers.get(unwrap(field) as ZodType);
  if (range) return String(Math.max(range.min, 1));
  const found = SAMPLES.find((s) => field.safeParse(s).success);
  if (found === undefined) throw new Error(`no sample value fits a required field: add one to SAMPLES`);
  return found;
}

interface Case {
  key: string;
  call: CallDecl;
  where: 'path' | 'query';
  name: string;
  /** The highest accepted value, to send one past it. */
  max: number;
}

const pathNames = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);

/** Every numeric path and query parameter of the route table. */
const CASES: Case[] = ALL_CALLS.flatMap((c) => {
  const cases: Case[] = [];
  const key = keyOf(c);
  if (c.params) {
    for (const [name, field] of fieldsOf(c.params)) {
      const range = wireNumbers.get(unwrap(field) as ZodType);
      if (range) cases.push({ key, call: c, where: 'path', name, max: range.max });
    }
  } else {
    for (const name of pathNames(c.path)) cases.push({ key, call: c, where: 'path', name, max: 2_147_483_647 });
  }
  for (const [name, field] of fieldsOf(c.query)) {
    const range = wireNumbers.get(unwrap(field) as ZodType);
    if (range) cases.push({ key, call: c, where: 'query', name, max: range.max });
  }
  return cases;
});

/** The URL of a call with valid path parameters and required query fields, one of them replaced by `bad`. */
function urlOf(c: CallDecl, target: { where: 'path' | 'query'; name: string }, bad: string): string {
  const paramFields = fieldsOf(c.params);
  const path = c.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    if (target.where === 'path' && target.name === name) return encodeURIComponent(bad);
    const field = paramFields.get(name);
    return encodeURIComponent((field && sample(field)) ?? '1');
  });
  const query = new Map<string, string>();
  for (const [name, field] of fieldsOf(c.query)) {
    const value = sample(field);
    if (value !== undefined) query.set(name, value);
  }
  if (target.where === 'query') query.set(target.name, bad);
  const search = [...query].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `/api${path}${search ? `?${search}` : ''}`;
}

describe('numbers in paths and queries: one strict rule', () => {
  let server: TestServer;
  const callers = {} as Record<Role, SignedInUser>;
  serveSuite(undefined, async (s) => {
    server = s;
    const company = await makeCompany(s);
    for (const role of ['driver', 'manager', 'admin'] as const) callers[role] = await withAccessToken(s, await makeUser(s, role, company));
    callers['super-admin'] = await withAccessToken(s, await makeUser(s, 'super-admin', null));
  });

  /** Someone the guard lets through: the super-admin where allowed, else the call's first role; nobody on a public call. */
  const tokenFor = (c: CallDecl): string | null =>
    c.roles === null ? null : callers[c.roles.includes('super-admin') ? 'super-admin' : (c.roles[0] as Role)].token;

  it('no path or query schema of the route table coerces', () => {
    const coercing = ALL_CALLS.filter((c) => [c.params, c.query].some((schema) => [...nodes(schema)].some((def) => def.coerce === true))).map(keyOf);
    expect(coercing).toEqual([]);
  });

  it('the walk finds the calls the issue named, so it reads the table right', () => {
    const named = (key: string, name: string) => CASES.some((c) => c.key === key && c.name === name);
    expect(named('GET /payroll/:company_id/:month/sheet', 'company_id')).toBe(true);
    expect(named('GET /payroll/', 'company_id')).toBe(true);
    expect(named('GET /tasks/templates', 'company_id')).toBe(true);
    expect(named('GET /dispatch/board', 'company_id')).toBe(true);
    expect(named('GET /payroll/adjustments', 'company_id')).toBe(true);
    expect(named('GET /reports/', 'company_id')).toBe(true);
    expect(named('GET /reports/', 'limit')).toBe(true);
    expect(named('GET /wages/driver/:id', 'id')).toBe(true);
  });

  it.each([
    ['/payroll/0x1/2026-11/sheet', 'company_id'],
    ['/payroll/+1/2026-11/sheet', 'company_id'],
    ['/payroll/1.0/2026-11/sheet', 'company_id'],
    ['/payroll/01/2026-11/sheet', 'company_id'],
    ['/payroll/?month=2026-11&company_id=0x1', 'company_id'],
    ['/tasks/templates?company_id=0x1', 'company_id'],
    ['/dispatch/board?date=2026-11-20&company_id=0x1', 'company_id'],
    ['/payroll/adjustments?company_id=%201', 'company_id'],
    ['/reports/?company_id=1e0', 'company_id'],
  ])('the reported %s is 400 naming %s (it answered 200)', async (url, name) => {
    const res = await call(server, 'GET', `/api${url}`, { token: callers['super-admin'].token });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(`${name}: ожидается номер компании`);
  });

  it.each(CASES.map((c) => [`${c.key} ${c.where} ${c.name}`, c] as const))('%s: 0x1, 1e0, +1, 1.0, 01, " 1" and one past the range are 400 naming it', async (_, c) => {
    for (const bad of [...BAD, String(c.max + 1)]) {
      const res = await call(server, c.call.method, urlOf(c.call, c, bad), { token: tokenFor(c.call) });
      expect(res.status, `${c.key} ${c.name}=${JSON.stringify(bad)}`).toBe(400);
      expect(res.body.detail, `${c.key} ${c.name}=${JSON.stringify(bad)}`).toMatch(new RegExp(`^${c.name}: [а-яё]`));
    }
  });

  it('the plain digits still pass: the same reads with a valid number are not refused for that parameter', async () => {
    // Reads only: a write with valid parameters would run (and change what the cases above run against).
    for (const c of CASES.filter((c) => c.call.method === 'GET')) {
      const token = tokenFor(c.call);
      // Raw: a read may answer a file (the payroll sheet).
      const res = await server.app.inject({ method: 'GET', url: urlOf(c.call, c, '1'), headers: token ? { authorization: `Bearer ${token}` } : {} });
      const detail = String(res.headers['content-type']).startsWith('application/json') ? ((res.json() as { detail?: string }).detail ?? '') : '';
      expect(detail.startsWith(`${c.name}:`), `${c.key} ${c.name}=1: ${res.statusCode} ${detail}`).toBe(false);
    }
  });
});
