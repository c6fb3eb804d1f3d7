/**
 * Loading, empty and error states: one kit for every screen, in the console's look or the driver's (`tone`).
 * `Loaded` puts them in the one order a screen shows a query's answer: cache note, loading, the error with a
 * retry when nothing could be loaded, the empty state, the answer's view.
 */
import type { ReactNode } from 'react';
import { CacheNote } from './CacheNote.tsx';

/** The console's plain states, or the driver's larger ones (drv-state, a title with a hint, a ghost button). */
export type Tone = 'console' | 'driver';

export function Loading({ text = 'Загрузка...', tone = 'console' }: { text?: string | undefined; tone?: Tone }) {
  return (
    <p className={tone === 'driver' ? 'drv-state' : 'state state-loading'} role="status" aria-live="polite">
      {text}
    </p>
  );
}

/** Nothing to show: a line in the console; on the driver's screens a title with a hint under it. */
export function Empty({ title, children, tone = 'console' }: { title?: string; children?: ReactNode; tone?: Tone }) {
  if (tone === 'console') {
    return (
      <p className="state state-empty">
        {title}
        {children}
      </p>
    );
  }
  return (
    <div className="drv-state drv-state--empty">
      <p className="drv-state__title">{title}</p>
      {children ? <div className="drv-state__hint">{children}</div> : null}
    </div>
  );
}

/** A failure the user reads; `network` (nothing came back and nothing is cached) reads as being offline. */
export function ErrorState({ message, network = false, onRetry, tone = 'console' }: { message: string; network?: boolean | undefined; onRetry?: () => void; tone?: Tone }) {
  const driver = tone === 'driver';
  return (
    <div className={driver ? 'drv-state drv-state--error' : 'state state-error'} role="alert">
      <p className={driver ? 'drv-state__title' : undefined}>{network ? 'Нет подключения к сети, а сохранённых данных нет.' : message}</p>
      {network ? <p className={driver ? 'drv-state__hint' : undefined}>Данные появятся, когда сеть вернётся.</p> : null}
      {onRetry && (
        <button type="button" className={driver ? 'drv-btn drv-btn--ghost' : 'button'} onClick={onRetry}>
          Повторить
        </button>
      )}
    </div>
  );
}

/** What a screen needs of a query (the engine's useGet answer). */
export interface QueryLike<T> {
  data?: { data: T; fromCache?: boolean; storedAt?: number } | undefined;
  isPending: boolean;
  isError: boolean;
  error: { message: string; network?: boolean } | null;
  refetch: () => unknown;
}

/** A query's failure with a retry. */
export function QueryError({ query, tone }: { query: Pick<QueryLike<unknown>, 'error' | 'refetch'>; tone?: Tone }) {
  return <ErrorState message={query.error?.message ?? 'Не удалось загрузить данные'} network={query.error?.network} tone={tone} onRetry={() => void query.refetch()} />;
}

/**
 * What a query answered: its cache note where asked, loading, the error with a retry when nothing could be
 * loaded, `empty` where it is not null, else the answer's view.
 */
export function Loaded<T>({
  query,
  loading,
  tone,
  cacheNote = false,
  empty = null,
  children,
}: {
  query: QueryLike<T>;
  loading?: string;
  tone?: Tone;
  /** «данные от …» above the answer while it is the engine's cached copy. */
  cacheNote?: boolean;
  /** The empty state while there is nothing to show; null when there is. */
  empty?: ReactNode | null;
  children: (data: T) => ReactNode;
}) {
  const { data } = query;
  let body: ReactNode = null;
  if (query.isPending) body = <Loading text={loading} tone={tone} />;
  else if (query.isError && !data) body = <QueryError query={query} tone={tone} />;
  else if (empty !== null) body = empty;
  else if (data) body = children(data.data);
  if (!cacheNote || !data) return <>{body}</>;
  return (
    <>
      <CacheNote className={tone === 'driver' ? 'drv-cache-note' : undefined} fromCache={data.fromCache ?? false} storedAt={data.storedAt ?? 0} />
      {body}
    </>
  );
}
