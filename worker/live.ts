/**
 * The engine's use of the live change feed (worker/feed.ts): a change heard on it is a write from elsewhere (the
 * tabs refetch, other engines hear it), `reset` or an outage past a blink refetches everything, an alert goes to
 * one tab and is counted in all, and an open stream — proof the server answers — ends offline mode or sends the
 * queue. Keeps the stream's state for the staff banner (`network.live` of the snapshot).
 */
import type { Alerts } from './alerts.ts';
import type { NetworkSnapshot } from './api.ts';
import type { Auth } from './auth.ts';
import type { AuthState, TokenStore } from './auth-store.ts';
import type { CrossTabMessage } from './cross-tab.ts';
import { createFeed, type FeedFetch } from './feed.ts';
import type { EngineOutbox } from './outbox-api.ts';
import type { Channel, Clock, Locks, NetworkStatus } from './ports.ts';
import type { Recovery } from './recovery.ts';
import type { Snapshots } from './snapshots.ts';

/** A feed down for less than this is a blink: nothing to refetch when it is back. */
const LIVE_BLINK_MS = 3_000;

export interface LiveDeps {
  /** Absolute '/api/' URL. */
  baseURL: string;
  fetch: FeedFetch;
  clock: Clock;
  locks: Locks;
  network: NetworkStatus;
  /** Dedicated-worker mode: alerts are relayed to the other tabs' engines. */
  channel?: Channel<CrossTabMessage>;
  tokens: TokenStore;
  state: AuthState;
  auth: Pick<Auth, 'refreshAccess'>;
  recovery: Pick<Recovery, 'wake'>;
  outbox: Pick<EngineOutbox, 'flushEverything'>;
  alerts: Pick<Alerts, 'receive'>;
  snapshots: Pick<Snapshots, 'push' | 'write' | 'refetchEverything'>;
}

export interface Live {
  /** The stream as this engine knows it: null until it has tried once. */
  state(): NetworkSnapshot['live'];
  /** The auth state changed: the feed re-reads whether to hold a stream. */
  nudge(): void;
  stop(): void;
}

export function createLive(deps: LiveDeps): Live {
  const { clock, network, channel, state, snapshots } = deps;
  let live: NetworkSnapshot['live'] = null;
  let liveDownSince = 0;

  const feed = createFeed({
    baseURL: deps.baseURL,
    fetch: deps.fetch,
    clock,
    locks: deps.locks,
    network,
    accessToken: async () => (await deps.tokens.read()).access,
    refreshAccess: (failed) => deps.auth.refreshAccess(failed),
    signedIn: () => state.get().isAuthenticated || state.get().user !== null,
    // As a write made elsewhere: this engine's tabs refetch, and in fallback mode the other engines hear it.
    onChange: (path, method) => {
      if (live) live = { ...live, lastSeenAt: clock.now() };
      snapshots.write(path, method);
    },
    // Down → a banner on staff screens; back → everything on screen refetches (it may have missed changes).
    onState: (connected) => {
      const was = live?.connected ?? null;
      if (!connected && was !== false) liveDownSince = clock.now();
      // An outage past a blink (a restart, a token renewed) may have hidden changes: every tab refetches.
      if (connected && was === false && live?.lastSeenAt != null && clock.now() - liveDownSince > LIVE_BLINK_MS) snapshots.refetchEverything();
      live = { connected, lastSeenAt: connected ? clock.now() : (live?.lastSeenAt ?? null) };
      if (connected !== was) snapshots.push();
    },
    onReset: () => snapshots.refetchEverything(),
    // One tab shows it, every tab counts it; in fallback mode the other engines hear it over the channel.
    onAlert: (alert) => {
      deps.alerts.receive(alert, true);
      channel?.postMessage({ type: 'alert', alert });
    },
    // An open stream is proof the server answers: in offline mode, ask it now rather than at the next recovery
    // tick (its end flushes the queue); otherwise the queue goes now, reports waiting out a retry delay too.
    onOpen: () => {
      if (state.get().offlineMode) void deps.recovery.wake();
      else if (state.get().user !== null && network.online()) deps.outbox.flushEverything();
    },
  });

  return {
    state: () => live,
    nudge: () => feed.nudge(),
    stop: () => feed.stop(),
  };
}
