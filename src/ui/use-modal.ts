/** A native <dialog> opened as a modal while its component is mounted (focus trap and Esc for free). */
import { useEffect, useRef, type RefObject } from 'react';

export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return ref;
}
