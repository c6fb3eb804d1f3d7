/** The menu entry a page belongs to (src/app/nav.ts `menuPathFor`): a task's page is not «Создать задачу». */
import { describe, expect, it } from 'vitest';
import { menuPathFor, sidebarFor } from '../../src/app/nav.ts';

describe('menu highlight', () => {
  it('a task\'s page highlights «Управление задачами»; the empty form «Создать задачу»', () => {
    expect(menuPathFor('/tasks/create', '?id=10')).toBe('/tasks/manage');
    expect(menuPathFor('/tasks/create', 'id=10')).toBe('/tasks/manage');
    expect(menuPathFor('/tasks/create', '')).toBe('/tasks/create');
  });

  it('a report\'s page highlights «Отчёты»; every menu entry highlights itself', () => {
    expect(menuPathFor('/reports/7', '')).toBe('/reports');
    for (const entry of sidebarFor('admin')) expect(menuPathFor(entry.path, '')).toBe(entry.path);
  });
});
