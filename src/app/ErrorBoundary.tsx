/** The general error fallback of docs/product.md §2; the error is also reported to the server. */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { getEngine } from '../engine/engine.ts';

interface State {
  failed: boolean;
}

export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(error, info.componentStack);
    // A render error is caught here and never reaches window.onerror, so it is reported explicitly.
    try {
      void getEngine()
        .logClientError({
          message: error.message,
          stack: error.stack ?? info.componentStack ?? null,
          source: 'react',
          lineno: null,
          colno: null,
          userAgent: navigator.userAgent,
          url: location.href,
          time: new Date().toISOString(),
        })
        .catch(() => undefined);
    } catch {
      // The engine is not connected: nothing to report through.
    }
  }

  override render(): ReactNode {
    return this.state.failed ? <Fatal /> : this.props.children;
  }
}

export function Fatal() {
  return (
    <div className="fatal" role="alert">
      <p>Что-то пошло не так.</p>
      <button type="button" className="button" onClick={() => location.reload()}>
        Обновить страницу
      </button>
    </div>
  );
}
