/**
 * The one confirmation dialog of the app (driver and console screens alike): a modal on the native <dialog> (focus trap, Esc and the backdrop for free).
 * `useConfirm()` turns it into an awaitable question, so a destroying action reads as
 * `if (await confirm({...})) remove()`.
 */
import { useCallback, useId, useState, type ReactNode } from 'react';
import { Modal } from './Modal.tsx';
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
  const titleId = useId();

  return (
    <Modal className="dialog" aria-labelledby={titleId} onClose={() => onAnswer(false)} closeOnBackdrop>
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
    </Modal>
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
