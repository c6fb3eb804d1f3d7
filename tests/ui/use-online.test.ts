import { describe, expect, it } from 'vitest';
import { NEEDS_SERVER, isServerReachable } from '../../src/engine/use-online.ts';
import { initialSnapshot } from '../../src/engine/store.ts';

const snapshot = (network: Partial<typeof initialSnapshot.network>, authOfflineMode = false) => ({
  network: { ...initialSnapshot.network, online: true, ...network },
  auth: { ...initialSnapshot.auth, offlineMode: authOfflineMode },
});

describe('whether an action that needs the server may run', () => {
  it('only with the network up and outside offline mode', () => {
    expect(isServerReachable(snapshot({}))).toBe(true);
    expect(isServerReachable(snapshot({ online: false }))).toBe(false);
    // The link is up but the server was unreachable: the engine's offline mode.
    expect(isServerReachable(snapshot({ offlineMode: true }))).toBe(false);
    expect(isServerReachable(snapshot({}, true))).toBe(false);
  });

  it('says why in Russian, in a few words', () => {
    expect(NEEDS_SERVER).toBe('Нужна связь с сервером');
  });
});
