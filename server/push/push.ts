/**
 * Push notifications: a message to every subscribed device of some users, encrypted (aes128gcm)
 * and signed (VAPID) by web-push, sent with our own fetch — so the transport is ours (a time-out, and tests
 * that receive it on a local HTTP endpoint). A subscription the push service says is gone (404, 410) is deleted.
 * Sending never fails the write that caused it: errors are logged.
 */
import webpush from 'web-push';
import type { Db } from '../db/connect.ts';
import type { Config } from '../config.ts';

export interface PushMessage {
  /** The notification's text (Russian). */
  body: string;
  /** Where a click leads: a path inside the app. */
  url: string;
}

const TTL_SECONDS = 24 * 3600;
const SEND_TIMEOUT_MS = 10_000;

export type PushTransport = (url: string, init: { method: string; headers: Record<string, string>; body: Buffer | null }) => Promise<{ status: number }>;

const fetchTransport: PushTransport = async (url, init) => {
  const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body ? new Uint8Array(init.body) : null, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  await res.arrayBuffer().catch(() => undefined);
  return { status: res.status };
};

export class Pusher {
  constructor(
    private readonly db: Db,
    private readonly vapid: Config['vapid'],
    private readonly transport: PushTransport = fetchTransport,
  ) {}

  /** Sends `message` to each device of `userIds`; answers how many deliveries the push services took. */
  async toUsers(userIds: readonly number[], message: PushMessage): Promise<number> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return 0;
    const rows = await this.db.kysely.selectFrom('push_subscriptions').select(['id', 'subscription']).where('user_id', 'in', ids).execute();
    const payload = JSON.stringify(message);
    const results = await Promise.all(rows.map((row) => this.sendOne(row.id, row.subscription, payload)));
    return results.filter(Boolean).length;
  }

  private async sendOne(id: number, subscription: string, payload: string): Promise<boolean> {
    try {
      const details = webpush.generateRequestDetails(JSON.parse(subscription) as webpush.PushSubscription, payload, {
        vapidDetails: this.vapid,
        TTL: TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      });
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(details.headers)) headers[key] = String(value);
      const { status } = await this.transport(details.endpoint, { method: details.method, headers, body: details.body });
      if (status === 404 || status === 410) {
        await this.db.kysely.deleteFrom('push_subscriptions').where('id', '=', id).execute();
        return false;
      }
      if (status >= 400) console.warn(`push: the push service answered ${status}`);
      return status < 400;
    } catch (error) {
      console.warn('push: not sent', error instanceof Error ? error.message : error);
      return false;
    }
  }
}
