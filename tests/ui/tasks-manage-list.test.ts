import { describe, expect, it } from 'vitest';
import type { Page, Task } from '../../contract/entities.ts';
import type { Params } from '../../worker/api.ts';
import { duplicateBody, filterParams, LIST_DEFAULTS, loadAllTasks, type LoadProgress } from '../../src/screens/tasks-manage/task-list.ts';

const task = (id: number): Task => ({
  id,
  company_id: 3,
  date: '2026-11-23',
  cargo: `Груз ${id}`,
  loading_place: 'Карьер',
  unloading_place: 'Склад',
  planned_quantity: 20,
  unit: 'т',
  status: 'completed',
  rate: 460,
  comment: null,
  max_drivers: 2,
  driver_associations: [
    {
      id: 100 + id,
      task_id: id,
      driver_id: 7,
      driver_name: 'Иван Петров',
      quantity: 20,
      status: 'completed',
      loading_quantity: 20,
      transport_rate: null,
      unloading_quantity: 19,
      order_index: 0,
    },
  ],
  created_at: '',
});

describe('task list query', () => {
  it('takes the status from the tab and leaves empty filters out', () => {
    expect(filterParams({ ...LIST_DEFAULTS, tab: 'completed', status: 'open', search: 'щебень', company: 4 })).toEqual({
      status: 'completed',
      ordering: '-date',
      search: 'щебень',
      date_from: undefined,
      date_to: undefined,
      company_id: 4,
    });
    expect(filterParams({ ...LIST_DEFAULTS, status: 'open' }).status).toBe('open');
  });

  it('repeats a task on another date with the same fields and drivers', () => {
    const body = duplicateBody(task(5), '2026-12-01', false);
    expect(body).toEqual({
      date: '2026-12-01',
      cargo: 'Груз 5',
      loading_place: 'Карьер',
      unloading_place: 'Склад',
      planned_quantity: 20,
      unit: 'т',
      rate: 460,
      comment: null,
      max_drivers: 2,
      driver_ids: [7],
    });
    expect(duplicateBody(task(5), '2026-12-01', true)).toMatchObject({ company_id: 3 });
  });
});

describe('loadAllTasks (the bulk loader)', () => {
  it('follows next_offset by 200, then asks for details in calls of at most 200 ids, in the list order', async () => {
    const all = Array.from({ length: 450 }, (_, i) => task(1000 - i));
    const calls: { path: string; params: Params }[] = [];
    const fetch = async <T,>(path: string, params: Params): Promise<T> => {
      calls.push({ path, params });
      if (path === '/tasks/completed/') {
        const offset = Number(params.offset);
        const items = all.slice(offset, offset + Number(params.limit));
        const next = offset + items.length < all.length ? offset + items.length : null;
        return { items, next_offset: next, total: all.length } satisfies Page<Task> as T;
      }
      const ids = String(params.ids).split(',').map(Number);
      // One task vanished between the two phases: it is left out, not invented.
      const items = ids.filter((id) => id !== 900).map(task);
      return { items: items.reverse(), next_offset: null, total: items.length } satisfies Page<Task> as T;
    };
    const progress: LoadProgress[] = [];
    const tasks = await loadAllTasks(fetch, { status: 'completed', search: 'щ' }, (p) => progress.push(p));

    const pages = calls.filter((c) => c.path === '/tasks/completed/');
    expect(pages.map((c) => [c.params.limit, c.params.offset])).toEqual([
      [200, 0],
      [200, 200],
      [200, 400],
    ]);
    expect(pages.every((c) => c.params.search === 'щ' && c.params.status === 'completed')).toBe(true);
    const details = calls.filter((c) => c.path === '/tasks/bulk').map((c) => String(c.params.ids).split(',').length);
    expect(details).toEqual([200, 200, 50]);
    expect(tasks).toHaveLength(449);
    expect(tasks.map((t) => t.id)).toEqual(all.map((t) => t.id).filter((id) => id !== 900));
    expect(progress.at(2)).toEqual({ phase: 'ids', loaded: 450, total: 450 });
    expect(progress.at(-1)).toEqual({ phase: 'details', loaded: 449, total: 450 });
  });

  it('stops on an empty page even if the server names a next offset', async () => {
    let pages = 0;
    const fetch = async <T,>(): Promise<T> => {
      pages += 1;
      return { items: [], next_offset: 0, total: 3 } as Page<Task> as T;
    };
    expect(await loadAllTasks(fetch, {}, () => undefined)).toEqual([]);
    expect(pages).toBe(1);
  });
});
