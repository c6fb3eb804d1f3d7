/**
 * Persisted UI state (docs/product.md §9: auth is never persisted, restore time-out 5 s):
 * the sidebar and per-screen filters and table settings, saved to localStorage and restored at startup.
 * Auth never lives here: it belongs to the engine, and parsing keeps only the known keys.
 */
import { proxy, snapshot, subscribe } from 'valtio/vanilla';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ScreenSettings = Record<string, JsonValue>;

export interface UiState {
  /** Desktop sidebar expanded (true) or collapsed; the phone drawer is never restored open. */
  sidebarOpen: boolean;
  /** Filters and table settings keyed by screen, e.g. 'tasks/manage'. */
  screens: Record<string, ScreenSettings>;
}

/** What the state is read from and written to; localStorage in the browser, a double in tests. */
export interface UiStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
}

export const UI_STATE_KEY = 'reis-ui-state';
export const RESTORE_TIMEOUT_MS = 5000;
export const SAVE_DEBOUNCE_MS = 300;

export function defaultUiState(): UiState {
  return { sidebarOpen: true, screens: {} };
}

export const uiState = proxy<UiState>(defaultUiState());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The saved state, or null when there is none or it is corrupt; unknown keys (an old `auth`, say) are dropped. */
function readUiState(raw: string | null): UiState | null {
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isPlainObject(parsed)) return null;
  const state = defaultUiState();
  if (typeof parsed.sidebarOpen === 'boolean') state.sidebarOpen = parsed.sidebarOpen;
  if (isPlainObject(parsed.screens)) {
    for (const [key, value] of Object.entries(parsed.screens)) {
      if (isPlainObject(value)) state.screens[key] = value as ScreenSettings;
    }
  }
  return state;
}

/** Corrupt or foreign JSON gives the defaults. */
export function parseUiState(raw: string | null): UiState {
  return readUiState(raw) ?? defaultUiState();
}

export function browserStorage(): UiStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Some privacy modes throw on the mere access.
    return null;
  }
}

export type RestoreOutcome = 'restored' | 'defaults' | 'timeout';

/**
 * Loads the saved state into `uiState`. Never holds the app up longer than `timeoutMs`: a storage that
 * has not answered by then is ignored, and its late answer too (the user may already have changed things).
 */
export async function restoreUiState(
  storage: UiStorage | null = browserStorage(),
  timeoutMs = RESTORE_TIMEOUT_MS,
): Promise<RestoreOutcome> {
  if (!storage) return 'defaults';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const read = Promise.resolve()
    .then(() => storage.getItem(UI_STATE_KEY))
    .catch(() => null);
  const raw = await Promise.race([read, timeout]);
  clearTimeout(timer);
  if (raw === 'timeout') return 'timeout';
  const restored = readUiState(raw);
  const next = restored ?? defaultUiState();
  uiState.sidebarOpen = next.sidebarOpen;
  uiState.screens = next.screens;
  return restored ? 'restored' : 'defaults';
}

export function serializeUiState(): string {
  const { sidebarOpen, screens } = snapshot(uiState);
  return JSON.stringify({ sidebarOpen, screens });
}

export interface Persistence {
  /** Writes a pending change now (e.g. when the page is hidden). */
  flush(): void;
  stop(): void;
}

/** Saves every change, debounced, so dragging a column width does not write on every frame. */
export function persistUiState(
  storage: UiStorage | null = browserStorage(),
  debounceMs = SAVE_DEBOUNCE_MS,
): Persistence {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = (): void => {
    timer = null;
    if (!storage) return;
    try {
      // A full or forbidden storage only costs the saved layout, never the app.
      void Promise.resolve(storage.setItem(UI_STATE_KEY, serializeUiState())).catch(() => undefined);
    } catch {
      /* see above */
    }
  };
  const unsubscribe = subscribe(uiState, () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(write, debounceMs);
  });
  return {
    flush() {
      if (timer === null) return;
      clearTimeout(timer);
      write();
    },
    stop() {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * A screen's persisted settings, created from `defaults` on first use (and topped up with keys added
 * later). Read it with valtio's `useSnapshot`, write by assigning to the returned proxy.
 */
export function screenSettings<T extends ScreenSettings>(key: string, defaults: T): T {
  const existing = uiState.screens[key];
  if (!existing) {
    uiState.screens[key] = { ...defaults };
  } else {
    for (const [name, value] of Object.entries(defaults)) {
      if (!(name in existing)) existing[name] = value;
    }
  }
  return uiState.screens[key] as T;
}
