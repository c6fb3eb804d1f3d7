/** The task list's URL state and the query it makes (pure). */
import type { CallQuery } from '../../../contract/calls/index.ts';
import { TASK_STATUSES, type Task, type TaskStatus } from '../../../contract/entities.ts';
import type { ExportRequest } from '../../../contract/exports.ts';
import { formatDate } from '../../ui/format.ts';

export const BULK_PAGE_SIZE = 200;

export const LIST_DEFAULTS = {
  tab: 'all',
  search: '',
  status: '',
  date_from: '',
  date_to: '',
  ordering: '-date',
  page: '0',
  company: '',
  /** A register card's «Задачи (N)»: its id, and its name for the filter's chip. */
  counterparty: '',
  place: '',
  of: '',
};
export type ListState = typeof LIST_DEFAULTS;

/** «Выполненные» is the spec's completed list (status 'completed' by default); «Все задачи» shows every status. */
export function statusOf(state: ListState): TaskStatus | 'all' {
  if (state.status === 'all') return 'all';
  return TASK_STATUSES.find((s) => s === state.status) ?? (state.tab === 'completed' ? 'completed' : 'all');
}

/** What GET /tasks/completed/ takes. */
export type ListQuery = Partial<CallQuery<'GET /tasks/completed/'>>;
type Ordering = NonNullable<ListQuery['ordering']>;
const ORDERINGS: readonly Ordering[] = ['date', '-date', 'id', '-id', 'cargo', '-cargo'];

/** GET /tasks/completed/ params for the state (the page's limit and offset are the list controller's). A sort the URL garbled is by date. */
export function listParams(state: ListState): ListQuery {
  const params: ListQuery = { status: statusOf(state), ordering: ORDERINGS.find((o) => o === state.ordering) ?? '-date' };
  if (state.search.trim()) params.search = state.search.trim();
  if (state.date_from) params.date_from = state.date_from;
  if (state.date_to) params.date_to = state.date_to;
  if (state.company) params.company_id = Number(state.company);
  if (/^\d+$/.test(state.counterparty)) params.counterparty_id = Number(state.counterparty);
  if (/^\d+$/.test(state.place)) params.place_id = Number(state.place);
  return params;
}

/** «Задачи контрагента «ООО «Гранит»»»: the card the list is narrowed to, or null. */
export function scopeText(state: ListState): string | null {
  const params = listParams(state);
  const name = state.of.trim();
  if (params.counterparty_id !== undefined) return `Задачи контрагента ${name ? `«${name}»` : `№${params.counterparty_id}`}`;
  if (params.place_id !== undefined) return `Задачи места ${name ? `«${name}»` : `№${params.place_id}`}`;
  return null;
}

/** The export of what the list shows: its filters and sort. */
export function exportFilters({ search, status, ordering, date_from, date_to, company_id, counterparty_id, place_id }: ListQuery): ExportRequest {
  return { search, status, ordering, date_from, date_to, company_id, counterparty_id, place_id };
}

/** «Щебень» на 23.11.2026 — how dialogs and bulk results name a task. */
export function taskLabel(task: Pick<Task, 'id' | 'cargo' | 'date'>): string {
  return `№${task.id} «${task.cargo}» на ${formatDate(task.date)}`;
}

/** The body that makes a copy of `task` on another date, with the same drivers and their own fields. */
export function duplicateBody(task: Task, date: string) {
  return {
    company_id: task.company_id,
    date,
    cargo: task.cargo,
    loading_place: task.loading_place,
    unloading_place: task.unloading_place,
    planned_quantity: task.planned_quantity,
    unit: task.unit,
    rate: task.rate,
    comment: task.comment,
    max_drivers: task.max_drivers,
    driver_ids: task.driver_associations.filter((a) => a.status !== 'cancelled').map((a) => a.driver_id),
  };
}

/** The driver's quantities to copy onto the duplicate (PUT /tasks/{id}/ with driver_ids + drivers). */
export function duplicateDrivers(task: Task) {
  return task.driver_associations
    .filter((a) => a.status !== 'cancelled')
    .map((a) => ({ id: a.driver_id, quantity: a.quantity, transport_rate: a.transport_rate }));
}
