/**
 * The change feed's bus: a change made through one server instance reaches the event streams of
 * every instance. With SQLite (one process) an in-process emitter; with PostgreSQL, LISTEN/NOTIFY on one
 * channel, so two or more instances on one database hear each other. An instance hears its own changes
 * through the same path, so each stream gets each change exactly once.
 */
import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Audience } from './audience.ts';
import type { StaffAlert } from '../../contract/alerts.ts';

/** One change as it travels between instances: what to refetch (an API path) and who may hear of it. */
export interface Change {
  path: string;
  /** The write's method: with the path it names the declared call, so a client refetches what that call invalidates. */
  method?: string;
  audience: Audience;
  /** Not a change to refetch but an alert to show the audience (server/events/alerts.ts); `path` is then ''. */
  alert?: StaffAlert;
  /** Not a change either: this user's streams end (their company, role or activity changed). */
  endStreamsOf?: number;
}

export interface ChangeBus {
  publish(change: Change): void;
  subscribe(listener: (change: Change) => void): () => void;
  close(): Promise<void>;
}

export const PG_CHANNEL = 'reis_changes';

export function memoryBus(): ChangeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    publish: (change) => void queueMicrotask(() => emitter.emit('change', change)),
    subscribe(listener) {
      emitter.on('change', listener);
      return () => emitter.off('change', listener);
    },
    close: async () => void emitter.removeAllListeners(),
  };
}

/**
 * LISTEN on a connection of its own (reconnected after a failure: changes meanwhile are missed, and the streams
 * are told to refetch everything through `onGap`); NOTIFY through a small pool.
 */
export function postgresBus(databaseUrl: string, onGap: () => void): ChangeBus {
  const local = memoryBus();
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  let listener: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  async function listen(): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (message) => {
      if (message.channel !== PG_CHANNEL || !message.payload) return;
      try {
        local.publish(JSON.parse(message.payload) as Change);
      } catch {
        // A foreign payload on our channel: ignored.
      }
    });
    const lost = (): void => {
      if (closed || listener !== client) return;
      listener = null;
      void client.end().catch(() => undefined);
      onGap();
      retry = setTimeout(() => void listen().catch(lost), 1_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`LISTEN ${PG_CHANNEL}`);
    listener = client;
  }
  const ready = listen().catch((error: unknown) => console.error('change feed: LISTEN failed', error));

  // One NOTIFY after another: on two pooled connections at once, a write's changes (a report's alert, then the
  // task's finish) could reach the listeners in the other order.
  let sent: Promise<unknown> = ready;
  return {
    publish(change) {
      sent = sent
        .then(() => pool.query('SELECT pg_notify($1, $2)', [PG_CHANNEL, JSON.stringify(change)]))
        .catch((error: unknown) => console.error('change feed: NOTIFY failed', error));
    },
    subscribe: (fn) => local.subscribe(fn),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await ready;
      await sent;
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await local.close();
    },
  };
}
