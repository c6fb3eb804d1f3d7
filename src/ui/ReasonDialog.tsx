/**
 * «Why?» before a refusal that someone else will read (a declined hand-over, a rejected registration request):
 * a reason is required, the server's refusal shows under it, and what was typed stays while the dialog is open.
 */
import { useState, type ReactNode } from 'react';
import { failureMessage } from '../engine/send.ts';
import { TextAreaField } from './Field.tsx';
import { FormDialog } from './FormDialog.tsx';

export interface ReasonDialogProps {
  title: string;
  submitLabel: string;
  /** What is being refused, above the field. */
  children?: ReactNode;
  /** Shown when the reason is left empty: who will read it. */
  required: string;
  maxLength: number;
  /** The field's label ('Причина' by default) and the body field the server names in a refusal ('reason'). */
  label?: string;
  field?: string;
  placeholder?: string;
  onSubmit: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

export function ReasonDialog({ title, submitLabel, children, required, maxLength, label = 'Причина', field = 'reason', placeholder, onSubmit, onClose }: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    if (!reason.trim()) return setError(required);
    setBusy(true);
    try {
      await onSubmit(reason.trim());
    } catch (e) {
      const message = failureMessage(e);
      setError(message.startsWith(`${field}:`) ? message.slice(field.length + 1).trim() : message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormDialog title={title} submitLabel={submitLabel} busy={busy} onSubmit={() => void submit()} onCancel={onClose}>
      {children}
      <TextAreaField
        label={label}
        rows={3}
        value={reason}
        maxLength={maxLength}
        placeholder={placeholder}
        autoFocus
        error={error ?? undefined}
        onChange={(event) => setReason(event.target.value)}
      />
    </FormDialog>
  );
}
