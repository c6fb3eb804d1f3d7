/**
 * The tab's read-only copy of the engine's snapshot (valtio). The engine pushes; components read
 * with `useEngineSnapshot()`. Nothing in the UI writes here except `applySnapshot` from connect.ts.
 */
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { proxy, snapshot, subscribe, useSnapshot } from 'valtio';
import type { Snapshot } from '../../worker/api.ts';

export const initialSnapshot: Snapshot = {
  auth: { isAuthenticated: false, loading: true, error: null, user: null, initialized: false, offlineMode: false },
  network: { online: true, effectiveType: null, offlineMode: false },
  outbox: { pending: 0, flushing: false, items: [] },
  mode: 'shared',
};

export const engineState = proxy<{ snapshot: Snapshot }>({ snapshot: initialSnapshot });

export function applySnapshot(snapshot: Snapshot): void {
  engineState.snapshot = snapshot;
}

export function useEngineSnapshot(): Snapshot {
  return useSnapshot(engineState).snapshot as Snapshot;
}

/** The snapshot as it is now, for a handler that needs it once (not a subscription: no re-render follows it). */
export const currentSnapshot = (): Snapshot => snapshot(engineState).snapshot as Snapshot;

const subscribeToEngine = (onChange: () => void) => subscribe(engineState, onChange);

/**
 * A part of the snapshot, re-rendering only when that part changed (compared by its JSON): for what a push changes
 * often but a component reads little of — the trip panel of one task among several reads only its association's
 * outbox items, so a tap on one card does not re-render every card on the screen. `select` reads the immutable
 * snapshot and should be pure; its answer is kept while its JSON is the same.
 */
export function useEngineSelector<T>(select: (snapshot: Snapshot) => T): T {
  const kept = useRef<{ json: string; value: T } | null>(null);
  const read = useCallback(() => {
    const value = select(currentSnapshot());
    const json = JSON.stringify(value);
    if (kept.current?.json !== json) kept.current = { json, value };
    return kept.current.value;
  }, [select]);
  return useSyncExternalStore(subscribeToEngine, read);
}
