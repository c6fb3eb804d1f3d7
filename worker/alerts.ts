/**
 * The engine's alerts to the dispatcher (docs/alerts.md): an alert heard on the change feed is shown in ONE tab —
 * the focused or last-focused one — and counted beside its menu entry in every tab until a tab opens that entry.
 * The tabs only render what the snapshot says: `items` name the tab that shows each one (its Web Lock name).
 *
 * Shared mode: one engine sees every tab, so it picks the last focused one still open, else the newest. Dedicated
 * mode (no SharedWorker): each tab's engine hears the alert (the stream's holder relays it over the channel) and
 * the focus of other tabs (relayed too), so every engine names the same tab; before any tab was focused, the
 * stream's holder names its own.
 */
import type { StaffAlert } from '../contract/alerts.ts';
import { ALERT_MENU } from '../contract/alerts.ts';
import type { Clock } from './ports.ts';

export interface AlertItem extends StaffAlert {
  seq: number;
  at: number;
  /** The tab (its lock name) that shows it as a toast; null: none of this engine's tabs. */
  tab: string | null;
}

export interface AlertsSnapshot {
  items: AlertItem[];
  /** Unseen alerts per menu path ('/reports', '/dispatch', '/carrier-transfers'). */
  counts: Record<string, number>;
}

export interface AlertsDeps {
  clock: Pick<Clock, 'now'>;
  /** This engine's open tabs, oldest first. */
  tabs(): string[];
  /** Dedicated mode: other engines' tabs exist beyond `tabs()`. */
  dedicated: boolean;
  changed(): void;
}

const KEPT = 20;
const MAX_COUNT = 999;

export interface Alerts {
  /** An alert: `local` when this engine heard it on its own stream (not relayed by another engine). */
  receive(alert: StaffAlert, local: boolean): void;
  focus(tab: string): void;
  /** A tab opened a menu entry: its counter starts again from zero. */
  seen(path: string): void;
  snapshot(): AlertsSnapshot;
}

export function createAlerts(deps: AlertsDeps): Alerts {
  const items: AlertItem[] = [];
  const counts: Record<string, number> = {};
  let lastFocused: string | null = null;

  function target(local: boolean): string | null {
    const open = deps.tabs();
    if (lastFocused !== null && (open.includes(lastFocused) || deps.dedicated)) return lastFocused;
    return local ? (open.at(-1) ?? null) : null;
  }

  return {
    receive(alert, local) {
      items.push({ ...alert, seq: (items.at(-1)?.seq ?? 0) + 1, at: deps.clock.now(), tab: target(local) });
      items.splice(0, Math.max(0, items.length - KEPT));
      const path = ALERT_MENU[alert.kind];
      counts[path] = Math.min(MAX_COUNT, (counts[path] ?? 0) + 1);
      deps.changed();
    },
    focus(tab) {
      lastFocused = tab;
    },
    seen(path) {
      if (!counts[path]) return;
      delete counts[path];
      deps.changed();
    },
    snapshot: () => ({ items: [...items], counts: { ...counts } }),
  };
}
