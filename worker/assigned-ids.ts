/**
 * The association ids in a GET /tasks/assigned/ answer: the outbox resolves a sent report once its id is gone.
 * The answer is tasks with their driver_associations (or, tolerated, bare associations).
 */
export function associationIdsOf(data: unknown): number[] | null {
  const items: unknown = Array.isArray(data) ? data : (data as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return null;
  const ids: number[] = [];
  for (const item of items as Array<Record<string, unknown> | null>) {
    if (!item || typeof item !== 'object') continue;
    if (Array.isArray(item.driver_associations)) {
      for (const association of item.driver_associations as Array<{ id?: unknown }>) {
        if (typeof association?.id === 'number') ids.push(association.id);
      }
    } else if (typeof item.task_id === 'number' && typeof item.id === 'number') {
      ids.push(item.id);
    }
  }
  return ids;
}
