/**
 * The startup sequence of docs/product.md §4, step by step. It answers what the tab should do
 * (a toast and/or a redirect to /login); the auth state changes on the way are pushed in snapshots.
 */
import { jwtDecode } from 'jwt-decode';
import type { User } from '../contract/entities.ts';
import type { Result, StartupOutcome } from './api.ts';
import type { AuthState, TokenStore } from './auth-store.ts';

/** docs/product.md §9: an access token this close to expiry is refreshed first. */
export const EXPIRY_MARGIN_MS = 60_000;

export const STARTUP_TOASTS = {
  offlineWithoutCache: 'Необходимо подключение к интернету для входа',
  refreshFailed: 'Ошибка обновления токена, пожалуйста, войдите заново',
  profileFailed: 'Не удалось получить профиль, выполните вход заново',
} as const;

export interface StartupDeps {
  tokens: TokenStore;
  state: AuthState;
  now(): number;
  online(): boolean;
  refresh(failedToken: string | null): Promise<Result<string>>;
  fetchProfile(): Promise<Result<User>>;
  /** The sequence sends the user to /login: the session ends here; tokens go only when the server refused them. */
  endSession(dropTokens: boolean): Promise<void>;
}

const proceed: StartupOutcome = { toast: null, redirectToLogin: false };

/** True when the token is unreadable, has no exp, or expires within the margin. */
export function expiresSoon(token: string, now: number, marginMs = EXPIRY_MARGIN_MS): boolean {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp !== 'number' || exp * 1000 - now <= marginMs;
  } catch {
    return true;
  }
}

/** The role an access token was issued for, or null when it cannot be read. */
export function tokenRole(token: string): string | null {
  try {
    const { role } = jwtDecode<{ role?: unknown }>(token);
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}

export async function runStartup(deps: StartupDeps): Promise<StartupOutcome> {
  const { state } = deps;

  // 1. Tokens are read from local storage and initialisation is marked finished.
  const tokens = await deps.tokens.read();
  const authenticated = tokens.access !== null;
  state.update({ isAuthenticated: authenticated, initialized: true });

  // 2. Authenticated without a user: the cached profile is loaded.
  if (authenticated && state.get().user === null) {
    const cached = await deps.tokens.readProfile();
    if (cached) state.update({ user: cached });
  }
  const hasCache = state.get().user !== null;

  // 3. and 4. Offline: with a cache, offline mode and go on; without one, nothing can work.
  if (!deps.online()) {
    if (hasCache) {
      state.update({ offlineMode: true });
      return proceed;
    }
    // The tokens stay: a start with network may still resume the session.
    if (authenticated) await deps.endSession(false);
    return { toast: STARTUP_TOASTS.offlineWithoutCache, redirectToLogin: true };
  }
  if (!authenticated || tokens.access === null) return proceed;

  // 5. An access token that is expired or within 60 s of expiry is refreshed first.
  if (expiresSoon(tokens.access, deps.now())) {
    const refreshed = await deps.refresh(tokens.access);
    if (!refreshed.ok) {
      // The failed refresh already put the app in offline mode: with a cache, the app goes on from it.
      if (hasCache) return proceed;
      await deps.endSession(!refreshed.network);
      return { toast: STARTUP_TOASTS.refreshFailed, redirectToLogin: true };
    }
  }

  // 6. The profile is fetched; without it and without a cache there is nothing to show.
  const profile = await deps.fetchProfile();
  if (!profile.ok && !hasCache) {
    await deps.endSession(!profile.network);
    return { toast: STARTUP_TOASTS.profileFailed, redirectToLogin: true };
  }
  return proceed;
}
