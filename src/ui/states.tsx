/** Loading, empty and error states, the same on every screen. */
import type { ReactNode } from 'react';

export function Loading({ text = 'Загрузка...' }: { text?: string }) {
  return (
    <p className="state state-loading" role="status" aria-live="polite">
      {text}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state state-empty">{children}</p>;
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="state state-error" role="alert">
      <p>{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Повторить
        </button>
      )}
    </div>
  );
}

/** What a query answered: loading, the error with a retry when nothing could be loaded, else the answer's view. */
export function Loaded<T>({
  query,
  loading,
  children,
}: {
  query: { data?: { data: T } | undefined; isPending: boolean; isError: boolean; error: { message: string } | null; refetch: () => unknown };
  loading?: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading text={loading} />;
  if (query.data) return <>{children(query.data.data)}</>;
  if (query.isError && query.error) return <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />;
  return null;
}
