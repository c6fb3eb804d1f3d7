/**
 * The route table (contract/calls) against the app: every declared call is registered as declared, no route is
 * registered beside the table, and the declarations' change-feed audiences and cache areas are well-formed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CALLS, callFor, CALLS, keyOf } from '../../contract/calls/index.ts';
import { fillPath, pathMatches } from '../../contract/call.ts';
import { startTestServer, type TestServer } from '../fixtures/server.ts';

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

  it('no route is registered beside the table: a new route is declared', () => {
    const declared = new Set(Object.keys(CALLS));
    expect(registered().filter((key) => !declared.has(key))).toEqual([]);
    console.info(`route table: ${declared.size} calls declared`);
  });

  it('a write names its audience in its declaration, from what its path has', () => {
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
