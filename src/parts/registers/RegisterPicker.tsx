/**
 * Search-as-you-type over a register (GET /counterparties/ with a role, GET /places/): a combobox whose list shows
 * the cards that match what is typed (name, ИНН or address), arrows move, Enter or a click picks, Esc closes; the
 * list's last entry creates a card with the typed name (`onCreate`). Archived cards are not offered. Typing after a
 * pick drops the pick: the field then holds the typed text only (`onText`).
 */
import { useDeferredValue, useId, useState, type KeyboardEvent } from 'react';
import type { CounterpartyRole } from '../../../contract/requisites.ts';
import { useGet } from '../../engine/api.ts';
import { pickerExtras } from './picker-extras.ts';
import './registers.css';

export interface Picked {
  id: number;
  name: string;
  /** A second line: the ИНН, the address. */
  detail?: string | null | undefined;
}

interface PickerProps {
  register: 'counterparties' | 'places';
  role?: CounterpartyRole;
  label: string;
  name: string;
  /** The typed text (the picked card's name once picked). */
  text: string;
  picked: Picked | null;
  onText: (text: string) => void;
  onPick: (picked: Picked) => void;
  /** «Создать …» with the typed text; absent: no such entry. */
  onCreate?: (text: string) => void;
  createLabel?: string;
  error?: string | undefined;
  hint?: string;
  companyId?: number | null;
  disabled?: boolean;
  placeholder?: string;
}

const LIMIT = 8;

/** The cards found for `q`, and whether the search for it has answered (its options are then all there are). */
function useOptions(register: PickerProps['register'], q: string, open: boolean, role: CounterpartyRole | undefined, companyId: number | null | undefined): { options: Picked[]; answered: boolean } {
  const company = companyId ? { company_id: companyId } : {};
  const counterparties = useGet(register === 'counterparties' && open ? 'GET /counterparties/' : null, { q, limit: LIMIT, ...(role ? { role } : {}), ...company }, { staleTime: 30_000 });
  const places = useGet(register === 'places' && open ? 'GET /places/' : null, { q, limit: LIMIT, ...company }, { staleTime: 30_000 });
  const query = register === 'counterparties' ? counterparties : places;
  // A failed search (no connection) answers too: creating is then offered, and says for itself whether it can.
  const answered = query.data !== undefined || query.isError;
  if (register === 'counterparties') {
    return { answered, options: (counterparties.data?.data.items ?? []).map((c) => ({ id: c.id, name: c.name, detail: c.inn ? `ИНН ${c.inn}` : null })) };
  }
  return { answered, options: (places.data?.data.items ?? []).map((p) => ({ id: p.id, name: p.name, detail: p.address })) };
}

export function RegisterPicker(props: PickerProps) {
  const { register, role, label, name, text, picked, onText, onPick, onCreate, createLabel = 'Создать', error, hint, companyId, disabled, placeholder } = props;
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const q = useDeferredValue(picked ? '' : text.trim());
  const { options, answered } = useOptions(register, q, open, role, companyId);
  const { creating, searching } = pickerExtras({ text: picked ? '' : text, searched: q, answered, options, canCreate: onCreate !== undefined });
  const count = options.length + (creating ? 1 : 0);
  const listId = `${id}-list`;
  const noteId = `${id}-note`;

  function choose(index: number): void {
    const option = options[index];
    if (option) onPick(option);
    else if (creating) onCreate?.(text.trim());
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (count > 0) setActive((a) => (a + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
    } else if (event.key === 'Enter' && open && count > 0) {
      event.preventDefault();
      choose(Math.min(active, count - 1));
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    }
  }

  const note = error ?? (picked ? (picked.detail ?? 'Из справочника') : hint);
  return (
    <div className="field register-picker">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        role="combobox"
        aria-expanded={open && count > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && count > 0 ? `${id}-${Math.min(active, count - 1)}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={note ? noteId : undefined}
        autoComplete="off"
        value={text}
        disabled={disabled}
        placeholder={placeholder}
        onChange={(event) => {
          onText(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {note && (
        <span id={noteId} className={error ? 'field-error' : 'field-hint'}>
          {picked && !error ? `✓ ${note}` : note}
        </span>
      )}
      <ul id={listId} role="listbox" aria-label={label} aria-busy={searching} className="register-options" hidden={!open || (count === 0 && !searching)}>
        {options.map((option, index) => (
          <li
            key={option.id}
            id={`${id}-${index}`}
            role="option"
            aria-selected={index === Math.min(active, count - 1)}
            // mousedown, not click: the input's blur would close the list before a click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              choose(index);
            }}
          >
            <span>{option.name}</span>
            {option.detail && <span className="muted">{option.detail}</span>}
          </li>
        ))}
        {creating && (
          <li
            id={`${id}-${options.length}`}
            role="option"
            aria-selected={active >= options.length}
            className="register-create"
            onMouseDown={(event) => {
              event.preventDefault();
              choose(options.length);
            }}
          >
            {createLabel} «{text.trim()}»…
          </li>
        )}
        {searching && (
          <li className="register-searching muted" role="presentation">
            Ищем…
          </li>
        )}
      </ul>
    </div>
  );
}
