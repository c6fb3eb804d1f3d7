/**
 * The console's list controller: a list screen's URL state (filters, tab, sort, page) →
 * the declared GET → rows, total, sort, page and selection, in one object that the filter bar, the table
 * (`ListFrame`) and the pager all read. A list is paged on the server (limit/offset from the URL's `page`, the
 * answer a page with its total), or filtered, sorted and paged here over the whole answer (`local`).
 */
import { useState } from 'react';
import type { CallAnswer, GetKey } from '../../../contract/calls/index.ts';
import { useGet, type GetInput } from '../../engine/api.ts';
import type { TableSort } from './DataTable.tsx';
import { PAGE_SIZE } from './Pager.tsx';
import { useUrlState, type UrlStateValues } from './use-url-state.ts';
import { failureMessage } from '../../engine/send.ts';
import { showToast } from '../toasts.ts';

/** The rows of a list answer: a bare array, or a page's items. */
export type RowOf<A> = A extends readonly (infer R)[] ? R : A extends { items: readonly (infer R)[] } ? R : never;

export function rowsOf<A>(answer: A | undefined): RowOf<A>[] {
  if (answer === undefined || answer === null) return [];
  if (Array.isArray(answer)) return answer as RowOf<A>[];
  const items = (answer as { items?: RowOf<A>[] }).items;
  return items ?? [];
}

/** The URL's sort (`name`, `-date`) as the table's. */
export function sortOf(ordering: string): TableSort {
  return { id: ordering.replace(/^-/, ''), desc: ordering.startsWith('-') };
}

/** A header click: the same column flips direction; another starts descending if it is in `descFirst`, else ascending. */
export function nextOrdering(current: string, column: string, descFirst: readonly string[] = []): string {
  if (current.replace(/^-/, '') === column) return current.startsWith('-') ? column : `-${column}`;
  return descFirst.includes(column) ? `-${column}` : column;
}

/** limit/offset of a page of PAGE_SIZE. */
export interface Paging {
  limit: number;
  offset: number;
}

export interface ListOptions<K extends GetKey, S extends UrlStateValues> {
  /** The call; null: not asked yet (waiting for a choice). */
  key: K | null;
  /** The URL state's keys and defaults; a paged list has `page`, a sortable one its sort key. */
  defaults: S;
  /** The call's input from the state (and, paged on the server, the page's limit and offset). */
  input: (state: S, paging: Paging | undefined) => GetInput<K>;
  /** Where the list is paged: on the server (the answer is `{items, total}`), here, or not at all. */
  paging?: 'server' | 'client' | 'none';
  /** A list filtered and sorted here: the rows to show, from the whole answer. */
  local?: (rows: RowOf<CallAnswer<K>>[], state: S) => RowOf<CallAnswer<K>>[];
  /** The state key the sort lives under (`ordering` unless said). */
  sortKey?: keyof S & string;
  /** Columns that sort descending on their first click (dates, counts). */
  descFirst?: readonly string[];
  /**
   * «Загрузить всё по фильтру» on a list paged on the server: every row the filters leave (the call's input
   * without a page), shown in place of the pages until the filters change or the user goes back to them. `noun`
   * names the rows in what the frame and the error say («задачи»).
   */
  loadAll?: {
    noun: string;
    load: (input: GetInput<K>, onProgress: (loaded: number, total: number | null) => void) => Promise<RowOf<CallAnswer<K>>[]>;
  };
}

/** How far «load all» has got: rows loaded of the total, the total unknown while the ids are still counted. */
export interface LoadAllProgress {
  loaded: number;
  total: number | null;
}

export function useListController<K extends GetKey, S extends UrlStateValues>(options: ListOptions<K, S>) {
  const { key, defaults, paging = 'none', sortKey = 'ordering', descFirst } = options;
  const [state, setState] = useUrlState(defaults);
  // The controller's own keys (page, the sort) are among the screen's defaults, which the generic type cannot see.
  const patchUrl = setState as (patch: Partial<UrlStateValues>) => void;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const asked = paging === 'none' ? 0 : Math.max(0, Number(state.page) || 0);
  const serverPaging = paging === 'server' ? { limit: PAGE_SIZE, offset: asked * PAGE_SIZE } : undefined;
  const query = useGet(key, options.input(state, serverPaging), { placeholderData: (previous) => previous });
  const answer = query.data?.data;
  const [everything, setEverything] = useState<{ rows: RowOf<CallAnswer<K>>[]; key: string } | null>(null);
  const [loadingAll, setLoadingAll] = useState<LoadAllProgress | null>(null);
  const filterKey = JSON.stringify(options.input(state, undefined));
  const showingAll = everything !== null && everything.key === filterKey;
  const all = showingAll ? everything.rows : options.local ? options.local(rowsOf(answer), state) : rowsOf(answer);
  // Paged here, a page past the end (the filter left fewer rows) shows the last one.
  const page = paging === 'client' ? Math.min(asked, Math.max(0, Math.ceil(all.length / PAGE_SIZE) - 1)) : asked;
  const rows = paging === 'client' ? all.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE) : all;
  const { loadAll } = options;

  async function showAll(): Promise<void> {
    if (!loadAll || key === null) return;
    setLoadingAll({ loaded: 0, total: null });
    try {
      const loaded = await loadAll.load(options.input(state, undefined), (done, of) => setLoadingAll({ loaded: done, total: of }));
      setEverything({ rows: loaded, key: filterKey });
    } catch (error) {
      showToast('error', `Не удалось загрузить все ${loadAll.noun}: ${failureMessage(error)}`);
    } finally {
      setLoadingAll(null);
    }
  }
  const total = paging === 'server' && !showingAll ? Number((answer as { total?: number } | undefined)?.total ?? 0) : all.length;
  const ordering = sortKey in defaults ? state[sortKey] : undefined;

  /** A filter change: back to the first page, and the selection (of rows maybe no longer shown) cleared. */
  function update(patch: Partial<S>): void {
    setSelected(new Set());
    patchUrl({ ...(paging === 'none' ? {} : { page: '0' }), ...patch });
  }

  return {
    state,
    update,
    query,
    answer,
    /** The rows on this page. */
    rows,
    /** Every row the filters leave (the same as `rows` unless paged here). */
    all,
    total,
    page,
    paged: paging !== 'none' && !showingAll,
    /** «load all»: offered (a server-paged list with a loader), under way, or done (the rows are all of them). */
    everything: loadAll && paging === 'server' ? { noun: loadAll.noun, showAll, loading: loadingAll, shown: showingAll, back: () => setEverything(null) } : null,
    setPage: (next: number) => patchUrl({ page: String(next) }),
    sort: ordering === undefined ? null : sortOf(ordering),
    onSort: (column: string) => {
      setSelected(new Set());
      patchUrl({ ...(paging === 'none' ? {} : { page: '0' }), [sortKey]: nextOrdering(ordering ?? '', column, descFirst) });
    },
    selected,
    setSelected,
  };
}

export type ListController<K extends GetKey = GetKey, S extends UrlStateValues = UrlStateValues> = ReturnType<typeof useListController<K, S>>;
