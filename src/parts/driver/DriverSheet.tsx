/**
 * A driver's bottom sheet with a form (issue 32): its title and note, the fields, and «Отмена» beside the submit
 * button — the trip step's facts and the per-shift acceptance share it.
 */
import type { ReactNode } from 'react';
import { Form } from '../../ui/Form.tsx';
import { Modal } from '../../ui/Modal.tsx';
import './dialogs.css';

interface Props {
  titleId: string;
  title: string;
  subtitle: ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}

export function DriverSheet({ titleId, title, subtitle, submitLabel, busy, onSubmit, onClose, children }: Props) {
  return (
    <Modal className="drv-sheet" aria-labelledby={titleId} onClose={onClose}>
      <Form className="drv-sheet__form" onSubmit={onSubmit}>
        <div className="drv-sheet__header">
          <h2 id={titleId} className="drv-sheet__title">
            {title}
          </h2>
          <p className="drv-sheet__subtitle">{subtitle}</p>
        </div>
        <div className="drv-sheet__content">{children}</div>
        <div className="drv-sheet__actions">
          <button type="button" className="drv-btn drv-btn--ghost" onClick={onClose} disabled={busy}>
            Отмена
          </button>
          <button type="submit" className="drv-btn drv-btn--primary" disabled={busy}>
            {busy ? 'Сохраняем...' : submitLabel}
          </button>
        </div>
      </Form>
    </Modal>
  );
}
