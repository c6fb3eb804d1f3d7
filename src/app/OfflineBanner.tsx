/** The yellow banner of SPEC.md section 2: offline mode wins over a plain lack of network. */
import { useEngineSnapshot } from '../engine/store.ts';

export const OFFLINE_MODE_TEXT = 'Приложение работает в офлайн-режиме (данные из кэша)';
export const NO_NETWORK_TEXT = 'Нет подключения к сети';

export function OfflineBanner() {
  const { auth, network } = useEngineSnapshot();
  const text = network.offlineMode || auth.offlineMode ? OFFLINE_MODE_TEXT : !network.online ? NO_NETWORK_TEXT : null;
  if (!text) return null;
  return (
    <div className="offline-banner" role="status">
      {text}
    </div>
  );
}
