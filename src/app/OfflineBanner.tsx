/**
 * The yellow banner of docs/product.md §2: offline mode wins over a plain lack of network. For staff, also the live
 * feed's state: when the change feed is down (the server is not heard from) for more than a moment, the screen may
 * be stale and the banner says so, with when the server was last heard; it goes when the feed is back (and the
 * screens refetch then: worker/engine.ts).
 */
import { useEffect, useState } from 'react';
import { useEngineSnapshot } from '../engine/store.ts';

export const OFFLINE_MODE_TEXT = 'Приложение работает в офлайн-режиме (данные из кэша)';
export const NO_NETWORK_TEXT = 'Нет подключения к сети';

export const LIVE_DOWN_TEXT = 'Нет связи с сервером — данные на экране могут быть устаревшими';
/** A feed down for less than this is a blink (a restart, a token renewed): no banner. */
const LIVE_GRACE_MS = 3_000;

export function OfflineBanner() {
  const { auth, network } = useEngineSnapshot();
  const staff = auth.user !== null && auth.user.role !== 'driver';
  const down = staff && network.live?.connected === false;
  const last = network.live?.lastSeenAt ?? null;
  // The outage (known by when the server was last heard) confirmed after the grace period; set from a timer only.
  const [confirmed, setConfirmed] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    if (!down) return;
    const timer = setTimeout(() => setConfirmed(last), LIVE_GRACE_MS);
    return () => clearTimeout(timer);
  }, [down, last]);
  const liveText = down && confirmed === last ? `${LIVE_DOWN_TEXT}${last ? ` (обновлено в ${new Date(last).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' })})` : ''}` : null;
  const text = network.offlineMode || auth.offlineMode ? OFFLINE_MODE_TEXT : !network.online ? NO_NETWORK_TEXT : liveText;
  if (!text) return null;
  return (
    <div className="offline-banner" role="status">
      {text}
    </div>
  );
}
