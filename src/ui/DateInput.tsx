/**
 * A date typed and shown as ДД.ММ.ГГГГ whatever the browser's language: a native date input
 * shows mm/dd/yyyy in a browser set to English. Digits are grouped as they are typed («24112026» →
 * «24.11.2026»); a whole, real date reaches `onValue` as YYYY-MM-DD, a cleared field as ''. A button opens the
 * browser's own calendar for picking. The value the screens keep stays ISO.
 */
import { useRef, useState, type InputHTMLAttributes } from 'react';
import { calendarDate } from '../../contract/calendar.ts';

type Passed = Pick<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'required' | 'disabled' | 'aria-label' | 'aria-invalid' | 'aria-describedby' | 'name'>;

interface DateInputProps extends Passed {
  /** YYYY-MM-DD or ''. */
  value: string;
  onValue: (iso: string) => void;
  min?: string | undefined;
  max?: string | undefined;
}

/** 'YYYY-MM-DD' → 'ДД.ММ.ГГГГ'; '' stays ''. */
export function displayDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : '';
}

/** What the user typed → the ISO date it names, '' for an empty field, null while it names none (yet). */
export function parseDisplayDate(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const m = /^(\d{1,2})[.\-/ ](\d{1,2})[.\-/ ](\d{4})$/.exec(trimmed);
  if (!m) return null;
  return calendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
}

/** Digits typed one after another get their dots: '2411' → '24.11', '24.112026' → '24.11.2026'. */
export function groupDigits(text: string): string {
  const digits = text.replace(/\./g, '');
  // Anything but digits and our own dots (after the day and the month) is left as typed: «1.2.2027» is a
  // date too, and the check judges it.
  const ownDots = [...text].every((ch, i) => ch !== '.' || i === 2 || i === 5);
  if (/[^\d]/.test(digits) || !ownDots) return text;
  const d = digits.slice(0, 8);
  if (d.length <= 2) return d;
  if (d.length <= 4) return `${d.slice(0, 2)}.${d.slice(2)}`;
  return `${d.slice(0, 2)}.${d.slice(2, 4)}.${d.slice(4)}`;
}

export function DateInput({ value, onValue, min, max, className, ...passed }: DateInputProps) {
  const [text, setText] = useState(() => displayDate(value));
  const [shownFor, setShownFor] = useState(value);
  const picker = useRef<HTMLInputElement>(null);
  // The value changed from outside (a reset, «Сегодня», the picker): show it.
  if (value !== shownFor) {
    setShownFor(value);
    if (parseDisplayDate(text) !== value) setText(displayDate(value));
  }

  function typed(next: string): void {
    const grouped = groupDigits(next);
    setText(grouped);
    const iso = parseDisplayDate(grouped);
    if (iso !== null && iso !== value) {
      setShownFor(iso);
      onValue(iso);
    }
  }

  const invalid = parseDisplayDate(text) === null;
  return (
    <span className="date-input">
      <input
        {...passed}
        className={className}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="ДД.ММ.ГГГГ"
        maxLength={10}
        value={text}
        aria-invalid={passed['aria-invalid'] ?? (invalid || undefined)}
        title={invalid ? 'Дата в виде ДД.ММ.ГГГГ, например 24.11.2026' : undefined}
        onChange={(event) => typed(event.target.value)}
        onBlur={() => {
          // A half-typed date is put back to the last whole one, so what is shown is what is used.
          if (parseDisplayDate(text) === null) setText(displayDate(value));
        }}
      />
      <button
        type="button"
        className="date-input-pick"
        aria-label="Выбрать дату в календаре"
        disabled={passed.disabled}
        onClick={() => {
          const native = picker.current;
          if (!native) return;
          try {
            native.showPicker();
          } catch {
            native.focus();
          }
        }}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M7 3v3M17 3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      <input
        ref={picker}
        type="date"
        className="date-input-native"
        tabIndex={-1}
        aria-hidden="true"
        value={value}
        min={min}
        max={max}
        onChange={(event) => {
          setText(displayDate(event.target.value));
          setShownFor(event.target.value);
          onValue(event.target.value);
        }}
      />
    </span>
  );
}
