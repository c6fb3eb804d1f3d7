/** The task list's query from the URL state, and the bulk loader ("Загрузить всё по фильтру"). */
import type { Page, Task } from '../../../contract/entities.ts';
import type { Params } from '../../../worker/api.ts';

export const PAGE_SIZE = 50;
export const BULK_PAGE = 200;
export const TASKS_PATH = '/tasks/completed/';

export const LIST_DEFAULTS = {
  tab: 'all',
  search: '',
  status: 'all',
  date_from: '',
  date_to: '',
  ordering: '-date',
  page: 0,
  company: 0,
};
export type ListState = typeof LIST_DEFAULTS;

/** «Выполненные» is the spec's completed list: status 'completed' whatever the status filter says. */
export function effectiveStatus(state: ListState): string {
  return state.tab === 'completed' ? 'completed' : state.status;
}

/** The filter part of GET /tasks/completed/ (no paging): the same for a page and for the bulk loader. */
export function filterParams(state: ListState): Params {
  return {
    status: effectiveStatus(state),
    ordering: state.ordering,
    search: state.search || undefined,
    date_from: state.date_from || undefined,
    date_to: state.date_to || undefined,
    company_id: state.company || undefined,
  };
}

/** Drops undefined values, so equal filters give equal query keys. */
export function cleanParams(params: Params): Params {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== ''));
}

export type Fetch = <T>(path: string, params: Params) => Promise<T>;

export interface LoadProgress {
  phase: 'ids' | 'details';
  loaded: number;
  total: number;
}

/**
 * Every task matching the filter: pages of 200 following next_offset for the ids, then the details through
 * GET /tasks/bulk?ids=… in calls of at most 200 ids, in the list's order.
 */
export async function loadAllTasks(fetch: Fetch, filter: Params, onProgress: (progress: LoadProgress) => void): Promise<Task[]> {
  const ids: number[] = [];
  let offset: number | null = 0;
  let total: number;
  while (offset !== null) {
    const page: Page<Task> = await fetch<Page<Task>>(TASKS_PATH, cleanParams({ ...filter, limit: BULK_PAGE, offset }));
    total = page.total;
    for (const task of page.items) ids.push(task.id);
    onProgress({ phase: 'ids', loaded: ids.length, total });
    // A page that adds nothing would loop forever on a misbehaving server.
    offset = page.items.length > 0 ? page.next_offset : null;
  }
  const unique = [...new Set(ids)];
  const byId = new Map<number, Task>();
  for (let start = 0; start < unique.length; start += BULK_PAGE) {
    const chunk = unique.slice(start, start + BULK_PAGE);
    const page = await fetch<Page<Task>>('/tasks/bulk', { ids: chunk.join(',') });
    for (const task of page.items) byId.set(task.id, task);
    onProgress({ phase: 'details', loaded: byId.size, total: unique.length });
  }
  return unique.map((id) => byId.get(id)).filter((task): task is Task => task !== undefined);
}

/** 'Щебень, 23.11.2026': how a task is named in dialogs and bulk results. */
export function taskLabel(task: Pick<Task, 'cargo' | 'date'>, formatDate: (value: string) => string): string {
  return `${task.cargo}, ${formatDate(task.date)}`;
}

/** POST /tasks/ body that repeats a task on another date with the same fields and drivers. */
export function duplicateBody(task: Task, date: string, withCompany: boolean) {
  return {
    ...(withCompany ? { company_id: task.company_id } : {}),
    date,
    cargo: task.cargo,
    loading_place: task.loading_place,
    unloading_place: task.unloading_place,
    planned_quantity: task.planned_quantity,
    unit: task.unit,
    rate: task.rate,
    comment: task.comment,
    max_drivers: task.max_drivers,
    driver_ids: task.driver_associations.map((association) => association.driver_id),
  };
}
