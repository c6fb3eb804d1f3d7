/**
 * The parts every console list row is made of: its action buttons (disabled, with the reason as the title,
 * while the server is out of reach or the row is busy) and its card on a phone (a head with the name and a
 * badge, a few quiet lines, the actions — a tap on those does not open the row).
 */
import type { ReactNode } from 'react';
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
  children,
}: {
  gate?: RowGate;
  onClick: () => void;
  kind?: 'primary' | 'quiet' | 'danger';
  children: ReactNode;
}) {
  return (
    <button type="button" className={`button button-small${kind ? ` button-${kind}` : ''}`} disabled={gate?.disabled} title={gate?.title} onClick={onClick}>
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
