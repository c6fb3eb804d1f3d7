/**
 * The route guard of docs/product.md §4 ("Guard") as a pure function, so every step can be
 * tested without React. Protected.tsx renders its answer.
 */
import type { Role } from '../../contract/roles.ts';

export interface GuardAuth {
  isAuthenticated: boolean;
  loading: boolean;
  initialized: boolean;
  offlineMode: boolean;
  user: { role: Role } | null;
}

export type GuardResult = 'loading' | 'show' | { redirect: '/login'; replace: true };

// Step 4 also replaces: a pushed /login would send the back button straight into the forbidden route again.
const TO_LOGIN = { redirect: '/login', replace: true } as const;

export function guard(auth: GuardAuth, requiredRoles?: readonly Role[]): GuardResult {
  // 1. Nothing is known yet.
  if (auth.loading || !auth.initialized) return 'loading';
  // 2. Offline mode lets an unauthenticated visitor through: the cached data is all there is.
  if (!auth.isAuthenticated && !auth.offlineMode) return TO_LOGIN;
  // 3. Signed in, but the profile (and so the role) has not arrived yet.
  if (requiredRoles && !auth.user && !auth.offlineMode) return 'loading';
  // 4. With no user loaded (offline only, after step 3) there is no role to check.
  if (requiredRoles && auth.user && !requiredRoles.includes(auth.user.role)) return TO_LOGIN;
  // 5.
  return 'show';
}
