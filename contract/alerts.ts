/**
 * Alerts to the dispatcher (docs/alerts.md): what happened that staff should notice now — a new report, a disputed
 * report corrected, a driver taking or finishing a task, a transfer answered, a driver's wait at a place passing the
 * company's threshold. The server derives them from successful writes (the wait: from a timer,
 * server/trips/wait-alerts.ts) and sends them on the change feed (`event: alert`) to the company's staff; the engine
 * shows each in one tab (the focused or last-focused one) and counts it beside the menu entry it concerns.
 *
 * No zod here: the tab's first chunk, the engine and the service worker import this file, and the settings'
 * schema (contract/alert-settings.ts) would bring the whole of zod into each of them.
 */

export const ALERT_KINDS = ['report', 'report_fixed', 'task_taken', 'task_finished', 'transfer_answered', 'long_wait'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The settings screen's words for each kind. */
export const ALERT_LABELS: Record<AlertKind, string> = {
  report: 'Новый отчёт водителя',
  report_fixed: 'Водитель исправил оспоренный отчёт',
  task_taken: 'Водитель взял задачу',
  task_finished: 'Водитель завершил задачу',
  transfer_answered: 'Перевозчик ответил на передачу',
  long_wait: 'Долгое ожидание на погрузке или выгрузке',
};

/** The menu entry whose counter an alert raises (and which, opened, clears it). */
export const ALERT_MENU: Record<AlertKind, string> = {
  report: '/reports',
  report_fixed: '/reports',
  task_taken: '/dispatch',
  task_finished: '/dispatch',
  transfer_answered: '/carrier-transfers',
  long_wait: '/dispatch',
};

/** One alert as the feed carries it: its kind, the sentence shown, and the screen it opens. */
export interface StaffAlert {
  kind: AlertKind;
  text: string;
  /** A console path (`/reports/12`, `/dispatch?date=…`) the toast and the notification open. */
  url: string;
}

/** Which alerts a staff user wants, and how (the schema: contract/alert-settings.ts). */
export interface AlertSettings {
  kinds: AlertKind[];
  sound: boolean;
  notify: boolean;
}

/** Until a user chooses: every kind as a toast, no sound, no system notification (the browser must be asked). */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = { kinds: [...ALERT_KINDS], sound: false, notify: false };

export function isStaffAlert(value: unknown): value is StaffAlert {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.kind === 'string' && (ALERT_KINDS as readonly string[]).includes(v.kind) && typeof v.text === 'string' && typeof v.url === 'string';
}
