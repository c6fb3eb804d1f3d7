/**
 * SharedWorker entry (the normal mode): one engine for every tab of the origin, one Comlink port per tab.
 */
import * as Comlink from 'comlink';
import { CHANNEL_NAME, type CrossTabMessage } from './cross-tab.ts';
import { broadcastChannel, deferredApi, startEngine } from './platform.ts';

const scope = self as unknown as SharedWorkerGlobalScope;
// The service worker's background flush says {type:'outbox'} here when it changed the queue.
const channel = broadcastChannel<CrossTabMessage>(CHANNEL_NAME);
const api = deferredApi(startEngine(scope, 'shared', channel ? { channel } : {}));

scope.addEventListener('connect', (event: MessageEvent) => {
  const port = event.ports[0];
  if (port) Comlink.expose(api, port);
});
