/** A labelled form field with its error, wired for screen readers. */
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

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
