/**
 * A session the server ended while the tab was open (logged out on another device, account deactivated,
 * role or password changed): the engine drops the session with the server's reason as its error. The tab
 * tells the user why, in a toast, and the guard takes them to /login.
 */
import { useEffect, useRef } from 'react';
import type { AuthSnapshot } from '../engine/types.ts';
import { showToast } from './toasts.ts';

export function useSessionEndNotice(auth: Pick<AuthSnapshot, 'isAuthenticated' | 'error'>): void {
  const wasSignedIn = useRef(auth.isAuthenticated);
  useEffect(() => {
    if (wasSignedIn.current && !auth.isAuthenticated && auth.error) {
      showToast('error', auth.error, { toastId: `session-end:${auth.error}` });
    }
    wasSignedIn.current = auth.isAuthenticated;
  }, [auth.isAuthenticated, auth.error]);
}
