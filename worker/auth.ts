/**
 * Authentication (docs/product.md §3, §4, §7 "Auth", §8): login, register, logout, profile fetch and the
 * token refresh, with the exact messages of the error catalogue and the offline-mode transitions.
 *
 * The refresh is single-flight twice over: within one engine all callers share one promise, and across
 * engines (one dedicated worker per tab) the 'auth-refresh' Web Lock serialises them; after the lock is
 * granted the tokens are re-read, and when another engine already rotated them the new ones are used.
 */
import type { RegistrationReceipt, RegistrationReviewer, User, UserWire, TokenPair } from '../contract/entities.ts';
import type { RegistrationPayload } from '../contract/payloads.ts';
import type { Result, StartupOutcome } from './api.ts';
import { flattenUser, type AuthState, type TokenStore } from './auth-store.ts';
import { failure, isNetworkError, toFailure, type Http } from './http.ts';
import type { Locks } from './ports.ts';
import { runStartup, tokenRole, type StartupDeps } from './startup.ts';

export const REFRESH_LOCK = 'auth-refresh';

export const AUTH_MESSAGES = {
  registrationFailed: 'Registration failed',
  loginFailed: 'Login failed',
  profileFailed: 'Failed to fetch user',
  noRefreshToken: 'No refresh token available',
  refreshNetwork: 'Network error while refreshing token',
  refreshFailed: 'Token refresh failed',
  /** The error a profile fetch sets when it reports offline (docs/product.md §4). */
  offline: 'offline',
} as const;

export interface AuthDeps {
  http: Http;
  tokens: TokenStore;
  state: AuthState;
  locks: Locks;
  now(): number;
  online(): boolean;
  /** device_id (from the tab's localStorage) and device_info. */
  device(): { deviceId: string; deviceInfo: string };
  /** The GET cache: logout clears it; a login keeps only the new user's entries. */
  cache: { clear(): Promise<void>; keepOnly(userId: number): Promise<void> };
}

export interface Auth {
  startup(): Promise<StartupOutcome>;
  login(username: string, password: string, pushSubscription?: unknown): Promise<Result<User>>;
  /** Answers who will review the request ('company' when the server does not say). */
  register(payload: RegistrationPayload): Promise<Result<RegistrationReviewer>>;
  logout(): Promise<void>;
  fetchProfile(): Promise<Result<User>>;
  /** The token refresh (docs/product.md §7). `failedToken`: the access token a server refused, if a 401 started this. */
  refresh(failedToken?: string | null): Promise<Result<string>>;
  /** For http.ts: the fresh access token, or null. */
  refreshAccess(failedToken: string | null): Promise<string | null>;
  /** Another engine logged in or out: the next startup() runs again. */
  forgetStartup(): void;
}

