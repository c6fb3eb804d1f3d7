/**
 * Runs the engine's startup sequence once (docs/product.md §4, "Startup") and acts on its outcome:
 * a toast, and /login when the session cannot continue.
 */
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { getEngine } from '../engine/engine.ts';
import { PUBLIC_PATHS } from './nav.ts';
import { showToast } from '../ui/toasts.ts';

export function useStartup(): void {
  const [, navigate] = useLocation();
  useEffect(() => {
    // StrictMode runs effects twice; the engine answers both calls alike, and only the live one acts.
    let live = true;
    getEngine()
      .startup()
      .then((outcome) => {
        if (!live) return;
        if (outcome.toast) showToast('error', outcome.toast, { toastId: outcome.toast });
        // Someone already on a public page (registering, say) is not pulled away from it.
        if (outcome.redirectToLogin && !PUBLIC_PATHS.includes(window.location.pathname)) {
          navigate('/login', { replace: true });
        }
      })
      .catch((error: unknown) => console.error('startup failed', error));
    return () => {
      live = false;
    };
  }, [navigate]);
}
