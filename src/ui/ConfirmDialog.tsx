/**
 * A modal confirmation on the native <dialog> (focus trap, Esc and the backdrop for free).
 * `useConfirm()` turns it into an awaitable question, so a destroying action reads as
 * `if (await confirm({...})) remove()`. Shared by the driver's screens and the staff console.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import './confirm-dialog.css';

export interface ConfirmOptions {
  title: string;
  message?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** A destroying action: the confirm button is painted as a warning. */
  danger?: boolean;
}

interface DialogProps extends ConfirmOptions {
  onAnswer: (yes: boolean) => void;
}

export function ConfirmDialog({ title, message, confirmLabel = 'Да', cancelLabel = 'Отмена', danger, onAnswer }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="confirm-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onAnswer(false);
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, never on its content.
        if (event.target === event.currentTarget) onAnswer(false);
      }}
    >
      <div className="confirm-dialog__body">
        <h2 id="confirm-dialog-title" className="confirm-dialog__title">
          {title}
        </h2>
        {message ? <div className="confirm-dialog__message">{message}</div> : null}
        <div className="confirm-dialog__actions">
          <button type="button" className="button" onClick={() => onAnswer(false)}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={danger ? 'button button-danger' : 'button button-primary'}
            onClick={() => onAnswer(true)}
            autoFocus
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}

interface Pending {
  options: ConfirmOptions;
  resolve: (yes: boolean) => void;
}

/** Returns the dialog element to render and an `ask` that resolves with the user's answer. */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => Promise<boolean>] {
  const [pending, setPending] = useState<Pending | null>(null);

  const ask = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        setPending({ options, resolve });
      }),
    [],
  );

  const element = pending ? (
    <ConfirmDialog
      {...pending.options}
      onAnswer={(yes) => {
        setPending(null);
        pending.resolve(yes);
      }}
    />
  ) : null;

  return [element, ask];
}
