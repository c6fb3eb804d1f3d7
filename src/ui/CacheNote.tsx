/** The quiet note that a screen shows cached data, and from when («данные от 14:30», another day with its date). */
import { formatStoredAt } from './format.ts';

export function CacheNote({ fromCache, storedAt, className = 'cache-note' }: { fromCache: boolean; storedAt: number; className?: string }) {
  if (!fromCache) return null;
  return (
    <p className={className} title={new Date(storedAt).toLocaleString('ru-RU')}>
      данные от {formatStoredAt(storedAt)}
    </p>
  );
}
