/**
 * Which cached queries a write makes stale: the one invalidation rule of the UI, for a write made in this tab,
 * in another tab of the browser, or elsewhere (the change feed). A query's key starts with its API path
 * (queryKeyOf), and screens ask for many paths of one area (/tasks/completed/, /tasks/bulk, /tasks/drivers/7/tasks
 * …), so a write refreshes its whole area, plus the areas its declaration names (contract/calls: a report changes
 * a task's quantity; a transfer or a driver change shows on tasks). A call not yet declared uses RELATED.
 */
import type { CallDecl } from '../../contract/call.ts';

/**
 * The route table, loaded on the first write rather than with the app: it carries every call's zod schemas,
 * which /login and the driver's screens do not need. Until it is here, a write uses RELATED. Never rejects: a
 * load that failed (the first write made offline, the chunk unreachable) is tried again on the next write — kept
 * as a rejection, it stopped every later refresh of the tab's screens.
 */
let findCall: ((method: string, path: string) => CallDecl | undefined) | null = null;
let loading: Promise<void> | null = null;
export function routeTableLoaded(): Promise<void> {
  loading ??= import('../../contract/calls/index.ts').then(
    (table) => {
      findCall = table.callFor;
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/** Writes not yet on the route table: the areas that show the same facts as theirs. */
const RELATED: Record<string, readonly string[]> = {
  reports: ['tasks', 'wages', 'payroll', 'dispatch'],
  tasks: ['reports', 'wages', 'payroll', 'dispatch'],
  transfers: ['tasks', 'dispatch'],
  users: ['tasks', 'registration-requests', 'dispatch', 'wages', 'payroll'],
  'registration-requests': ['users'],
  progressive_rates: ['wages', 'payroll'],
  companies: ['users', 'wages', 'payroll'],
};

/** 'tasks' for '/tasks/5/', 'tasks/5/' or '/api/tasks/5'. */
export function areaOf(path: string): string {
  const segments = path.replace(/^\/+/, '').replace(/^api\//, '').split(/[/?]/);
  return segments[0] ?? '';
}

/** A write: its path, and its method where known (then its declaration decides). */
export interface Written {
  path: string;
  method?: string | undefined;
}

/** The areas whose queries a write makes stale. */
export function staleAreas(write: Written): Set<string> {
  const area = areaOf(write.path);
  const declared = write.method && findCall ? findCall(write.method, write.path) : undefined;
  return new Set([area, ...(declared ? (declared.invalidates ?? []) : (RELATED[area] ?? []))]);
}

/** Whether a query (by its key) is stale after `writes`. */
export function isStaleAfter(queryKey: readonly unknown[], writes: readonly Written[]): boolean {
  const path = queryKey[0];
  if (typeof path !== 'string') return false;
  const area = areaOf(path);
  return writes.some((written) => staleAreas(written).has(area));
}
