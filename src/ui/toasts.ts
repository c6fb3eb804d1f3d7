/**
 * Toasts without react-toastify in the first chunk: the library (and its container) loads on the first toast or
 * when the signed-in part of the app loads (query-layer.tsx), whichever comes first. A toast raised before the
 * container is mounted waits in the library's queue and shows when it mounts.
 */
import type { ToastContent, ToastOptions } from 'react-toastify';
import { proxy } from 'valtio';

/** `wanted`: the container is rendered (Toasts.tsx); once true, it stays. */
export const toastState = proxy({ wanted: false });

export function wantToasts(): void {
  if (!toastState.wanted) toastState.wanted = true;
}

export function showToast(kind: 'error' | 'warning' | 'info' | 'success', message: ToastContent, options?: ToastOptions): void {
  wantToasts();
  import('react-toastify')
    .then(({ toast }) => toast[kind](message, options))
    .catch((error: unknown) => console.warn('toast not shown', message, error));
}
