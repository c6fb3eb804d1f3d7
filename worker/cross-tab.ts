/**
 * What the engines of one origin tell each other over BroadcastChannel('reis-engine') when each tab runs
 * its own dedicated worker (README.md, "Architecture"). Tokens are not sent:
 * every engine re-reads them from IndexedDB. One tagged union for the whole protocol.
 */
import type { AuthChange, SharedAuth } from './auth-store.ts';
import { isStaffAlert, type StaffAlert } from '../contract/alerts.ts';

export const CHANNEL_NAME = 'reis-engine';

export type CrossTabMessage =
  /** A login, logout, token rotation, profile or offline-mode change: the others adopt the state. */
  | { type: 'auth'; reason: AuthChange; auth: SharedAuth }
  /** The report queue changed in IndexedDB: the others rebuild their outbox snapshot. */
  | { type: 'outbox' }
  /** A write succeeded in another tab's engine: this engine tells its tab to refetch what it touched. */
  | { type: 'write'; path: string; method?: string }
  /** Something the driver is told (a report delivered or given up): every tab shows it, whichever engine sent. */
  | { type: 'notice'; message: string }
  /** The change feed missed changes: every tab refetches what it shows. */
  | { type: 'reset' }
  /** An alert the stream's holder heard: every engine counts it, the last-focused tab's shows it (worker/alerts.ts). */
  | { type: 'alert'; alert: StaffAlert }
  /** A tab came to the front: the alerts go to it. */
  | { type: 'alert-focus'; tab: string }
  /** A tab opened a menu entry: its alert counter clears in every tab. */
  | { type: 'alert-seen'; path: string };

export function isCrossTabMessage(value: unknown): value is CrossTabMessage {
  if (!value || typeof value !== 'object') return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'outbox' || type === 'reset') return true;
  if (type === 'write') return typeof (value as { path?: unknown }).path === 'string';
  if (type === 'notice') return typeof (value as { message?: unknown }).message === 'string';
  if (type === 'alert') return isStaffAlert((value as { alert?: unknown }).alert);
  if (type === 'alert-focus') return typeof (value as { tab?: unknown }).tab === 'string';
  if (type === 'alert-seen') return typeof (value as { path?: unknown }).path === 'string';
  return type === 'auth' && typeof (value as { auth?: unknown }).auth === 'object';
}
