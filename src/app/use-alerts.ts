/**
 * Alerts to the dispatcher, the tab's half (docs/alerts.md): the engine names the one tab that shows each alert
 * (worker/alerts.ts); that tab toasts it (a click opens its screen), and, as the user chose in the profile, plays a
 * short sound and shows a system notification while the console is in the background. Alerts from before this
 * tab connected are not replayed. Opening a menu entry in a visible tab clears its counter everywhere.
 */
import { useEffect, useRef } from 'react';
import { showToast } from '../ui/toasts.ts';
import { useLocation } from 'wouter';
import type { AlertItem } from '../engine/types.ts';
import type { Role } from '../../contract/roles.ts';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from '../../contract/alerts.ts';
import { useEngineSnapshot } from '../engine/store.ts';
import { useGet } from '../engine/api.ts';
import { currentTabKey } from '../engine/connect.ts';
import { getEngine } from '../engine/engine.ts';

const STAFF_ROLES: readonly (Role | null)[] = ['manager', 'admin', 'super-admin'];

export function useStaffAlerts(role: Role | null): Record<string, number> {
  const staff = STAFF_ROLES.includes(role);
  const snapshot = useEngineSnapshot();
  const settingsQuery = useGet(staff ? 'GET /users/me/alerts' : null);
  const settings = settingsQuery.data?.data ?? DEFAULT_ALERT_SETTINGS;
  const [location, navigate] = useLocation();
  const lastSeq = useRef<number | null>(null);
  const items = snapshot.alerts?.items;
  const counts = staff ? (snapshot.alerts?.counts ?? {}) : {};

  useEffect(() => {
    if (!staff || !items) return;
    const newest = items.at(-1)?.seq ?? 0;
    const since = lastSeq.current;
    lastSeq.current = newest;
    // The first snapshot sets the baseline; a restarted engine counts from 1 again: then all it lists is new.
    if (since === null) return;
    const fresh = items.filter((item) => newest < since || item.seq > since);
    const mine = fresh.filter((item) => item.tab !== null && item.tab === currentTabKey() && settings.kinds.includes(item.kind));
    for (const item of mine) show(item, settings, navigate);
  }, [items, staff, settings, navigate]);

  // The screen an alert counts for, opened in a tab the user looks at: seen.
  const countHere = counts[location] ?? 0;
  useEffect(() => {
    if (countHere > 0 && document.visibilityState === 'visible') void getEngine().alertsSeen(location);
  }, [countHere, location]);

  return counts;
}

function show(item: AlertItem, settings: AlertSettings, navigate: (to: string) => void): void {
  showToast('info', item.text, { onClick: () => navigate(item.url), autoClose: 8_000, className: 'alert-toast' });
  if (settings.sound) beep();
  if (settings.notify && document.visibilityState === 'hidden') void notify(item);
}

let audio: AudioContext | null = null;

/** Two short tones, quiet: enough to turn a head, not to startle. */
function beep(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, frequency] of [[0, 880], [0.16, 660]] as const) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.08, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.14);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(start + offset);
      oscillator.stop(start + offset + 0.15);
    }
  } catch {
    // No audio here (a browser policy before the first click): the toast is enough.
  }
}

/** Through the service worker where there is one (its click opens the screen, as a push does), else directly. */
async function notify(item: AlertItem): Promise<void> {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const options = { body: item.text, tag: `alert-${item.kind}-${item.seq}`, data: { url: item.url } };
  const registration = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (registration) await registration.showNotification('Рейс', options);
  else new Notification('Рейс', options);
}
