/**
 * A list's toolbar: the search box ("/" focuses it from anywhere on the page, unless the user is typing),
 * the filters, and the page's actions on the right. It wraps on a phone.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

interface FilterBarProps {
  search: string;
  onSearch: (value: string) => void;
  placeholder?: string;
  children?: ReactNode;
  actions?: ReactNode;
}

export function FilterBar({ search, onSearch, placeholder = 'Поиск', children, actions }: FilterBarProps) {
  const input = useRef<HTMLInputElement>(null);
  // Typing is local; the URL (and the query) follows after a short pause, not per keystroke.
  const [text, setText] = useState(search);
  const [prevSearch, setPrevSearch] = useState(search);
  if (search !== prevSearch) {
    setPrevSearch(search);
    setText(search);
  }

  // Screens pass a new onSearch each render; a render of the screen must not restart the pause.
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  }, [onSearch]);

  useEffect(() => {
    if (text === search) return;
    const timer = setTimeout(() => onSearchRef.current(text), 300);
    return () => clearTimeout(timer);
  }, [text, search]);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.key === '/' && !isTypingTarget(event.target) && !event.ctrlKey && !event.metaKey) {
        event.preventDefault();
        input.current?.focus();
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="filter-bar">
      <input
        ref={input}
        type="search"
        className="filter-search"
        aria-label={placeholder}
        placeholder={`${placeholder} ( / )`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onSearch(text);
          if (event.key === 'Escape') {
            setText('');
            onSearch('');
          }
        }}
      />
      {children && <div className="filter-slots">{children}</div>}
      {actions && <div className="filter-actions">{actions}</div>}
    </div>
  );
}
