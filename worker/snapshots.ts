/**
 * What the tabs see: the snapshot, built from the parts the other modules own and pushed to every connected tab
 * (coalesced per microtask, in order), and what the engine itself keeps in it — the notices for the user and the
 * two ways a tab is told to refetch: the write log (a write here, in another engine, or heard on the feed) and
 * `reconnectedAt` (the network or the server came back, or the feed missed changes: everything refetches).
 */
import type { AlertsSnapshot } from './alerts.ts';
import type { AuthSnapshot, EngineNotice, EngineWrite, NetworkSnapshot, OutboxSnapshot, Snapshot, TabInfo } from './api.ts';
import type { GetCache } from './cache.ts';
import type { CrossTabMessage } from './cross-tab.ts';
import type { Channel, Clock, NetworkStatus } from './ports.ts';
import type { SnapshotCallback, Tabs } from './tabs.ts';

const NOTICES_KEPT = 5;
const WRITES_KEPT = 20;

export interface SnapshotsDeps {
  mode: Snapshot['mode'];
  clock: Clock;
  network: NetworkStatus;
  tabs: Tabs;
  /** Dedicated-worker mode: writes and resets are relayed to the other tabs' engines. */
  channel?: Channel<CrossTabMessage>;
  /** A change makes the GETs in flight too old to share. */
  cache: Pick<GetCache, 'invalidate'>;
  /** The parts other modules own, read for every snapshot. */
  auth(): AuthSnapshot;
  outbox(): OutboxSnapshot;
  live(): NetworkSnapshot['live'];
  alerts(): AlertsSnapshot;
}

export interface Snapshots {
  /** Registers a tab: the latest snapshot at once, every change after. */
  connect(tab: TabInfo, onSnapshot: SnapshotCallback): Promise<void>;
  /** Something in the snapshot changed: every tab gets a new one. */
  push(): void;
  /** A message for the user, shown by this engine's tabs. */
  notice(message: string): void;
  /** Every tab of this browser refetches what a write touched (in dedicated mode via the channel, unless it came from there). */
  write(path: string, method: string | undefined, fromChannel?: boolean): void;
  /** Everything on screen may be stale (the feed missed changes): each tab refetches what it shows. */
  refetchEverything(fromChannel?: boolean): void;
}

export function createSnapshots(deps: SnapshotsDeps): Snapshots {
  const { clock, network, tabs, channel, cache } = deps;
  const notices: EngineNotice[] = [];
  const writes: EngineWrite[] = [];
  let reconnectedAt: number | null = null;
  let seenOnline = network.online();
  let seenOfflineMode = false;

  async function build(): Promise<Snapshot> {
    const online = network.online();
    const auth = deps.auth();
    const offlineMode = auth.offlineMode;
    if ((online && !seenOnline) || (!offlineMode && seenOfflineMode)) reconnectedAt = clock.now();
    seenOnline = online;
    seenOfflineMode = offlineMode;
    return {
      auth,
      network: { online, effectiveType: network.effectiveType(), offlineMode, reconnectedAt, live: deps.live() },
      outbox: await deps.outbox(),
      mode: deps.mode,
      notices: [...notices],
      writes: [...writes],
      alerts: deps.alerts(),
    };
  }

  // Pushes are coalesced per microtask and chained, so tabs see snapshots in order.
  let pushQueued = false;
  let pushChain: Promise<void> = Promise.resolve();
  function push(): void {
    if (pushQueued) return;
    pushQueued = true;
    queueMicrotask(() => {
      pushQueued = false;
      pushChain = pushChain.then(async () => tabs.push(await build())).catch((error: unknown) => {
        console.error('snapshot push failed', error);
      });
    });
  }

  return {
    async connect(tab, onSnapshot) {
      tabs.add(tab, onSnapshot, await build());
    },
    push,
    notice(message) {
      notices.push({ id: (notices.at(-1)?.id ?? 0) + 1, message, at: clock.now() });
      notices.splice(0, Math.max(0, notices.length - NOTICES_KEPT));
      push();
    },
    write(path, method, fromChannel = false) {
      // GETs in flight began before this change: the refetches it causes must not share them.
      cache.invalidate();
      writes.push({ seq: (writes.at(-1)?.seq ?? 0) + 1, path, ...(method ? { method } : {}) });
      writes.splice(0, Math.max(0, writes.length - WRITES_KEPT));
      push();
      if (!fromChannel) channel?.postMessage({ type: 'write', path, ...(method ? { method } : {}) });
    },
    refetchEverything(fromChannel = false) {
      cache.invalidate();
      reconnectedAt = clock.now();
      push();
      if (!fromChannel) channel?.postMessage({ type: 'reset' });
    },
  };
}
