/** The toast container, rendered only once toasts are wanted (toasts.ts): react-toastify is not in the first chunk. */
import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { toastState } from '../ui/toasts.ts';

const ToastContainer = lazy(() => import('react-toastify').then((m) => ({ default: m.ToastContainer })));

export function Toasts() {
  const { wanted } = useSnapshot(toastState);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* At most three at once (quick moves on the board queue the rest); where they stand: styles.css. */}
      <ToastContainer position="bottom-left" autoClose={3000} newestOnTop limit={3} />
    </Suspense>
  );
}
