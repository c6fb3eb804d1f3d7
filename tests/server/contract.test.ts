/**
 * The route table (contract/calls) against the app: every declared call is registered as declared, a route
 * registered beside the table is only one of those not moved yet (the list below shrinks, never grows), and the
 * declarations' change-feed audiences and cache areas are well-formed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CALLS, callFor, CALLS, keyOf } from '../../contract/calls/index.ts';
import { fillPath, pathMatches } from '../../contract/call.ts';
import { UNDECLARED_AUDIENCES } from '../../server/events/audience.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';

/** Routes registered by hand, not yet moved onto the route table. A new route is declared: never add here. */
const NOT_YET_DECLARED: string[] = [
];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const registered = () => [...new Set(server.app.registeredRoutes.filter((r) => r.url.startsWith('/api/')).map((r) => `${r.method} ${r.url.slice(4)}`))];

describe('the route table', () => {
  it('every declared call is registered, under its key', () => {
    const routes = registered();
    expect(Object.keys(CALLS).filter((key) => !routes.includes(key))).toEqual([]);
    for (const [key, call] of Object.entries(CALLS)) expect(keyOf(call)).toBe(key);
  });

  it('a route registered beside the table is one not moved yet', () => {
    const declared = new Set(Object.keys(CALLS));
    const beside = registered().filter((key) => !declared.has(key));
    expect(beside.filter((key) => !NOT_YET_DECLARED.includes(key))).toEqual([]);
    // A route moved onto the table leaves the list.
    expect(NOT_YET_DECLARED.filter((key) => declared.has(key))).toEqual([]);
    console.info(`route table: ${declared.size} calls declared, ${beside.length} still registered by hand`);
  });

  it('a write names its audience in one place: the table or the feed, never both', () => {
    const declaredWithAudience = ALL_CALLS.filter((c) => c.audience).map(keyOf);
    expect(declaredWithAudience.filter((key) => UNDECLARED_AUDIENCES.includes(key))).toEqual([]);
    for (const call of ALL_CALLS) {
      if (call.method === 'GET') expect(call.audience ?? []).toEqual([]);
      for (const ref of call.audience ?? []) {
        const param = /^[a-z-]+:param\.(\w+)$/.exec(ref)?.[1];
        if (param) expect(call.path).toContain(`:${param}`);
      }
    }
  });

  it('finds the declaration of a concrete path, a literal segment before a parameter', () => {
    expect(callFor('PUT', '/companies/5')?.path).toBe('/companies/:id');
    expect(callFor('PUT', 'companies/5/')?.path).toBe('/companies/:id');
    expect(callFor('POST', '/api/companies/7/users/')?.path).toBe('/companies/:id/users/');
    expect(callFor('GET', '/companies/')?.path).toBe('/companies/');
    expect(callFor('GET', '/companies/5/users/')).toBeUndefined();
    expect(pathMatches('/tasks/:id/', '/tasks/active/')).toBe(true);
    expect(fillPath('/companies/:id/users/', { id: 12 })).toBe('/companies/12/users/');
    expect(() => fillPath('/companies/:id', {})).toThrow();
  });
});
