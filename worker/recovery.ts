/**
 * Leaving offline mode (docs/product.md §4: only a successful refresh or profile fetch clears it). When
 * the network comes back while in offline mode, the engine tries at once: a refresh first if the access
 * token is (nearly) expired, then the profile. While offline mode lasts with the network up (the server
 * was down, or refused), it tries again on a short back-off: 5 s, then every 8 s — so the queue moves within
 * 10 s of the server coming back however long it was gone; one GET of the profile per 8 s per
 * engine is the price while the server is unreachable. A tab coming to the front, or «Отправить сейчас», wakes it
 * for an attempt at once and starts the back-off over.
 */
import type { Auth } from './auth.ts';
import type { AuthState, TokenStore } from './auth-store.ts';
import type { Clock, NetworkStatus } from './ports.ts';
import { expiresSoon } from './startup.ts';

export const RECOVERY_FIRST_DELAY_MS = 5_000;
export const RECOVERY_MAX_DELAY_MS = 8_000;
/** How often the schedule is looked at (cheap: no request unless an attempt is due). */
const TICK_MS = 1_000;

export interface RecoveryDeps {
  clock: Clock;
  network: NetworkStatus;
  tokens: TokenStore;
  state: AuthState;
  auth: Pick<Auth, 'refresh' | 'fetchProfile'>;
}

export interface Recovery {
  /** Call on every online/offline/connection event. */
  onNetworkChange(): void;
  /** One attempt now (shared if one is running); answers whether offline mode ended. */
  attempt(): Promise<boolean>;
  /**
   * A user is there (a tab came to the front, «Отправить сейчас»): in offline mode with the network up,
   * try now and start the back-off over; answers whether the engine is out of offline mode.
   */
  wake(): Promise<boolean>;
  stop(): void;
}

export function createRecovery(deps: RecoveryDeps): Recovery {
  const { clock, network, state } = deps;
  let running: Promise<boolean> | null = null;
  let delay = RECOVERY_FIRST_DELAY_MS;
  let nextAt = clock.now() + RECOVERY_FIRST_DELAY_MS;
  let wasOnline = network.online();

  function wanted(): boolean {
    const auth = state.get();
    return network.online() && auth.offlineMode && (auth.isAuthenticated || auth.user !== null);
  }

  async function tryOnce(): Promise<boolean> {
    const { access } = await deps.tokens.read();
    if (access === null || expiresSoon(access, clock.now())) {
      const refreshed = await deps.auth.refresh(access);
      if (!refreshed.ok) return false;
    }
    const profile = await deps.auth.fetchProfile();
    return profile.ok;
  }

  function attempt(): Promise<boolean> {
    running ??= tryOnce()
      .then((recovered) => {
        delay = recovered ? RECOVERY_FIRST_DELAY_MS : Math.min(delay * 2, RECOVERY_MAX_DELAY_MS);
        nextAt = clock.now() + delay;
        return recovered;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  const ticker = clock.setInterval(() => {
    if (wanted() && clock.now() >= nextAt) void attempt();
  }, TICK_MS);

  return {
    onNetworkChange() {
      const online = network.online();
      const cameBack = online && !wasOnline;
      wasOnline = online;
      if (cameBack && wanted()) {
        delay = RECOVERY_FIRST_DELAY_MS;
        void attempt();
      }
    },
    attempt,
    async wake() {
      if (!wanted()) return !state.get().offlineMode;
      delay = RECOVERY_FIRST_DELAY_MS;
      return attempt();
    },
    stop: () => clock.clearInterval(ticker),
  };
}
