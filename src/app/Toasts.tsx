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
      {/* No `limit`: at most three at once, a fourth dismisses the oldest (ui/toasts.ts); where they stand: styles.css. */}
      <ToastContainer position="bottom-left" autoClose={3000} newestOnTop />
    </Suspense>
  );
}
