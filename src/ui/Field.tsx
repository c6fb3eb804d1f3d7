/** A labelled form field with its error, wired for screen readers. */
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { DateInput } from './DateInput.tsx';

/** Under a control: its error (named by aria-describedby), or else its hint. */
function FieldNote({ hint, error, errorId }: { hint: ReactNode; error: string | undefined; errorId: string }) {
  if (error) {
    return (
      <span id={errorId} className="field-error">
        {error}
      </span>
    );
  }
  return hint ? <span className="field-hint">{hint}</span> : null;
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

export function Field({ label, error, hint, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...input} />
      <FieldNote hint={hint} error={error} errorId={errorId} />
    </div>
  );
}

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** The same as Field for several lines of text (announcements, reasons). */
export function TextAreaField({ label, error, hint, rows = 4, ...area }: TextAreaFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={rows} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...area} />
      <FieldNote hint={hint} error={error} errorId={errorId} />
    </div>
  );
}

interface DateFieldProps {
  label: string;
  /** YYYY-MM-DD or ''. */
  value: string;
  onValue: (iso: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  name?: string;
  required?: boolean;
  disabled?: boolean;
}

/** The same as Field for a date, typed and shown as ДД.ММ.ГГГГ (DateInput). */
export function DateField({ label, error, hint, ...date }: DateFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <DateInput id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...date} />
      <FieldNote hint={hint} error={error} errorId={errorId} />
    </div>
  );
}
