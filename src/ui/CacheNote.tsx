/** A quiet note that a screen shows cached data, and from when. */
import { formatStoredAt } from './format.ts';

export function CacheNote({ fromCache, storedAt }: { fromCache: boolean; storedAt: number }) {
  if (!fromCache) return null;
  return <p className="cache-note">данные от {formatStoredAt(storedAt)}</p>;
}
