/**
 * Which cached queries a write makes stale. A query's key starts with its API path (queryKeyOf), and
 * screens ask for many paths of one area (/tasks/completed/, /tasks/bulk, /tasks/drivers/7/tasks …), so a
 * write refreshes its whole area, plus the areas that show the same facts (a report changes a task's
 * reported quantity; a transfer or a driver change shows on tasks).
 */
const RELATED: Record<string, readonly string[]> = {
  reports: ['tasks', 'wages'],
  tasks: ['reports', 'wages'],
  transfers: ['tasks'],
  users: ['tasks', 'registration-requests'],
  'registration-requests': ['users'],
  progressive_rates: ['wages'],
  companies: ['users'],
};

/** 'tasks' for '/tasks/5/', 'tasks/5/' or '/api/tasks/5'. */
export function areaOf(path: string): string {
  const segments = path.replace(/^\/+/, '').replace(/^api\//, '').split(/[/?]/);
  return segments[0] ?? '';
}

/** The areas whose queries a write to `path` makes stale. */
export function staleAreas(path: string): Set<string> {
  const area = areaOf(path);
  return new Set([area, ...(RELATED[area] ?? [])]);
}

/** Whether a query (by its key) is stale after writes to `paths`. */
export function isStaleAfter(queryKey: readonly unknown[], paths: readonly string[]): boolean {
  const path = queryKey[0];
  if (typeof path !== 'string') return false;
  const area = areaOf(path);
  return paths.some((written) => staleAreas(written).has(area));
}
