/** Push messages and notification clicks: what the notification says and where a click leads. */

export const NOTIFICATION_TITLE = 'Рейс';
const FALLBACK_BODY = 'Новое уведомление';

export interface PushView {
  body: string;
  /** A path inside the app (same origin only: a push must not open foreign pages). */
  url: string;
}

/** The part of PushMessageData we read, so Node tests can pass a plain object. */
export interface PushPayload {
  json(): unknown;
  text(): string;
}

function field(value: unknown, name: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const found = (value as Record<string, unknown>)[name];
  return typeof found === 'string' && found.trim() !== '' ? found : null;
}

/** Accepts JSON ({body | message | title, url}), a JSON string, or plain text. */
export function readPush(data: PushPayload | null): PushView {
  if (!data) return { body: FALLBACK_BODY, url: '/' };
  let parsed: unknown;
  try {
    parsed = data.json();
  } catch {
    parsed = data.text();
  }
  if (typeof parsed === 'string') return { body: parsed.trim() || FALLBACK_BODY, url: '/' };
  const body = field(parsed, 'body') ?? field(parsed, 'message') ?? field(parsed, 'title') ?? FALLBACK_BODY;
  const url = field(parsed, 'url');
  return { body, url: url !== null && url.startsWith('/') && !url.startsWith('//') ? url : '/' };
}

export function notificationUrl(data: unknown): string {
  return field(data, 'url') ?? '/';
}

export interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
}

/** Focuses a window already showing the target, else any app window (never navigating it away from a
 * half-filled form), else opens a new one. */
export async function focusOrOpen(
  target: string,
  windows: readonly WindowLike[],
  open: (url: string) => Promise<unknown>,
): Promise<void> {
  const chosen = windows.find((w) => w.url === target) ?? windows[0];
  if (chosen) await chosen.focus();
  else await open(target);
}
