/**
 * The tab's entry: connect to the engine and restore the UI state (the page shows 'Загрузка...' from
 * index.html meanwhile), then render the app with its providers.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { ErrorBoundary, Fatal } from './app/ErrorBoundary.tsx';
import { blockNumberInputWheel } from './app/no-wheel.ts';
import { registerServiceWorker } from './app/pwa/register.ts';
import { showToast } from './ui/toasts.ts';
import { Toasts } from './app/Toasts.tsx';
import { persistUiState, restoreUiState } from './app/ui-state.ts';
import { connectEngine, onEngineNotice, reportClientErrors } from './engine/connect.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);

reportClientErrors();
blockNumberInputWheel();
registerServiceWorker();

async function start(): Promise<void> {
  await Promise.all([connectEngine(), restoreUiState()]);
  // React Query loads with the first route past /login, and its client with it (app/query-layer.tsx).
  // Background work of the engine (a queued report refused for good) has something to tell the user.
  onEngineNotice((message: string) => showToast('warning', message));
  const persistence = persistUiState();
  // The debounce may still hold the last change when the tab goes away.
  window.addEventListener('pagehide', () => persistence.flush());
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <App />
      </ErrorBoundary>
      <Toasts />
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  console.error('the app could not start', error);
  root.render(<Fatal />);
});
