/**
 * The route table of write-invalidation.ts loads on the first write: made offline, that load fails. The tab's
 * screens must still refresh after every later write (issue 30's working day: a driver's trip filed offline, then
 * his screen never again followed the server — the failed load was kept and every refresh waited on it).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const TABLE = '../../contract/calls/index.ts';

afterEach(() => {
  vi.doUnmock(TABLE);
  vi.resetModules();
});

describe('the route table, loaded on the first write', () => {
  it('a failed load still lets writes refresh (by the areas that show the same facts), and loads again on the next write', async () => {
    vi.doMock(TABLE, () => {
      throw new Error('Failed to fetch dynamically imported module: /assets/calls.js');
    });
    const rule = await import('../../src/engine/write-invalidation.ts');
    await expect(rule.routeTableLoaded()).resolves.toBeUndefined();
    // A report filed: the driver's tasks refresh.
    expect(rule.isStaleAfter(['/tasks/assigned/'], [{ method: 'POST', path: '/reports/' }])).toBe(true);

    // Back online: the next write loads the table, and the declarations decide.
    vi.doUnmock(TABLE);
    await rule.routeTableLoaded();
    const { callFor } = await import('../../contract/calls/index.ts');
    const rename = { method: 'PUT', path: '/companies/5' };
    expect(rule.staleAreas(rename)).toEqual(new Set(['companies', ...(callFor(rename.method, rename.path)?.invalidates ?? [])]));
  });
});
