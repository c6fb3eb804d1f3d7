import { describe, expect, it } from 'vitest';
import type { CrossTabMessage } from '../../worker/cross-tab.ts';
import type { OutboxDeps, OutboxFactory } from '../../worker/outbox-types.ts';
import { noOutbox } from '../../worker/outbox-types.ts';
import { DELIVERED_NOTICE } from '../../worker/outbox.ts';
import { createChannelHub, createFakeServer, settle } from './doubles.ts';
import { makeEngine } from './harness.ts';

describe('writes reach every tab of the browser', () => {
  it('shared mode: a successful write is listed in the snapshot every tab gets; a refused one is not', async () => {
    const { api, server, connectTab } = await makeEngine();
    server.on('PUT tasks/5/', () => ({ status: 200, data: { id: 5 } }));
    server.on('DELETE tasks/6/', () => ({ status: 404, data: { detail: 'Задание не найдено' } }));
    const one = await connectTab();
    const two = await connectTab();
    await settle();

    expect((await api.send('DELETE', '/tasks/6/')).ok).toBe(false);
    await settle();
    expect(two.latest()?.writes ?? []).toEqual([]);

    expect((await api.send('PUT', '/tasks/5/', { status: 'completed' })).ok).toBe(true);
    await settle();
    expect(one.latest()?.writes).toEqual([{ seq: 1, path: '/tasks/5/', method: 'PUT' }]);
    expect(two.latest()?.writes).toEqual([{ seq: 1, path: '/tasks/5/', method: 'PUT' }]);
  });

  it('dedicated mode: the write travels over the channel to the other engines, and back only once', async () => {
    const hub = createChannelHub<CrossTabMessage>();
    const server = createFakeServer();
    server.on('POST tasks/', () => ({ status: 201, data: { id: 9 } }));
    const a = await makeEngine({ mode: 'dedicated', server, channel: hub.channel() });
    const b = await makeEngine({ mode: 'dedicated', server, channel: hub.channel() });
    const tabA = await a.connectTab();
    const tabB = await b.connectTab();

    expect((await a.api.send('POST', '/tasks/', { cargo: 'Щебень' })).ok).toBe(true);
    await settle(4);
    expect(tabB.latest()?.writes).toEqual([{ seq: 1, path: '/tasks/', method: 'POST' }]);
    // Engine A heard its own write once, not again as an echo from B.
    expect(tabA.latest()?.writes).toEqual([{ seq: 1, path: '/tasks/', method: 'POST' }]);
  });

  it('keeps only the last writes', async () => {
    const { api, server, connectTab } = await makeEngine();
    server.on('PUT tasks/1/', () => ({ status: 200, data: {} }));
    const tab = await connectTab();
    for (let i = 0; i < 25; i += 1) await api.send('PUT', '/tasks/1/', {});
    await settle();
    const writes = tab.latest()?.writes ?? [];
    expect(writes).toHaveLength(20);
    expect(writes.at(-1)?.seq).toBe(25);
  });
});

describe('notices reach every tab of the browser', () => {
  it('dedicated mode: «Отчёт отправлен» told by the engine that sent it shows in the other tab too, once', async () => {
    const hub = createChannelHub<CrossTabMessage>();
    const server = createFakeServer();
    let portsA: OutboxDeps | null = null;
    const capture: OutboxFactory = (deps) => {
      portsA = deps;
      return noOutbox(deps);
    };
    const a = await makeEngine({ mode: 'dedicated', server, channel: hub.channel(), outbox: capture });
    const b = await makeEngine({ mode: 'dedicated', server, channel: hub.channel() });
    const tabA = await a.connectTab();
    const tabB = await b.connectTab();
    await settle();

    portsA!.notify(DELIVERED_NOTICE);
    await settle(4);
    expect(tabA.latest()?.notices?.map((n) => n.message)).toEqual([DELIVERED_NOTICE]);
    expect(tabB.latest()?.notices?.map((n) => n.message)).toEqual([DELIVERED_NOTICE]);
  });

  it('a notice the service worker posts on the channel shows in an open tab', async () => {
    const hub = createChannelHub<CrossTabMessage>();
    const serviceWorker = hub.channel();
    const engine = await makeEngine({ channel: hub.channel() });
    const tab = await engine.connectTab();
    await settle();
    serviceWorker.postMessage({ type: 'notice', message: DELIVERED_NOTICE });
    await settle(4);
    expect(tab.latest()?.notices?.map((n) => n.message)).toEqual([DELIVERED_NOTICE]);
  });
});
