/**
 * The header: sidebar toggle, the user's name and role, the driver's outbox badge, logout. A driver on a phone has
 * neither the toggle nor the badge here: the bottom bar (DriverBar) takes both over.
 */
import { Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { ROLE_LABELS } from '../../contract/roles.ts';
import { getEngine } from '../engine/engine.ts';
import { useConfirm } from '../ui/ConfirmDialog.tsx';
import { useEngineSnapshot } from '../engine/store.ts';
import { lazyNamed } from './lazy.ts';

const OutboxBadge = lazyNamed(() => import('../parts/outbox/OutboxBadge.tsx'), 'OutboxBadge');

export interface HeaderProps {
  sidebarExpanded: boolean;
  /** null: no sidebar to toggle (a driver's phone, with the bottom bar). */
  onToggleSidebar: (() => void) | null;
  /** The driver's outbox badge; off where the bottom bar shows the count. */
  outboxBadge: boolean;
}

function logoutMessage(pending: number): string | undefined {
  if (pending === 0) return undefined;
  return `Неотправленных отчётов: ${pending}. Они останутся на этом устройстве и будут отправлены после вашего следующего входа.`;
}

export function Header({ sidebarExpanded, onToggleSidebar, outboxBadge }: HeaderProps) {
  const { auth, outbox } = useEngineSnapshot();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [leaving, setLeaving] = useState(false);
  const [confirmElement, confirm] = useConfirm();
  const user = auth.user;

  async function logout(): Promise<void> {
    if (!(await confirm({ title: 'Выйти из аккаунта?', message: logoutMessage(outbox.pending), confirmLabel: 'Выйти' }))) return;
    setLeaving(true);
    try {
      await getEngine().logout();
    } finally {
      // Another user may sign in next on this device: nothing of this one may stay on screen.
      queryClient.clear();
      setLeaving(false);
      navigate('/login', { replace: true });
    }
  }

  return (
    <header className="header">
      {confirmElement}
      {onToggleSidebar ? (
        <button
          type="button"
          className="icon-button"
          aria-label={sidebarExpanded ? 'Скрыть меню' : 'Показать меню'}
          aria-expanded={sidebarExpanded}
          aria-controls="sidebar"
          onClick={onToggleSidebar}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      ) : null}
      <span className="brand">Рейс</span>
      <div className="header-user">
        {outboxBadge && user?.role === 'driver' && (
          <Suspense fallback={null}>
            <OutboxBadge />
          </Suspense>
        )}
        <div className="user-card">
          <span className="user-name">{user?.name ?? 'Пользователь'}</span>
          {user && <span className="user-role">{ROLE_LABELS[user.role]}</span>}
        </div>
        <button type="button" className="button button-quiet logout-button" onClick={() => void logout()} disabled={leaving}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" className="logout-icon">
            <path
              d="M9 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h3M14 17l5-5-5-5M19 12H9"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <span className="logout-label">{leaving ? 'Выход...' : 'Выйти'}</span>
        </button>
      </div>
    </header>
  );
}
