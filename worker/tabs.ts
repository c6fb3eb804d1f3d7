/**
 * The tabs connected to this engine. Each tab registers a snapshot callback (a Comlink proxy); it gets the
 * latest snapshot at once and every change after. Comlink has no close hook, so each tab holds a Web Lock
 * for its lifetime and the engine asks for the same lock: when the engine is granted it, the tab is gone
 * and its callback is dropped (as PowerSync's tab_close_signal does).
 */
import type { Snapshot, TabInfo } from './api.ts';
import type { Locks } from './ports.ts';

export type SnapshotCallback = (snapshot: Snapshot) => unknown;

export interface Tabs {
  add(info: TabInfo, callback: SnapshotCallback, latest: Snapshot): void;
  push(snapshot: Snapshot): void;
  count(): number;
  /** The open tabs' lock names, oldest first (the alerts pick one). */
  keys(): string[];
  /** The newest tab's device facts (every tab of an origin shares one device_id). */
  device(): { deviceId: string; deviceInfo: string };
}

export function createTabs(locks: Locks): Tabs {
  const tabs = new Map<number, { info: TabInfo; callback: SnapshotCallback }>();
  let nextId = 1;
  let device = { deviceId: '', deviceInfo: '' };

  function send(id: number, callback: SnapshotCallback, snapshot: Snapshot): void {
    try {
      // A proxy to a port that closed may reject; that tab is gone.
      void Promise.resolve(callback(snapshot)).catch(() => tabs.delete(id));
    } catch {
      tabs.delete(id);
    }
  }

  return {
    add(info, callback, latest) {
      const id = nextId++;
      tabs.set(id, { info, callback });
      device = { deviceId: info.deviceId, deviceInfo: info.deviceInfo };
      send(id, callback, latest);
      // A tab without Web Locks sends no lock name: it stays registered for the engine's life.
      if (!info.lockName) return;
      void locks
        .request(info.lockName, async () => {
          tabs.delete(id);
        })
        .catch(() => undefined);
    },
    push(snapshot) {
      for (const [id, tab] of tabs) send(id, tab.callback, snapshot);
    },
    count: () => tabs.size,
    keys: () => [...tabs.values()].map((tab) => tab.info.lockName).filter((name) => name !== ''),
    device: () => device,
  };
}
