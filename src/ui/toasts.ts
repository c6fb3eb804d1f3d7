/**
 * Toasts without react-toastify in the first chunk: the library (and its container) loads on the first toast or
 * when the signed-in part of the app loads (query-layer.tsx), whichever comes first. A toast raised before the
 * container is mounted waits in the library's queue and shows when it mounts. Toasts stand at the bottom left of
 * the content, never over the menu nor over a primary action, at most three at once, the newest always shown (the
 * oldest makes room; Toasts.tsx, styles.css).
 */
import type { ToastContent, ToastOptions } from 'react-toastify';
import { proxy } from 'valtio';

/** `wanted`: the container is rendered (Toasts.tsx); once true, it stays. */
export const toastState = proxy({ wanted: false });

export function wantToasts(): void {
  if (!toastState.wanted) toastState.wanted = true;
}

/** What a toast must never cover: the screen's primary actions (a form's sticky «Создать», a bulk bar). */
const PRIMARY_ACTIONS = '.button-primary, .drv-btn--primary, .bulk-bar';
/** The screen's bottom band where the toasts stand (three of them), in px. */
const TOAST_BAND = 300;

/**
 * Sets `--toast-lift` (styles.css): the room the toasts leave at the screen's bottom so that they stand above every
 * primary action in their band — measured when a toast is raised, as the screen is then.
 */
function liftToasts(): void {
  if (typeof document === 'undefined') return;
  const bottom = window.innerHeight;
  let lift = 0;
  for (const action of document.querySelectorAll(PRIMARY_ACTIONS)) {
    const box = action.getBoundingClientRect();
    if (box.height > 0 && box.top < bottom && box.bottom > bottom - TOAST_BAND) lift = Math.max(lift, bottom - box.top + 8);
  }
  document.documentElement.style.setProperty('--toast-lift', `${Math.round(lift)}px`);
}

/** At most this many at once. */
export const TOAST_LIMIT = 3;
/** The toasts raised, oldest first (some may have closed since). */
const raised: Array<string | number> = [];

/**
 * Before a new toast: forgets the closed ones in `raised` (oldest first, changed in place) and answers the oldest
 * open ones to dismiss, so that the new one makes at most TOAST_LIMIT.
 */
export function makeRoom<Id>(raised: Id[], isActive: (id: Id) => boolean, limit = TOAST_LIMIT): Id[] {
  const open = raised.filter(isActive);
  const dismiss = open.splice(0, Math.max(0, open.length - (limit - 1)));
  raised.splice(0, raised.length, ...open);
  return dismiss;
}

export function showToast(kind: 'error' | 'warning' | 'info' | 'success', message: ToastContent, options?: ToastOptions): void {
  wantToasts();
  liftToasts();
  import('react-toastify')
    .then(({ toast }) => {
      // The newest always shows at once: the oldest on screen makes room (and slides out) rather than the new one
      // queueing behind the others' timers, as react-toastify's own `limit` does (a bulk assign's result waited
      // 7 s behind three moves' undo toasts). A dismissed toast is no longer active at once.
      for (const id of makeRoom(raised, (id) => toast.isActive(id))) toast.dismiss(id);
      const id = toast[kind](message, options);
      // A toast raised again under its own `toastId` while on screen is the same toast: counted once.
      if (!raised.includes(id)) raised.push(id);
    })
    .catch((error: unknown) => console.warn('toast not shown', message, error));
}
