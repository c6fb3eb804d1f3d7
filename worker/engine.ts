/**
 * Builds the whole engine from its parts: createEngine(deps) → the WorkerApi that the entries
 * (shared.ts, dedicated.ts) expose through Comlink, plus the snapshot pushes to every connected tab.
 * Every browser primitive enters through `deps`, so tests/worker drives this exact code with doubles.
 */
import type { AxiosAdapter } from 'axios';
import type { NetworkSnapshot, Snapshot, WorkerApi } from './api.ts';
import { isCrossTabMessage, type CrossTabMessage } from './cross-tab.ts';
import { createHttpApi } from './http-api.ts';
import { createOutboxApi } from './outbox-api.ts';
import { noOutbox, type OutboxFactory } from './outbox-types.ts';
import type { Channel, Clock, Locks, NetworkStatus } from './ports.ts';
import { createRecovery } from './recovery.ts';
import { createSession } from './session.ts';
import { createSnapshots } from './snapshots.ts';
import type { EngineStore } from './store.ts';
import { createTabs } from './tabs.ts';
import { createAlerts } from './alerts.ts';
import { createErrorReporter } from './error-reports.ts';
import { createFeed, type Feed, type FeedFetch } from './feed.ts';

export type { Outbox, OutboxDeps, OutboxFactory } from './outbox-types.ts';

export interface EngineDeps {
  mode: Snapshot['mode'];
  /** IndexedDB behind worker/store.ts (worker/idb-store.ts createIdbStore). */
  store: EngineStore;
  /** Absolute '/api/' URL of the worker's origin. */
  baseURL: string;
  clock: Clock;
  locks: Locks;
  network: NetworkStatus;
  /** Dedicated-worker mode: the channel to the other tabs' engines. */
  channel?: Channel<CrossTabMessage>;
  adapter?: AxiosAdapter;
  /** The report outbox (worker/outbox.ts createOutbox); without it, queueing answers a failure. */
  outbox?: OutboxFactory;
  /** Photo compression for sendForm and the outbox; defaults to worker/images.ts compressPhoto, tests pass a double. */
  compress?: (photo: Blob) => Promise<Blob>;
  /** The live change feed's fetch (worker/feed.ts); without it the engine holds no stream. */
  feedFetch?: FeedFetch;
}

export interface Engine {
  api: WorkerApi;
  /** Stops timers and listeners (tests, or a worker that shuts down). */
  close(): void;
}

/** A feed down for less than this is a blink: nothing to refetch when it is back. */
const LIVE_BLINK_MS = 3_000;

export function createEngine(deps: EngineDeps): Engine {
  const { store, clock, locks, network, channel } = deps;
  const tabs = createTabs(locks);
  // The change feed's state for the staff banner: null until this engine's stream has tried once.
  let live: NetworkSnapshot['live'] = null;
  let liveDownSince = 0;
  let feed: Feed | null = null;
  const session = createSession({
    mode: deps.mode,
    store,
    baseURL: deps.baseURL,
    adapter: deps.adapter,
    clock,
    locks,
    network,
    channel,
    device: () => tabs.device(),
    changed: () => {
      snapshots.push();
      outbox.authChanged();
      feed?.nudge();
    },
  });
  const { tokens, state, http, cache, auth, offline, afterNetworkFailure } = session;
  const alerts = createAlerts({ clock, tabs: () => tabs.keys(), dedicated: deps.mode === 'dedicated', changed: () => snapshots.push() });
  const snapshots = createSnapshots({
    mode: deps.mode,
    clock,
    network,
    tabs,
    channel,
    cache,
    auth: () => state.get(),
    outbox: () => outbox.snapshot(),
    live: () => live,
    alerts: () => alerts.snapshot(),
  });

  const recovery = createRecovery({ clock, network, tokens, state, auth });
  const outbox = createOutboxApi({
    store,
    clock,
    locks,
    network,
    channel,
    outbox: deps.outbox ?? noOutbox,
    compress: deps.compress,
    state,
    http,
    cache,
    offline,
    afterNetworkFailure,
    recovery,
    snapshots,
  });
  const httpApi = createHttpApi({ clock, network, state, http, cache, afterNetworkFailure, recovery, compress: outbox.compress, snapshots });

  if (deps.feedFetch) {
    feed = createFeed({
      baseURL: deps.baseURL,
      fetch: deps.feedFetch,
      clock,
      locks,
      network,
      accessToken: async () => (await tokens.read()).access,
      refreshAccess: (failed) => auth.refreshAccess(failed),
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
        alerts.receive(alert, true);
        channel?.postMessage({ type: 'alert', alert });
      },
      // The server answers: in offline mode, ask it now rather than at the next recovery tick.
      // An open stream is proof the server answers: in offline mode, ask it now rather than at the next recovery
      // tick (its end flushes the queue); otherwise the queue goes now, reports waiting out a retry delay too.
      onOpen: () => {
        if (state.get().offlineMode) void recovery.wake();
        else if (state.get().user !== null && network.online()) outbox.flushEverything();
      },
    });
  }

  const unsubscribeChannel = channel?.subscribe((message) => {
    if (!isCrossTabMessage(message)) return;
    if (message.type === 'reset') {
      snapshots.refetchEverything(true);
      return;
    }
    if (message.type === 'notice') {
      snapshots.notice(message.message);
      return;
    }
    if (message.type === 'write') {
      snapshots.write(message.path, message.method, true);
      return;
    }
    if (message.type === 'alert') {
      alerts.receive(message.alert, false);
      return;
    }
    if (message.type === 'alert-focus') {
      alerts.focus(message.tab);
      return;
    }
    if (message.type === 'alert-seen') {
      alerts.seen(message.path);
      return;
    }
    if (message.type === 'outbox') {
      outbox.reload();
      return;
    }
    session.adopt(message);
  });
  const unsubscribeNetwork = network.subscribe(() => {
    recovery.onNetworkChange();
    snapshots.push();
  });
  outbox.start();

  // SPEC.md section 8: a tab's uncaught errors reach the server, at most ten a minute.
  const logClientError = createErrorReporter({ clock, http, deviceId: () => tabs.device().deviceId });

  const api: WorkerApi = {
    connect: (tab, onSnapshot) => snapshots.connect(tab, onSnapshot),
    logClientError,
    async tabFocused(tab) {
      alerts.focus(tab);
      channel?.postMessage({ type: 'alert-focus', tab });
    },
    async alertsSeen(path) {
      alerts.seen(path);
      channel?.postMessage({ type: 'alert-seen', path });
    },
    async networkChanged() {
      network.notify?.();
    },
    wake: () => recovery.wake(),
    ...session.api,
    ...httpApi,
    ...outbox.api,
  };

  return {
    api,
    close() {
      unsubscribeChannel?.();
      unsubscribeNetwork();
      recovery.stop();
      feed?.stop();
      outbox.stop();
    },
  };
}
