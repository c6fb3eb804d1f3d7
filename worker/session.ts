/**
 * The signed-in session and the calls made on its behalf: the tokens and the auth state (announced to the other
 * engines over the channel, adopted from them), the HTTP client whose 401 starts the shared refresh, the GET cache
 * keyed by the user, and auth (login, logout, startup, refresh) — the `AuthApi` the tabs call. http and auth need
 * each other (401 → refresh → POST /auth/refresh/), so auth is bound into http late, here.
 */
import type { AxiosAdapter } from 'axios';
import type { AuthApi, Result, Snapshot } from './api.ts';
import { createAuth, type Auth } from './auth.ts';
import { createAuthState, createTokenStore, type AuthState, type TokenStore } from './auth-store.ts';
import { createCache, type GetCache } from './cache.ts';
import type { CrossTabMessage } from './cross-tab.ts';
import { createHttp, type Http } from './http.ts';
import type { Channel, Clock, Locks, NetworkStatus } from './ports.ts';
import type { EngineStore } from './store.ts';

export interface SessionDeps {
  mode: Snapshot['mode'];
  store: Pick<EngineStore, 'kv' | 'cache'>;
  /** Absolute '/api/' URL of the worker's origin. */
  baseURL: string;
  adapter?: AxiosAdapter;
  clock: Clock;
  locks: Locks;
  network: NetworkStatus;
  /** Dedicated-worker mode: auth changes are announced to the other tabs' engines. */
  channel?: Channel<CrossTabMessage>;
  /** device_id and device_info of the newest tab (login sends them). */
  device(): { deviceId: string; deviceInfo: string };
  /** The auth state changed, here or adopted from another engine. */
  changed(): void;
}

export interface Session {
  tokens: TokenStore;
  state: AuthState;
  http: Http;
  cache: GetCache;
  auth: Auth;
  /** The tabs' auth calls. */
  api: AuthApi;
  /** No network, or offline mode. */
  offline(): boolean;
  /**
   * A write that met a dead connection while the device says it is online: the server may be down. One
   * profile fetch finds out, and if it fails too, offline mode begins (docs/product.md §4), so the banner shows
   * and the next write fails at once. Answers `result` as it is.
   */
  afterNetworkFailure<T>(result: Result<T>): Result<T>;
  /** Another engine's auth change (dedicated-worker mode): adopted without announcing it back. */
  adopt(message: Extract<CrossTabMessage, { type: 'auth' }>): void;
}

export function createSession(deps: SessionDeps): Session {
  const { store, clock, locks, network, channel } = deps;
  const tokens = createTokenStore(store.kv);
  const state = createAuthState(deps.changed, (reason, auth) => channel?.postMessage({ type: 'auth', reason, auth }));
  let auth: Auth | null = null;
  const http = createHttp({
    baseURL: deps.baseURL,
    ...(deps.adapter ? { adapter: deps.adapter } : {}),
    accessToken: async () => (await tokens.read()).access,
    refreshAccess: (failedToken) => (auth ? auth.refreshAccess(failedToken) : Promise.resolve(null)),
  });
  const offline = () => !network.online() || state.get().offlineMode;
  const cache = createCache({
    store: store.cache,
    clock,
    offline,
    effectiveType: () => network.effectiveType(),
    userId: () => state.get().user?.id ?? null,
    fetch: (path, params) => http.getJson(path, params),
    // One engine per tab: identical GETs from several tabs share one request through a lock per key.
    ...(deps.mode === 'dedicated' ? { locks } : {}),
  });
  const bound = createAuth({
    http,
    tokens,
    state,
    locks,
    now: () => clock.now(),
    online: () => network.online(),
    device: deps.device,
    cache,
  });
  auth = bound;

  let checkingServer = false;
  function afterNetworkFailure<T>(result: Result<T>): Result<T> {
    if (!result.ok && result.network && network.online() && !state.get().offlineMode && !checkingServer && state.get().user) {
      checkingServer = true;
      void bound.fetchProfile().finally(() => (checkingServer = false));
    }
    return result;
  }

  return {
    tokens,
    state,
    http,
    cache,
    auth: bound,
    api: {
      startup: () => bound.startup(),
      login: (username, password, pushSubscription) => bound.login(username, password, pushSubscription),
      register: (payload) => bound.register(payload),
      logout: () => bound.logout(),
      fetchProfile: () => bound.fetchProfile(),
    },
    offline,
    afterNetworkFailure,
    adopt(message) {
      state.adopt(message.auth);
      if (message.reason === 'login' || message.reason === 'logout') bound.forgetStartup();
    },
  };
}
