/**
 * Builds the whole engine from its parts: createEngine(deps) → the WorkerApi that the entries
 * (shared.ts, dedicated.ts) expose through Comlink, plus the snapshot pushes to every connected tab.
 * Every browser primitive enters through `deps`, so tests/worker drives this exact code with doubles.
 *
 * The parts: the session (session.ts), what the tabs see (snapshots.ts), the tabs' HTTP calls (http-api.ts),
 * the outbox (outbox-api.ts), the live feed (live.ts), the recovery from offline mode and the alerts. This file
 * wires them together, relays what the other engines say over the channel, and answers the tabs' own calls.
 */
import type { AxiosAdapter } from 'axios';
import type { Snapshot, WorkerApi } from './api.ts';
import { createAlerts } from './alerts.ts';
import { isCrossTabMessage, type CrossTabMessage } from './cross-tab.ts';
import { createErrorReporter } from './error-reports.ts';
import type { FeedFetch } from './feed.ts';
import { createHttpApi } from './http-api.ts';
import { createLive } from './live.ts';
import { createOutboxApi } from './outbox-api.ts';
import { noOutbox, type OutboxFactory } from './outbox-types.ts';
import type { Channel, Clock, Locks, NetworkStatus } from './ports.ts';
import { createRecovery } from './recovery.ts';
import { createSession } from './session.ts';
import { createSnapshots } from './snapshots.ts';
import type { EngineStore } from './store.ts';
import { createTabs } from './tabs.ts';

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

export function createEngine(deps: EngineDeps): Engine {
  const { store, clock, locks, network, channel } = deps;
  const tabs = createTabs(locks);
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
      live?.nudge();
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
    live: () => live?.state() ?? null,
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
  const live = deps.feedFetch
    ? createLive({ baseURL: deps.baseURL, fetch: deps.feedFetch, clock, locks, network, channel, tokens, state, auth, recovery, outbox, alerts, snapshots })
    : null;

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

  // docs/product.md §8: a tab's uncaught errors reach the server, at most ten a minute.
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
      live?.stop();
      outbox.stop();
    },
  };
}
