import { describe, expect, it } from 'vitest';
import { areaOf, isStaleAfter, routeTableLoaded } from '../../src/engine/write-invalidation.ts';
import { CALLS } from '../../contract/calls/index.ts';
import type { CallDecl } from '../../contract/call.ts';

describe('which queries a write makes stale', () => {
  it('reads the area from every path form', () => {
    expect(areaOf('/tasks/5/')).toBe('tasks');
    expect(areaOf('tasks/5/')).toBe('tasks');
    expect(areaOf('/api/reports/3')).toBe('reports');
    expect(areaOf('/tasks/completed/?status=all')).toBe('tasks');
  });

  it('a task write refreshes every task list, reports and wages, not the profile', () => {
    expect(isStaleAfter(['/tasks/completed/', { status: 'all' }], [{ path: '/tasks/5/' }])).toBe(true);
    expect(isStaleAfter(['/tasks/drivers/7/tasks', { date: '2026-11-23' }], [{ path: '/tasks/5/' }])).toBe(true);
    expect(isStaleAfter(['/reports/association/3'], [{ path: '/tasks/5/' }])).toBe(true);
    expect(isStaleAfter(['/wages/driver/7'], [{ path: '/tasks/5/' }])).toBe(true);
    expect(isStaleAfter(['/users/me/'], [{ path: '/tasks/5/' }])).toBe(false);
  });

  it('a report write refreshes tasks; a profile write does not touch tasks of other areas it does not show', () => {
    expect(isStaleAfter(['/tasks/active/'], [{ path: '/reports/3' }])).toBe(true);
    expect(isStaleAfter(['/users/me/'], [{ path: '/users/me/' }])).toBe(true);
    expect(isStaleAfter(['/companies/'], [{ path: '/users/me/' }])).toBe(false);
    expect(isStaleAfter([42], [{ path: '/tasks/' }])).toBe(false);
  });

  it('a declared write refreshes its own area and the areas its declaration names, whatever the path form', async () => {
    await routeTableLoaded();
    const rename = { method: 'PUT', path: '/companies/5' };
    expect(isStaleAfter(['/companies/'], [rename])).toBe(true);
    expect(isStaleAfter(['/users/drivers/'], [rename])).toBe(true);
    expect(isStaleAfter(['/tasks/completed/'], [rename])).toBe(false);
    const review = { method: 'POST', path: 'reports/7/review' };
    expect(isStaleAfter(['/tasks/active/'], [review])).toBe(true);
    expect(isStaleAfter(['/users/me/'], [review])).toBe(false);
  });

  it('every write that changes pay or the names it shows makes /payroll stale, as it does the statistics (issue 30: payroll on old figures)', async () => {
    await routeTableLoaded();
    const payroll = ['/payroll/', { month: '2026-11' }];
    for (const [method, path] of [
      ['POST', '/reports/review/approve-clean'],
      ['POST', '/reports/7/review'],
      ['PUT', '/reports/7'],
      ['DELETE', '/reports/7'],
      ['DELETE', '/reports/7/photo'],
      ['POST', '/reports/'],
      ['PUT', '/tasks/5/'],
      ['POST', '/dispatch/move'],
      ['PUT', '/progressive_rates/3'],
      ['POST', '/payroll/adjustments'],
      ['POST', '/payroll/reopen'],
    ] as const) {
      expect(isStaleAfter(payroll, [{ method, path }]), `${method} ${path}`).toBe(true);
    }
    // The people and companies pay names: a driver renamed, moved to another company, deactivated; a company renamed.
    for (const [method, path] of [
      ['PUT', '/users/drivers/5/'],
      ['DELETE', '/users/drivers/5/'],
      ['PUT', '/users/5/'],
      ['PUT', '/users/me/'],
      ['POST', '/users/staff/'],
      ['POST', '/companies/3/users/'],
      ['PUT', '/companies/3'],
      ['DELETE', '/companies/3'],
      ['POST', '/registration-requests/4/approve'],
    ] as const) {
      expect(isStaleAfter(payroll, [{ method, path }]), `${method} ${path}`).toBe(true);
      expect(isStaleAfter(['/wages/managers/'], [{ method, path }]), `${method} ${path}`).toBe(true);
    }
    // The rule on the table itself: whatever makes the statistics stale makes the payroll stale.
    for (const [key, call] of Object.entries(CALLS as Record<string, CallDecl>)) {
      if (call.invalidates?.includes('wages')) expect(call.invalidates.includes('payroll') || areaOf(call.path) === 'payroll', key).toBe(true);
    }
  });
});
