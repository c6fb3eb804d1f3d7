/**
 * Whether the server can be reached now, for the controls whose action needs it. The banner
 * (docs/product.md §2) says that the app is offline; these say what that means for one button: it is
 * disabled, with the short reason below as its title or helper text. Queueing a report is not one of
 * them — the outbox is there for exactly that.
 */
import type { Snapshot } from '../../worker/api.ts';
import { useEngineSnapshot } from './store.ts';

export const NEEDS_SERVER = 'Нужна связь с сервером';

/** The network is up and the engine is not in offline mode (the server was unreachable or refused the session). */
export function isServerReachable({ network, auth }: Pick<Snapshot, 'network' | 'auth'>): boolean {
  return network.online && !network.offlineMode && !auth.offlineMode;
}

export function useOnline(): boolean {
  return isServerReachable(useEngineSnapshot());
}

/**
 * For a control whose action needs the server: `offline` disables it, `reason` goes into its `title`
 * (undefined while online, so no tooltip shows then).
 */
export function useNeedsServer(): { offline: boolean; reason: string | undefined } {
  const offline = !useOnline();
  return { offline, reason: offline ? NEEDS_SERVER : undefined };
}
