/** A form's values mirrored into localStorage as the user types, so a reload (or a crash) loses nothing. */
import { useEffect } from 'react';

export function readDraft<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function clearDraft(key: string): void {
  localStorage.removeItem(key);
}

/** Writes `value` under `key` a moment after the last change; `null` removes the draft. */
export function useDraft<T>(key: string, value: T | null): void {
  useEffect(() => {
    const timer = setTimeout(() => {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    }, 250);
    return () => clearTimeout(timer);
  }, [key, value]);
}
