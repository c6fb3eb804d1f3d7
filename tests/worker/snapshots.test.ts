/**
 * worker/snapshots.ts on its own: the parts it is given, the notices and the write log it keeps, the channel and
 * the cache it tells — without an engine around it.
 */
import { describe, expect, it } from 'vitest';
import { initialAuth } from '../../worker/auth-store.ts';
import type { Snapshot, TabInfo } from '../../worker/api.ts';
import type { CrossTabMessage } from '../../worker/cross-tab.ts';
import { createSnapshots } from '../../worker/snapshots.ts';
import { createTabs } from '../../worker/tabs.ts';
import { createFifoLocks, createManualClock, createNetwork, settle } from './doubles.ts';

const tab: TabInfo = { deviceId: 'device-1', deviceInfo: 'Vitest', lockName: '' };

function setup() {
  const clock = createManualClock();
  const network = createNetwork();
  const posted: CrossTabMessage[] = [];
  let invalidated = 0;
  const snapshots = createSnapshots({
    mode: 'dedicated',
    clock,
    network,
    tabs: createTabs(createFifoLocks()),
    channel: { postMessage: (message) => posted.push(message), subscribe: () => () => undefined },
    cache: { invalidate: () => (invalidated += 1) },
    auth: () => initialAuth,
    outbox: () => ({ pending: 0, flushing: false, items: [] }),
    live: () => null,
    alerts: () => ({ items: [], counts: {} }),
  });
  const seen: Snapshot[] = [];
  return { clock, network, posted, snapshots, seen, invalidated: () => invalidated, connect: () => snapshots.connect(tab, (s) => seen.push(s)) };
}

describe('snapshots', () => {
  it('a tab gets the parts it is given at once; changes in one tick are one push', async () => {
    const { snapshots, seen, connect } = setup();
    await connect();
    expect(seen).toEqual([
      {
        auth: initialAuth,
        network: { online: true, effectiveType: '4g', offlineMode: false, reconnectedAt: null, live: null },
        outbox: { pending: 0, flushing: false, items: [] },
        mode: 'dedicated',
        notices: [],
        writes: [],
        alerts: { items: [], counts: {} },
      },
    ]);
    snapshots.push();
    snapshots.notice('Отчёт отправлен');
    await settle();
    expect(seen).toHaveLength(2);
    expect(seen[1]?.notices?.map((n) => n.message)).toEqual(['Отчёт отправлен']);
  });

  it('keeps the last five notices and the last twenty writes', async () => {
    const { snapshots, seen, connect } = setup();
    await connect();
    for (let i = 1; i <= 7; i++) snapshots.notice(`n${i}`);
    for (let i = 1; i <= 25; i++) snapshots.write(`tasks/${i}/`, 'PUT');
    await settle();
    const latest = seen.at(-1);
    expect(latest?.notices?.map((n) => [n.id, n.message])).toEqual([3, 4, 5, 6, 7].map((i) => [i, `n${i}`]));
    expect(latest?.writes).toHaveLength(20);
    expect(latest?.writes?.[0]).toEqual({ seq: 6, path: 'tasks/6/', method: 'PUT' });
  });

  it('a write invalidates the cache and is relayed, unless it came over the channel', () => {
    const { snapshots, posted, invalidated } = setup();
    snapshots.write('tasks/1/', 'PUT');
    snapshots.write('tasks/2/', undefined, true);
    expect(invalidated()).toBe(2);
    expect(posted).toEqual([{ type: 'write', path: 'tasks/1/', method: 'PUT' }]);
  });

  it('a refetch of everything moves reconnectedAt, and so does the network coming back', async () => {
    const { snapshots, seen, posted, clock, network, connect } = setup();
    await connect();
    clock.advance(1_000);
    snapshots.refetchEverything();
    await settle();
    expect(posted).toEqual([{ type: 'reset' }]);
    expect(seen.at(-1)?.network.reconnectedAt).toBe(clock.now());

    network.setOnline(false);
    snapshots.push();
    await settle();
    clock.advance(1_000);
    network.setOnline(true);
    snapshots.push();
    await settle();
    expect(seen.at(-1)?.network.reconnectedAt).toBe(clock.now());
  });
});