export function createAuth(deps: AuthDeps): Auth {
  const { http, tokens, state } = deps;
  let refreshing: Promise<Result<string>> | null = null;
  let startupRun: Promise<StartupOutcome> | null = null;

  async function refreshUnderLock(failedToken: string | null | undefined): Promise<Result<string>> {
    return deps.locks.request(REFRESH_LOCK, async (): Promise<Result<string>> => {
      const stored = await tokens.read();
      // Another engine rotated the tokens while this one waited for the lock: use them, don't refresh again.
      if (failedToken !== undefined && stored.access !== null && stored.access !== failedToken) {
        return { ok: true, data: stored.access };
      }
      if (!stored.refresh) return failure(AUTH_MESSAGES.noRefreshToken);
      try {
        const response = await http.raw<TokenPair>({
          method: 'POST',
          url: 'auth/refresh/',
          data: { refresh_token: stored.refresh },
          skipAuthRefresh: true,
          withoutToken: true,
        });
        await tokens.write(response.data);
        return { ok: true, data: response.data.access_token };
      } catch (error) {
        if (isNetworkError(error)) return failure(AUTH_MESSAGES.refreshNetwork, true, toFailure(error, '').status);
        return toFailure(error, AUTH_MESSAGES.refreshFailed);
      }
    });
  }

  async function refreshOnce(failedToken: string | null | undefined): Promise<Result<string>> {
    const before = await tokens.read();
    const hadSession = before.access !== null || before.refresh !== null || state.get().user !== null;
    const result = await refreshUnderLock(failedToken);
    if (result.ok) {
      // Announced even when nothing visible changed: the other engines leave offline mode too.
      state.update({ offlineMode: false, error: null }, 'refresh');
      // The server refuses a token whose role is no longer the user's; the new one carries the new role,
      // and the profile follows so the menu and the guard change without a new login.
      const role = tokenRole(result.data);
      const user = state.get().user;
      if (user && role && role !== user.role) void fetchProfile();
    } else if (result.status === 401 && !result.network && hadSession) {
      // The server itself refused the session (logged out elsewhere, account deactivated, role or password
      // changed, token expired): no network can bring it back, so the device goes to /login with the reason.
      await endRefusedSession(result.message);
    } else if (hadSession || state.get().user !== null) {
      // docs/product.md §4: a failed refresh while tokens or a user exist → offline mode, still authenticated.
      state.update({ offlineMode: true, error: result.message }, 'offline');
    }
    return result;
  }

  function sharedRefresh(failedToken: string | null | undefined): Promise<Result<string>> {
    refreshing ??= refreshOnce(failedToken).finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function refresh(failedToken?: string | null): Promise<Result<string>> {
    const result = await sharedRefresh(failedToken);
    // A run started for an older token may answer the very token that failed here: that one needs its own.
    if (result.ok && failedToken && result.data === failedToken) return sharedRefresh(failedToken);
    return result;
  }

  async function fetchProfile(): Promise<Result<User>> {
    const result = await http.request<UserWire>({ method: 'GET', url: 'users/me/' }, AUTH_MESSAGES.profileFailed);
    if (!result.ok) {
      if (result.network) state.update({ offlineMode: true, error: AUTH_MESSAGES.offline }, 'offline');
      else state.update({ error: result.message });
      return result;
    }
    const user = flattenUser(result.data);
    await tokens.writeProfile(user);
    state.update({ user, isAuthenticated: true, offlineMode: false, error: null }, 'profile');
    return { ok: true, data: user };
  }

  /** A session the server refused: tokens and cached answers go, the reason stays as the snapshot's error. */
  async function endRefusedSession(reason: string): Promise<void> {
    await tokens.clear();
    await deps.cache.clear();
    startupRun = null;
    state.update({ isAuthenticated: false, user: null, offlineMode: false, loading: false, error: reason }, 'logout');
  }

  /** Ends the session on this device; `dropTokens` false keeps them for a later start with network. */
  async function endSession(dropTokens: boolean): Promise<void> {
    if (dropTokens) await tokens.clear();
    state.update({ isAuthenticated: false, user: null, offlineMode: false, loading: false }, dropTokens ? 'logout' : 'local');
  }

  const startupDeps: StartupDeps = {
    tokens,
    state,
    now: deps.now,
    online: deps.online,
    refresh: (failedToken) => refresh(failedToken),
    fetchProfile,
    endSession,
  };

  return {
    startup() {
      startupRun ??= runStartup(startupDeps);
      return startupRun;
    },

    async login(username, password, pushSubscription) {
      state.update({ loading: true, error: null });
      const { deviceId, deviceInfo } = deps.device();
      const login = await http.request<TokenPair>(
        {
          method: 'POST',
          url: 'auth/login/',
          data: { username, password, device_id: deviceId, device_info: deviceInfo, push_subscription: pushSubscription ?? null },
          skipAuthRefresh: true,
          withoutToken: true,
        },
        AUTH_MESSAGES.loginFailed,
      );
      if (!login.ok) {
        state.update({ loading: false, error: login.message });
        return login;
      }
      await tokens.write(login.data);
      const profile = await fetchProfile();
      if (!profile.ok) {
        // Without a user the session is useless: the screen shows why and the user may try again.
        await tokens.clear();
        state.update({ isAuthenticated: false, user: null, offlineMode: false, loading: false, error: profile.message });
        return profile;
      }
      await deps.cache.keepOnly(profile.data.id);
      startupRun = Promise.resolve({ toast: null, redirectToLogin: false });
      state.update({ isAuthenticated: true, loading: false, offlineMode: false, error: null }, 'login');
      return profile;
    },

    async register(payload) {
      state.update({ loading: true, error: null });
      const result = await http.request<Partial<RegistrationReceipt> | null>(
        { method: 'POST', url: 'users/', data: payload, skipAuthRefresh: true, withoutToken: true },
        AUTH_MESSAGES.registrationFailed,
      );
      state.update({ loading: false, error: result.ok ? null : result.message });
      return result.ok ? { ok: true, data: result.data?.reviewer === 'super-admin' ? 'super-admin' : 'company' } : result;
    },

    async logout() {
      const stored = await tokens.read();
      if (stored.refresh) {
        // Whatever the network says, the device forgets the session below.
        await http.request({ method: 'POST', url: 'auth/logout/', data: { refresh_token: stored.refresh }, skipAuthRefresh: true });
      }
      await tokens.clear();
      await deps.cache.clear();
      startupRun = null;
      state.update({ isAuthenticated: false, user: null, offlineMode: false, error: null, loading: false }, 'logout');
    },

    fetchProfile,
    refresh,
    async refreshAccess(failedToken) {
      const result = await refresh(failedToken);
      return result.ok ? result.data : null;
    },
    forgetStartup() {
      startupRun = null;
    },
  };
}
