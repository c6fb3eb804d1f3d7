/** The loading, empty, error and cached-data states every driver screen shows the same way. */
import type { ReactNode } from 'react';
import type { ApiError } from '../../engine/queries.ts';
import { CacheNote } from '../../ui/CacheNote.tsx';

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


/** What a driver's list answered, in the one order every list shows it: cache note, loading, error, empty, the rows. */
export function QueryStates({
  query,
  loadingText = 'Загрузка задач...',
  empty,
  children,
}: {
  query: { data?: { fromCache: boolean; storedAt: number } | undefined; isPending: boolean; isError: boolean; error: ApiError | null; refetch: () => unknown };
  loadingText?: string;
  /** The empty state while there are no rows to show; null when there are. */
  empty: ReactNode | null;
  children: ReactNode;
}) {
  const { data } = query;
  return (
    <>
      {data ? <CacheNote className="drv-cache-note" fromCache={data.fromCache} storedAt={data.storedAt} /> : null}
      {query.isPending ? (
        <LoadingState text={loadingText} />
      ) : query.isError && !data && query.error ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : empty !== null ? (
        empty
      ) : (
        children
      )}
    </>
  );
}
