/**
 * A screen's toolbar: the search ("/" focuses it from anywhere unless the user is typing in a field),
 * filter slots, and the actions on the right. Wraps on phones.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

interface FilterBarProps {
  search: string;
  onSearch: (value: string) => void;
  searchLabel?: string;
  placeholder?: string;
  /** Filters after the search (selects, date ranges). */
  children?: ReactNode;
  /** The main action and the quiet ones, on the right. */
  actions?: ReactNode;
  /** Typing waits this long before `onSearch`, so each keystroke does not ask the server. */
  debounceMs?: number;
}

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [contenteditable="true"]') !== null;
}

export function FilterBar({ search, onSearch, searchLabel = 'Поиск', placeholder = 'Поиск', children, actions, debounceMs = 300 }: FilterBarProps) {
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(search);
  const committed = useRef(search);
  // The screen passes a new function each render; the pending search must not restart because of that.
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  }, [onSearch]);

  // The URL may change under us (back, a link): show what it says.
  useEffect(() => {
    if (search !== committed.current) {
      committed.current = search;
      setText(search);
    }
  }, [search]);

  useEffect(() => {
    if (text === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = text;
      onSearchRef.current(text);
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [text, debounceMs]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="filter-bar">
      <div className="filter-bar__filters">
        <label className="filter-bar__search">
          <span className="visually-hidden">{searchLabel}</span>
          <input
            ref={input}
            type="search"
            value={text}
            placeholder={placeholder}
            aria-keyshortcuts="/"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                committed.current = text;
                onSearch(text);
              }
            }}
          />
          <kbd className="filter-bar__hint" aria-hidden="true">
            /
          </kbd>
        </label>
        {children}
      </div>
      {actions && <div className="filter-bar__actions">{actions}</div>}
    </div>
  );
}
