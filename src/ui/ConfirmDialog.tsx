/**
 * The one confirmation dialog of the app (driver and console screens alike): a modal on the native <dialog> (focus trap, Esc and the backdrop for free).
 * `useConfirm()` turns it into an awaitable question, so a destroying action reads as
 * `if (await confirm({...})) remove()`.
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import { useModalDialog } from './use-modal.ts';
import './dialog.css';

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
  const ref = useModalDialog();
  const titleId = useId();

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onAnswer(false);
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, never on its content.
        if (event.target === event.currentTarget) onAnswer(false);
      }}
    >
      <div className="dialog-body">
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {message ? <div className="dialog-message">{message}</div> : null}
        <div className="dialog-actions">
          <button type="button" className="button button-quiet" onClick={() => onAnswer(false)}>
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
