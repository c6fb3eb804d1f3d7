/**
 * The tab's read-only copy of the engine's snapshot (valtio). The engine pushes; components read
 * with `useEngineSnapshot()`. Nothing in the UI writes here except `applySnapshot` from connect.ts.
 */
import { proxy, useSnapshot } from 'valtio';
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
