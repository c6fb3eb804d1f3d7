/**
 * The tab's entry: connect to the engine and restore the UI state (the page shows 'Загрузка...' from
 * index.html meanwhile), then render the app with its providers.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { ToastContainer, toast } from 'react-toastify';
import { App } from './app/App.tsx';
import { ErrorBoundary, Fatal } from './app/ErrorBoundary.tsx';
import { blockNumberInputWheel } from './app/no-wheel.ts';
import { registerServiceWorker } from './app/pwa/register.ts';
import { createQueryClient } from './app/query-client.ts';
import { persistUiState, restoreUiState } from './app/ui-state.ts';
import { connectEngine, onEngineNotice, onReconnected, onWrites, reportClientErrors } from './engine/connect.ts';
import { isStaleAfter, routeTableLoaded } from './engine/write-invalidation.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);

reportClientErrors();
blockNumberInputWheel();
registerServiceWorker();

async function start(): Promise<void> {
  await Promise.all([connectEngine(), restoreUiState()]);
  const queryClient = createQueryClient();
  // Back online (or out of offline mode): what the screens show may be stale cache.
  onReconnected(() => void queryClient.invalidateQueries());
  // A write in any tab of this browser: every tab refetches what it touched (CONSOLE.md, "Tabs that agree").
  onWrites((writes) => void routeTableLoaded().then(() => queryClient.invalidateQueries({ predicate: (query) => isStaleAfter(query.queryKey, writes) })));
  // Background work of the engine (a queued report refused for good) has something to tell the user.
  onEngineNotice((message: string) => toast.warning(message));
  const persistence = persistUiState();
  // The debounce may still hold the last change when the tab goes away.
  window.addEventListener('pagehide', () => persistence.flush());
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </ErrorBoundary>
      <ToastContainer position="bottom-left" autoClose={3000} newestOnTop />
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  console.error('the app could not start', error);
  root.render(<Fatal />);
});
