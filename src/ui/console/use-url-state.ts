/**
 * A screen's filters, sort, page and tab in the URL's search params, so a tab can be
 * reloaded, copied or bookmarked and show the same thing. Defaults stay out of the URL; every change
 * replaces the history entry, so Back leaves the screen instead of stepping through filter edits.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'wouter';

export type UrlStateValues = Record<string, string>;

/** The state read from `search` over `defaults`: only keys the screen declared, as strings. */
export function readUrlState<T extends UrlStateValues>(search: URLSearchParams, defaults: T): T {
  const state = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof T & string)[]) {
    const value = search.get(key);
    if (value !== null) state[key] = value as T[typeof key];
  }
  return state;
}

/** The search params for `state`: keys equal to their default are left out; other params are kept. */
export function writeUrlState<T extends UrlStateValues>(current: URLSearchParams, state: T, defaults: T): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of Object.keys(defaults)) {
    const value = state[key];
    if (value === undefined || value === defaults[key]) next.delete(key);
    else next.set(key, value);
  }
  return next;
}

export function useUrlState<T extends UrlStateValues>(defaults: T): [T, (patch: Partial<T>) => void] {
  const [search, setSearch] = useSearchParams();
  // Callers pass a literal each render; its content, not its identity, is what matters.
  const defaultsKey = JSON.stringify(defaults);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stableDefaults = useMemo(() => defaults, [defaultsKey]);
  const state = useMemo(() => readUrlState(search, stableDefaults), [search, stableDefaults]);
  const update = useCallback(
    (patch: Partial<T>) => {
      setSearch((prev) => writeUrlState(prev, { ...readUrlState(prev, stableDefaults), ...patch }, stableDefaults), { replace: true });
    },
    [setSearch, stableDefaults],
  );
  return [state, update];
}
