/**
 * The app's one modal: a native <dialog> shown while it is mounted (focus trap, Esc and the backdrop for free).
 * Esc asks `onClose` rather than closing it (the owner unmounts it, or keeps it open to ask first);
 * with `closeOnBackdrop` a click beside it asks too.
 */
import { useEffect, useRef, type DialogHTMLAttributes, type ReactNode } from 'react';

type ModalProps = Omit<DialogHTMLAttributes<HTMLDialogElement>, 'onCancel' | 'onClick' | 'open'> & {
  onClose: () => void;
  closeOnBackdrop?: boolean;
  children: ReactNode;
};

export function Modal({ onClose, closeOnBackdrop = false, children, ...dialog }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      {...dialog}
      ref={ref}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, never on its content.
        if (closeOnBackdrop && event.target === event.currentTarget) onClose();
      }}
    >
      {children}
    </dialog>
  );
}
