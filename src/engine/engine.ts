/** Holds the tab's connection to the engine; set once by connect.ts at startup. */
import type { Remote } from 'comlink';
import type { WorkerApi } from '../../worker/api.ts';

let current: Remote<WorkerApi> | null = null;

export function setEngine(engine: Remote<WorkerApi>): void {
  current = engine;
}

export function getEngine(): Remote<WorkerApi> {
  if (!current) throw new Error('engine is not connected yet');
  return current;
}
