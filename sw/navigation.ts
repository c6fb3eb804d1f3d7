/**
 * Navigations, network first: online, the server answers (its SPA fallback makes every route index.html,
 * so a new deployment is seen at once); on any failure — a rejected fetch, a network-error response, a dead
 * upstream or a stalled link — the precached app shell answers instead, so a reload offline still opens the app.
 */

/** docs/product.md §9: the slow-network time-out; past it the shell is better than a blank page. */
export const NAVIGATION_TIMEOUT_MS = 5_000;

/** A page load of the app itself: never the API (the engine owns its data), never another origin. */
export function isAppNavigation(request: Pick<Request, 'mode' | 'method' | 'url'>, origin: string): boolean {
  if (request.mode !== 'navigate' || request.method !== 'GET') return false;
  const url = new URL(request.url);
  return url.origin === origin && url.pathname !== '/api' && !url.pathname.startsWith('/api/');
}

export interface NavigationDeps {
  /** The network answer (the navigation preload when there is one). */
  network: () => Promise<Response>;
  /** The precached index.html, if the precache holds it. */
  shell: () => Promise<Response | undefined>;
  timeoutMs?: number;
}

class NavigationTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NavigationTimeout(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function networkFirstNavigation(deps: NavigationDeps): Promise<Response> {
  let response: Response;
  try {
    response = await withTimeout(deps.network(), deps.timeoutMs ?? NAVIGATION_TIMEOUT_MS);
  } catch {
    return (await deps.shell()) ?? Response.error();
  }
  if (isFailure(response)) return (await deps.shell()) ?? response;
  return response;
}

/**
 * An answer that is no page. A network error may arrive as a value rather than a rejection: Firefox resolves
 * a failed navigation preload with `Response.error()` (type 'error', status 0), and handing that to
 * `respondWith` shows the browser's error page. A proxy's 502/503/504 while the app server is down is no page
 * for a driver either. (An 'opaqueredirect' also has status 0, but it is a real answer: the browser follows it.)
 */
function isFailure(response: Response): boolean {
  return response.type === 'error' || response.status >= 500;
}
