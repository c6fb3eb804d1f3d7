/**
 * The engine's end of the change feed: events become changes, `reset` a full refetch; a reconnect
 * carries Last-Event-ID; a 401 goes through the shared refresh; one stream per browser under the Web Lock,
 * handed over when its holder stops; nothing while signed out.
 */
import { describe, expect, it, vi } from 'vitest';
import { createFeed, type FeedDeps, type FeedFetch } from '../../worker/feed.ts';
import { createFifoLocks, createManualClock, createNetwork, settle } from './doubles.ts';

/** A server double: each call answers a stream the test writes into, or a status. */
function serverDouble() {
  const calls: { url: string; headers: Record<string, string> }[] = [];
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const statuses: number[] = [];
  const encoder = new TextEncoder();
  const fetch: FeedFetch = async (url, init) => {
    calls.push({ url, headers: init.headers });
    const status = statuses.shift() ?? 200;
    if (status !== 200) return new Response(JSON.stringify({ detail: 'Требуется вход' }), { status });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        streams.push(controller);
        init.signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return {
    calls,
    statuses,
    fetch,
    send: (text: string, index = streams.length - 1) => streams[index]!.enqueue(encoder.encode(text)),
    end: (index = streams.length - 1) => streams[index]!.close(),
    get open() {
      return streams.length;
    },
  };
}

function setup(overrides: Partial<FeedDeps> = {}) {
  const server = serverDouble();
  const clock = createManualClock();
  const changes: string[] = [];
  const resets = { count: 0 };
  const opened = { count: 0 };
  const signedIn = { value: true };
  const deps: FeedDeps = {
    baseURL: 'http://app.test/api/',
    fetch: server.fetch,
    clock,
    locks: createFifoLocks(),
    network: createNetwork(),
    accessToken: async () => 'token-1',
    refreshAccess: async () => 'token-2',
    signedIn: () => signedIn.value,
    onChange: (path) => changes.push(path),
    onReset: () => (resets.count += 1),
    onOpen: () => (opened.count += 1),
    ...overrides,
  };
  return { server, clock, changes, resets, opened, signedIn, deps };
}

describe('the change feed', () => {
  it('turns events into changes and reset into a full refetch, and reconnects after its end with Last-Event-ID', async () => {
    const t = setup();
    const feed = createFeed(t.deps);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    expect(t.server.calls[0]).toEqual({ url: 'http://app.test/api/events/', headers: { accept: 'text/event-stream', authorization: 'Bearer token-1' } });
    expect(t.opened.count).toBe(1);

    t.server.send('retry: 3000\n\nid: a.1\nevent: ready\ndata: {}\n\n: ping\n\nid: a.2\ndata: {"path":"/tasks/5/"}\n\n');
    t.server.send('id: a.3\ndata: {"path":"/reports/9"}\r\n\r\nid: a.3\nevent: reset\ndata: {}\n\n');
    await vi.waitFor(() => expect(t.resets.count).toBe(1));
    expect(t.changes).toEqual(['/tasks/5/', '/reports/9']);

    // The server restarts: the stream ends; a second later the engine is back, saying where it stopped.
    t.server.end();
    await settle(4);
    t.clock.advance(1_000);
    await vi.waitFor(() => expect(t.server.open).toBe(2));
    expect(t.server.calls[1]!.headers['last-event-id']).toBe('a.3');
    feed.stop();
  });

  it('an alert is handed over as an alert, never as a change to refetch; a malformed one is dropped', async () => {
    const alerts: unknown[] = [];
    const t = setup({ onAlert: (alert) => alerts.push(alert) });
    const feed = createFeed(t.deps);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    const alert = { kind: 'report', text: 'Иван Петров: новый отчёт', url: '/reports/7' };
    t.server.send(`id: a.1\nevent: alert\ndata: ${JSON.stringify(alert)}\n\nid: a.2\nevent: alert\ndata: {"kind":"погода","text":"x","url":"/"}\n\n`);
    t.server.send('id: a.3\ndata: {"path":"/tasks/5/"}\n\n');
    await vi.waitFor(() => expect(t.changes).toEqual(['/tasks/5/']));
    expect(alerts).toEqual([alert]);
    feed.stop();
  });

  it('a 401 goes through the shared refresh and the stream opens with the new token', async () => {
    const t = setup();
    t.server.statuses.push(401);
    const feed = createFeed(t.deps);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    expect(t.server.calls.map((c) => c.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    feed.stop();
  });

  it('one stream per browser: a second engine waits on the lock and takes over when the first stops', async () => {
    const t = setup();
    const first = createFeed(t.deps);
    const second = createFeed(t.deps);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    await settle(4);
    expect(t.server.calls).toHaveLength(1);
    expect([first.connected(), second.connected()]).toEqual([true, false]);
    first.stop();
    await vi.waitFor(() => expect(t.server.open).toBe(2));
    expect(second.connected()).toBe(true);
    second.stop();
  });

  it('holds no stream while signed out or offline, and opens one when that changes', async () => {
    const t = setup();
    t.signedIn.value = false;
    const feed = createFeed(t.deps);
    await settle(4);
    expect(t.server.calls).toHaveLength(0);
    t.signedIn.value = true;
    feed.nudge();
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    // Signing out ends it.
    t.signedIn.value = false;
    feed.nudge();
    await vi.waitFor(() => expect(feed.connected()).toBe(false));
    feed.stop();
  });

  it('reports its state: down on a failed attempt, open when the server answers, never waiting more than 8 s', async () => {
    const states: boolean[] = [];
    const t = setup({ onState: (connected) => states.push(connected) });
    t.server.statuses.push(503, 503, 503, 503, 503);
    const feed = createFeed(t.deps);
    await vi.waitFor(() => expect(states).toEqual([false]));
    // 1, 2, 4, 8, then 8 again: a server back after an outage is heard within 8 s.
    for (const [ms, calls] of [[1_000, 2], [2_000, 3], [4_000, 4], [8_000, 5]] as const) {
      t.clock.advance(ms);
      await vi.waitFor(() => expect(t.server.calls).toHaveLength(calls));
    }
    t.clock.advance(8_000);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    expect(states.at(-1)).toBe(true);
    feed.stop();
  });

  it('a failing server is retried on a doubling back-off from 1 s', async () => {
    const t = setup();
    t.server.statuses.push(503, 503, 503);
    const feed = createFeed(t.deps);
    await vi.waitFor(() => expect(t.server.calls).toHaveLength(1));
    t.clock.advance(999);
    await settle(4);
    expect(t.server.calls).toHaveLength(1);
    t.clock.advance(1);
    await vi.waitFor(() => expect(t.server.calls).toHaveLength(2));
    t.clock.advance(2_000);
    await vi.waitFor(() => expect(t.server.calls).toHaveLength(3));
    t.clock.advance(4_000);
    await vi.waitFor(() => expect(t.server.open).toBe(1));
    feed.stop();
  });
});
