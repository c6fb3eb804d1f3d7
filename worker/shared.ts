/**
 * SharedWorker entry (the normal mode): one engine for every tab of the origin, one Comlink port per tab.
 */
import * as Comlink from 'comlink';
import { deferredApi, startEngine } from './platform.ts';

const scope = self as unknown as SharedWorkerGlobalScope;
const api = deferredApi(startEngine(scope, 'shared'));

scope.addEventListener('connect', (event: MessageEvent) => {
  const port = event.ports[0];
  if (port) Comlink.expose(api, port);
});
