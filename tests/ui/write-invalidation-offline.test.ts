/**
 * The route table's chunk may fail to load (offline before the service worker holds it): a write then still
 * invalidates by RELATED, the failure is not a rejection every later write repeats, and the next write loads it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../contract/calls/index.ts');
  vi.resetModules();
});

describe('the route table chunk that cannot load', () => {
  it('resolves without it, invalidates by the related areas, and is asked for again on the next write', async () => {
    vi.resetModules();
    let attempts = 0;
    vi.doMock('../../contract/calls/index.ts', () => {
      attempts += 1;
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const offline = await import('../../src/engine/write-invalidation.ts');
    await expect(offline.routeTableLoaded()).resolves.toBeUndefined();
    // Without the table a report's write still makes /payroll stale (RELATED).
    expect(offline.isStaleAfter(['/payroll/'], [{ path: '/reports/', method: 'POST' }])).toBe(true);
    await offline.routeTableLoaded();
    expect(attempts).toBe(2);
  });
});
