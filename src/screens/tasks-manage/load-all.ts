/**
 * «Загрузить всё по фильтру» (docs/product.md §7 and §9): the bulk loader pages GET /tasks/completed/ with limit 200
 * following next_offset to collect the ids, then asks GET /tasks/bulk?ids=… for the details, 200 at a time.
 */
import type { Page, Task } from '../../../contract/entities.ts';
import { getOnce } from '../../engine/api.ts';
import { BULK_PAGE_SIZE, type ListQuery } from './task-list.ts';

export async function loadAllTasks(query: ListQuery, onProgress: (loaded: number, total: number | null) => void, signal?: AbortSignal): Promise<Task[]> {
  const ids: number[] = [];
  let offset: number | null = 0;
  let total: number | null = null;
  while (offset !== null) {
    if (signal?.aborted) throw new DOMException('Загрузка остановлена', 'AbortError');
    const page: Page<Task> = (await getOnce('GET /tasks/completed/', { ...query, limit: BULK_PAGE_SIZE, offset })).data;
    total = page.total;
    ids.push(...page.items.map((task) => task.id));
    onProgress(0, total);
    offset = page.next_offset;
  }
  const tasks: Task[] = [];
  for (let i = 0; i < ids.length; i += BULK_PAGE_SIZE) {
    if (signal?.aborted) throw new DOMException('Загрузка остановлена', 'AbortError');
    const chunk = ids.slice(i, i + BULK_PAGE_SIZE);
    const page = (await getOnce('GET /tasks/bulk', { ids: chunk })).data;
    tasks.push(...page.items);
    onProgress(tasks.length, total);
  }
  return tasks;
}
