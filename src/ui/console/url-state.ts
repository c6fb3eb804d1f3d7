/**
 * Filters, sort, page and tab in the URL's search params, so a tab can be reloaded, copied or bookmarked
 * and show the same thing (CONSOLE.md "State"). Values are typed by their defaults; a value equal to its
 * default is left out of the URL, keys the screen does not own are kept.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';
import type { SortingState } from '@tanstack/react-table';

export type UrlValue = string | number | boolean;
export type UrlDefaults = Record<string, UrlValue>;

function parseValue(raw: string | null, fallback: UrlValue): UrlValue {
  if (raw === null) return fallback;
  if (typeof fallback === 'number') {
    const n = Number(raw);
    return raw.trim() !== '' && Number.isFinite(n) ? n : fallback;
  }
  if (typeof fallback === 'boolean') {
    if (raw === '1' || raw === 'true') return true;
    if (raw === '0' || raw === 'false') return false;
    return fallback;
  }
  return raw;
}

/** The screen's state from a search string: each key typed as its default; unreadable values fall back. */
export function parseUrlState<T extends UrlDefaults>(search: string | URLSearchParams, defaults: T): T {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const state: UrlDefaults = {};
  for (const [key, fallback] of Object.entries(defaults)) state[key] = parseValue(params.get(key), fallback);
  return state as T;
}

/** The search params after applying a patch: defaults (and empty strings) removed, other keys kept. */
export function writeUrlState<T extends UrlDefaults>(current: URLSearchParams, patch: Partial<T>, defaults: T): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const fallback = defaults[key];
    if (value === fallback || value === '') next.delete(key);
    else next.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return next;
}

/**
 * `[state, update]`: `update(patch)` writes the changed keys with a history replace (a filter change is not
 * a page to go back to). Pass `{ page: 0 }`-style resets in the same patch as the filter that needs them.
 */
export function useUrlState<T extends UrlDefaults>(defaults: T): [T, (patch: Partial<T> | ((prev: T) => Partial<T>)) => void] {
  const [params, setParams] = useSearchParams();
  // Screens pass an inline object literal; its contents, not its identity, decide.
  const key = JSON.stringify(defaults);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const state = useMemo(() => parseUrlState(params, defaults), [params, key]);
  const update = useCallback(
    (patch: Partial<T> | ((prev: T) => Partial<T>)) => {
      setParams((prev) => writeUrlState(prev, typeof patch === 'function' ? patch(parseUrlState(prev, defaults)) : patch, defaults), {
        replace: true,
      });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setParams, key],
  );
  return [state, update];
}

/** '-date' → [{ id: 'date', desc: true }]: the API's ordering as react-table's sorting state. */
export function orderingToSorting(ordering: string): SortingState {
  if (!ordering) return [];
  const desc = ordering.startsWith('-');
  return [{ id: desc ? ordering.slice(1) : ordering, desc }];
}

/** The inverse of orderingToSorting; the first column decides (the console sorts by one column). */
export function sortingToOrdering(sorting: SortingState): string {
  const first = sorting[0];
  if (!first) return '';
  return first.desc ? `-${first.id}` : first.id;
}
