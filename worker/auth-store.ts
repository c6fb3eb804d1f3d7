/**
 * Where the auth facts live: the tokens and the cached profile in IndexedDB (kv keys 'token', 'refresh',
 * 'profile'; docs/product.md §3) and the auth state of §3 in memory. The tokens are re-read from
 * IndexedDB for every use, because in dedicated-worker mode another tab's engine may rotate them.
 */
import type { User, UserWire } from '../contract/entities.ts';
import type { AuthSnapshot } from './api.ts';
import { KV } from './db.ts';
import type { KvStore } from './store.ts';

export interface Tokens {
  access: string | null;
  refresh: string | null;
}

export interface TokenStore {
  read(): Promise<Tokens>;
  write(pair: { access_token: string; refresh_token: string }): Promise<void>;
  clear(): Promise<void>;
  readProfile(): Promise<User | null>;
  writeProfile(user: User): Promise<void>;
}

function asString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function createTokenStore(kv: KvStore): TokenStore {
  return {
    async read() {
      const [access, refresh] = await kv.getMany([KV.token, KV.refresh]);
      return { access: asString(access), refresh: asString(refresh) };
    },
    async write(pair) {
      // One transaction: another engine never reads a new access token with the old refresh token.
      await kv.set({ [KV.token]: pair.access_token, [KV.refresh]: pair.refresh_token });
    },
    async clear() {
      await kv.delete([KV.token, KV.refresh, KV.profile]);
    },
    async readProfile() {
      const value = await kv.get(KV.profile);
      return value && typeof value === 'object' ? (value as User) : null;
    },
    async writeProfile(user) {
      await kv.set({ [KV.profile]: user });
    },
  };
}

/** docs/product.md §3: the role may arrive as {name}; it is flattened to the name. */
export function flattenUser(wire: UserWire): User {
  const role = typeof wire.role === 'object' && wire.role !== null ? wire.role.name : wire.role;
  return { ...wire, role };
}

/** Why the auth state changed; other tabs' engines adopt shared changes (dedicated-worker mode). */
export type AuthChange = 'login' | 'logout' | 'refresh' | 'profile' | 'offline' | 'local';

export type SharedAuth = Pick<AuthSnapshot, 'isAuthenticated' | 'user' | 'offlineMode' | 'error'>;

export const initialAuth: AuthSnapshot = {
  isAuthenticated: false,
  loading: false,
  error: null,
  user: null,
  initialized: false,
  offlineMode: false,
};

export interface AuthState {
  get(): AuthSnapshot;
  /** Applies a change; any reason but 'local' is announced to the other engines. */
  update(patch: Partial<AuthSnapshot>, reason?: AuthChange): void;
  /** Adopts a change announced by another engine, without announcing it again. */
  adopt(shared: SharedAuth): void;
}

export function createAuthState(onChange: () => void, announce: (reason: AuthChange, shared: SharedAuth) => void): AuthState {
  let current: AuthSnapshot = { ...initialAuth };
  const shared = (): SharedAuth => ({
    isAuthenticated: current.isAuthenticated,
    user: current.user,
    offlineMode: current.offlineMode,
    error: current.error,
  });
  return {
    get: () => current,
    update(patch, reason = 'local') {
      current = { ...current, ...patch };
      onChange();
      if (reason !== 'local') announce(reason, shared());
    },
    adopt(next) {
      current = { ...current, ...next };
      onChange();
    },
  };
}
