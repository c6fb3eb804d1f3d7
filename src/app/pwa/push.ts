/**
 * Push notifications on this device: off until the user turns them on in /profile (the browser
 * asks for permission then, on that click); the subscription is made with the server's VAPID key and sent to
 * PUT /push/subscription/; turning them off unsubscribes and removes it there. A login sends the device's
 * current subscription, if any (docs/product.md §7), and each start sends it again when the browser changed it.
 */
import { getOnce, sendOnce } from '../../engine/once.ts';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

const SENT_KEY = 'reis.push.endpoint';

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  // The app's service worker (pwa/register.ts); none in development.
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const reg = await registration();
  if (!reg) return 'unsupported';
  return (await reg.pushManager.getSubscription()) ? 'on' : 'off';
}

/** The device's subscription as JSON for the login payload, or null (none, or not allowed). */
export async function currentSubscription(): Promise<PushSubscriptionJSON | null> {
  if (!pushSupported() || Notification.permission !== 'granted') return null;
  const sub = await (await registration())?.pushManager.getSubscription();
  return sub ? sub.toJSON() : null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** The refusal's Russian message, or null. */
async function failure(call: Promise<unknown>): Promise<string | null> {
  try {
    await call;
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Tells the server this device's subscription; the refusal's message, or null. */
async function send(subscription: PushSubscriptionJSON): Promise<string | null> {
  const refused = await failure(sendOnce('PUT /push/subscription/', { body: { push_subscription: subscription } }));
  if (refused === null && subscription.endpoint) localStorage.setItem(SENT_KEY, subscription.endpoint);
  return refused;
}

/** Turns notifications on: permission (asked on this click), subscription, the server told. Answers a Russian failure or null. */
export async function enablePush(): Promise<string | null> {
  const reg = await registration();
  if (!reg) return 'Этот браузер не поддерживает уведомления';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return 'Браузер не разрешил уведомления: разрешите их в настройках сайта';
  let publicKey: string;
  try {
    publicKey = (await getOnce('GET /push/key/')).data.public_key;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  try {
    const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    return await send(sub.toJSON());
  } catch (error) {
    console.warn('push subscribe failed', error);
    return 'Не удалось подписаться на уведомления';
  }
}

/** Turns notifications off on this device. Answers a Russian failure or null. */
export async function disablePush(): Promise<string | null> {
  const sub = await (await registration())?.pushManager.getSubscription();
  await sub?.unsubscribe().catch(() => false);
  localStorage.removeItem(SENT_KEY);
  return failure(sendOnce('DELETE /push/subscription/', {}));
}

/** At start, signed in: the browser may have renewed the subscription; the server gets the new one. */
export async function refreshPushSubscription(): Promise<void> {
  const sub = await currentSubscription().catch(() => null);
  if (!sub?.endpoint || localStorage.getItem(SENT_KEY) === sub.endpoint) return;
  await send(sub);
}
