/**
 * What the engines of one origin tell each other over BroadcastChannel('reis-engine') when each tab runs
 * its own dedicated worker (ARCHITECTURE.md, "Browsers without a SharedWorker"). Tokens are not sent:
 * every engine re-reads them from IndexedDB. One tagged union for the whole protocol.
 */
import type { AuthChange, SharedAuth } from './auth-store.ts';

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
  | { type: 'reset' };

export function isCrossTabMessage(value: unknown): value is CrossTabMessage {
  if (!value || typeof value !== 'object') return false;
  const type = (value as { type?: unknown }).type;
  if (type === 'outbox' || type === 'reset') return true;
  if (type === 'write') return typeof (value as { path?: unknown }).path === 'string';
  if (type === 'notice') return typeof (value as { message?: unknown }).message === 'string';
  return type === 'auth' && typeof (value as { auth?: unknown }).auth === 'object';
}
