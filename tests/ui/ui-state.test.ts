import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  RESTORE_TIMEOUT_MS,
  UI_STATE_KEY,
  defaultUiState,
  parseUiState,
  persistUiState,
  restoreUiState,
  screenSettings,
  uiState,
  type UiStorage,
} from '../../src/app/ui-state.ts';

/** A localStorage double that records writes. */
function memoryStorage(initial: Record<string, string> = {}): UiStorage & { data: Map<string, string>; writes: number } {
  const data = new Map(Object.entries(initial));
  const storage = {
    data,
    writes: 0,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => {
      storage.writes += 1;
      data.set(key, value);
    },
  };
  return storage;
}

/** Lets valtio deliver its (microtask-batched) change notifications. */
const settle = () => Promise.resolve().then(() => undefined);

beforeEach(() => {
  const fresh = defaultUiState();
  uiState.sidebarOpen = fresh.sidebarOpen;
  uiState.screens = fresh.screens;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ui-state restore', () => {
  it('restores the saved sidebar and screen settings', async () => {
    const saved = { sidebarOpen: false, screens: { 'tasks/manage': { status: 'completed', pageSize: 50 } } };
    const outcome = await restoreUiState(memoryStorage({ [UI_STATE_KEY]: JSON.stringify(saved) }));
    expect(outcome).toBe('restored');
    expect(uiState.sidebarOpen).toBe(false);
    expect(uiState.screens['tasks/manage']).toEqual({ status: 'completed', pageSize: 50 });
  });

  it('falls back to the defaults on corrupt JSON', async () => {
    uiState.sidebarOpen = false;
    const outcome = await restoreUiState(memoryStorage({ [UI_STATE_KEY]: '{"sidebarOpen": fal' }));
    expect(outcome).toBe('defaults');
    expect({ sidebarOpen: uiState.sidebarOpen, screens: { ...uiState.screens } }).toEqual(defaultUiState());
  });

  it('ignores fields of the wrong type and never takes an auth key', () => {
    const parsed = parseUiState(
      JSON.stringify({ sidebarOpen: 'yes', screens: { a: 1, b: { x: true } }, auth: { access_token: 'secret' } }),
    );
    expect(parsed).toEqual({ sidebarOpen: true, screens: { b: { x: true } } });
    expect(parseUiState('[1,2]')).toEqual(defaultUiState());
    expect(parseUiState('null')).toEqual(defaultUiState());
  });

  it('gives up after 5 s on a storage that never answers, and ignores its late answer', async () => {
    vi.useFakeTimers();
    let answer: (value: string) => void = () => undefined;
    const slow: UiStorage = {
      getItem: () => new Promise<string>((resolve) => (answer = resolve)),
      setItem: () => undefined,
    };
    const restoring = restoreUiState(slow);
    await vi.advanceTimersByTimeAsync(RESTORE_TIMEOUT_MS - 1);
    let settled = false;
    void restoring.then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await restoring).toBe('timeout');
    answer(JSON.stringify({ sidebarOpen: false }));
    await settle();
    expect(uiState.sidebarOpen).toBe(true);
  });

  it('survives a storage that throws', async () => {
    const broken: UiStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
    };
    expect(await restoreUiState(broken)).toBe('defaults');
    expect(uiState.sidebarOpen).toBe(true);
  });
});

describe('ui-state persist', () => {
  it('saves changes once, debounced, without auth', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const persistence = persistUiState(storage, 300);
    uiState.sidebarOpen = false;
    await settle();
    screenSettings('tasks/manage', { status: 'completed' }).status = 'open';
    await settle();
    await vi.advanceTimersByTimeAsync(299);
    expect(storage.writes).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(storage.writes).toBe(1);
    const saved = JSON.parse(storage.data.get(UI_STATE_KEY) ?? 'null') as Record<string, unknown>;
    expect(saved).toEqual({ sidebarOpen: false, screens: { 'tasks/manage': { status: 'open' } } });
    expect(saved).not.toHaveProperty('auth');
    persistence.stop();
  });

  it('flush writes a pending change at once; stop writes nothing more', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const persistence = persistUiState(storage, 300);
    uiState.sidebarOpen = false;
    await settle();
    persistence.flush();
    expect(storage.writes).toBe(1);
    persistence.stop();
    uiState.sidebarOpen = true;
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(storage.writes).toBe(1);
  });

  it('a save round-trips through restore', async () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const persistence = persistUiState(storage, 10);
    screenSettings('drivers/manage', { columns: ['name', 'phone'] });
    uiState.sidebarOpen = false;
    await settle();
    await vi.advanceTimersByTimeAsync(10);
    persistence.stop();
    uiState.sidebarOpen = true;
    uiState.screens = {};
    vi.useRealTimers();
    expect(await restoreUiState(storage)).toBe('restored');
    expect(uiState.sidebarOpen).toBe(false);
    expect(uiState.screens['drivers/manage']).toEqual({ columns: ['name', 'phone'] });
  });

  it('screenSettings tops up keys added later without losing saved ones', () => {
    uiState.screens = { 'tasks/manage': { status: 'open' } };
    const settings = screenSettings('tasks/manage', { status: 'completed', pageSize: 50 });
    expect({ ...settings }).toEqual({ status: 'open', pageSize: 50 });
  });
});
