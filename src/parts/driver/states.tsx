/** The loading, empty, error and cached-data states every driver screen shows the same way. */
import type { ReactNode } from 'react';
import type { ApiError } from '../../engine/queries.ts';
import { formatClock } from './format.ts';

export function LoadingState({ text = 'Загрузка...' }: { text?: string }) {
  return (
    <p className="drv-state" role="status" aria-live="polite">
      {text}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="drv-state drv-state--empty">
      <p className="drv-state__title">{title}</p>
      {children ? <div className="drv-state__hint">{children}</div> : null}
    </div>
  );
}

/** A network failure with nothing cached reads as "offline", any other failure shows the server's detail. */
export function ErrorState({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div className="drv-state drv-state--error" role="alert">
      <p className="drv-state__title">
        {error.network ? 'Нет подключения к сети, а сохранённых данных нет.' : error.message}
      </p>
      {error.network ? <p className="drv-state__hint">Данные появятся, когда сеть вернётся.</p> : null}
      {onRetry ? (
        <button type="button" className="drv-btn drv-btn--ghost" onClick={onRetry}>
          Повторить
        </button>
      ) : null}
    </div>
  );
}

/** The quiet 'данные от HH:MM' under a list that came from the engine's cache. */
export function CacheNote({ fromCache, storedAt }: { fromCache: boolean; storedAt: number }) {
  if (!fromCache) return null;
  return (
    <p className="drv-cache-note" title={new Date(storedAt).toLocaleString('ru-RU')}>
      данные от {formatClock(storedAt)}
    </p>
  );
}
