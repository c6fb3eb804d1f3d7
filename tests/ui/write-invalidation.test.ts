import { describe, expect, it } from 'vitest';
import { areaOf, isStaleAfter, routeTableLoaded } from '../../src/engine/write-invalidation.ts';

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
});
