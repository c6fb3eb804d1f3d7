/**
 * The parts every console list row is made of: its action buttons (disabled, with the reason as the title,
 * while the server is out of reach or the row is busy) and its card on a phone (a head with the name and a
 * badge, a few quiet lines, the actions — a tap on those does not open the row).
 */
import { useState, type ReactNode } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { failureMessage } from '../../engine/send.ts';
import { showToast } from '../toasts.ts';
import { useConfirm, type ConfirmOptions } from '../ConfirmDialog.tsx';
import './console.css';

/** Why a row's actions cannot run now; `disabled` false: they can. */
export interface RowGate {
  disabled: boolean;
  title?: string | undefined;
}

export function RowButton({
  gate,
  onClick,
  kind,
  label,
  children,
}: {
  gate?: RowGate;
  onClick: () => void;
  kind?: 'primary' | 'quiet' | 'danger';
  /** The accessible name, where the visible text needs the row's name beside it. */
  label?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={`button button-small${kind ? ` button-${kind}` : ''}`}
      disabled={gate?.disabled}
      title={gate?.title}
      aria-label={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

export function RowActions({ children }: { children: ReactNode }) {
  return <div className="row-actions">{children}</div>;
}

export function RowCard({ title, badge, actions, children }: { title: ReactNode; badge?: ReactNode; actions?: ReactNode; children?: ReactNode }) {
  return (
    <div className="account-card">
      <div className="account-card-head">
        <strong>{title}</strong>
        {badge}
      </div>
      {children}
      {actions && (
        <div className="account-card-actions" onClick={(event) => event.stopPropagation()}>
          {actions}
        </div>
      )}
    </div>
  );
}

/** What a row's action says: the question asked first (none: it runs at once), and the toast when it is done. */
export interface RowWorkOptions<R> {
  confirm?: ConfirmOptions | false | undefined;
  done?: string | ((result: R) => string);
  /** What the refusal's toast says before the reason («Статус не изменён»). */
  refused?: string;
}

/**
 * A row's action in flight: `run(id, work, {confirm, done})` asks first where it should (no: nothing runs), marks
 * the row busy (its buttons wait), and ends in a toast — `done`, or the refusal with the reason the user reads;
 * `gate(id)` is what the row's buttons are given. Render `dialog` once on the screen.
 */
export function useRowWork(offline: { offline: boolean; reason?: string | undefined }) {
  const [dialog, ask] = useConfirm();
  const [busyId, setBusyId] = useState<number | string | null>(null);
  async function run<R>(id: number | string, work: () => Promise<R>, options: RowWorkOptions<R> = {}): Promise<void> {
    if (options.confirm && !(await ask(options.confirm))) return;
    setBusyId(id);
    try {
      const result = await work();
      const { done } = options;
      if (done) showToast('success', typeof done === 'string' ? done : done(result));
    } catch (error) {
      showToast('error', options.refused ? `${options.refused}: ${failureMessage(error)}` : failureMessage(error));
    } finally {
      setBusyId(null);
    }
  }
  const gate = (id: number | string): RowGate => ({ disabled: offline.offline || busyId === id, title: offline.reason });
  return { run, gate, busyId, dialog, ask };
}

/** The table's last column: the row's actions, under a header only screen readers read. */
export function actionsColumn<T>(actions: (row: T) => ReactNode): ColumnDef<T> {
  return { id: 'actions', header: () => <span className="visually-hidden">Действия</span>, cell: (c) => actions(c.row.original) };
}
