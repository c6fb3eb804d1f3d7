/** List answers arrive either as a bare array or as a page ({items, next_offset}); screens want the array. */
export function listOf<T>(data: T[] | { items: T[] } | null | undefined): T[] {
  if (!data) return [];
  return Array.isArray(data) ? data : data.items;
}
