/**
 * Dedicated Worker entry, for browsers without SharedWorker (README.md, "Architecture"): one engine per tab. The
 * engines keep the cross-tab facts single-flight with Web Locks and in step over BroadcastChannel.
 */
import * as Comlink from 'comlink';
import { CHANNEL_NAME, type CrossTabMessage } from './cross-tab.ts';
import { broadcastChannel, deferredApi, startEngine } from './platform.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const channel = broadcastChannel<CrossTabMessage>(CHANNEL_NAME);

Comlink.expose(deferredApi(startEngine(scope, 'dedicated', channel ? { channel } : {})), scope);
