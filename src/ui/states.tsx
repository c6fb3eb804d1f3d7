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
