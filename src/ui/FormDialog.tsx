/**
 * A form in a modal (create and edit dialogs of the console): the same native <dialog> as ConfirmDialog,
 * with a submit that shows it is working, and the server's refusal above the buttons. The fields are the
 * caller's; they stay as typed when the server refuses, because the dialog stays open.
 */
import { useId, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';
import './dialog.css';
import { Form } from './Form.tsx';

export interface FormDialogProps {
  title: string;
  submitLabel: string;
  busy?: boolean;
  /** A refusal that belongs to no single field. */
  error?: string | null;
  onSubmit: () => void;
  onCancel: () => void;
  children: ReactNode;
  /** Wider dialogs for forms with two columns of fields. */
  wide?: boolean;
}

export function FormDialog({ title, submitLabel, busy, error, onSubmit, onCancel, children, wide }: FormDialogProps) {
  const titleId = useId();

  return (
    <Modal className={wide ? 'dialog dialog-wide' : 'dialog'} aria-labelledby={titleId} onClose={() => !busy && onCancel()}>
      <Form className="dialog-body" onSubmit={() => !busy && onSubmit()}>
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-fields">{children}</div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button button-quiet" onClick={onCancel} disabled={busy}>
            Отмена
          </button>
          <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy || undefined}>
            {busy ? 'Сохраняем…' : submitLabel}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
