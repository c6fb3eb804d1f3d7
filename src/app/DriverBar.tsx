/**
 * A driver's navigation on a phone: a bar at the bottom of the screen, within the thumb's reach, in place of the
 * hamburger and the drawer. «Отчёты» opens the queue of reports on this device (the outbox panel) with the reports
 * the dispatcher disputed above it, and its count is both: what waits to go and what waits for a correction; «Профиль» carries the unread announcements, since Статистика and Объявления are reached from the profile.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useEngineSnapshot } from '../engine/store.ts';
import { outboxQueueLabel } from '../parts/outbox/outbox-labels.ts';
import { reportsEntryLabel, useDisputedReports } from '../parts/report/disputed.ts';
import { lazyNamed } from './lazy.ts';
import { useUnreadAnnouncements } from './use-unread-announcements.ts';

const OutboxPanel = lazyNamed(() => import('../parts/outbox/OutboxPanel.tsx'), 'OutboxPanel');

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="drv-bar__icon"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

const TASKS_ICON = (
  <Icon>
    <path d="M9 4h6v3H9z" />
    <path d="M7 5.5H5.5v15h13v-15H17" />
    <path d="M8.5 12h7M8.5 16h4.5" />
  </Icon>
);
const AVAILABLE_ICON = (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 8v8M8 12h8" />
  </Icon>
);
const REPORTS_ICON = (
  <Icon>
    <path d="M12 15V4M7.5 8.5 12 4l4.5 4.5" />
    <path d="M4 14v5.5h16V14" />
  </Icon>
);
const PROFILE_ICON = (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4.5 20.5c0-4 3.4-6.5 7.5-6.5s7.5 2.5 7.5 6.5" />
  </Icon>
);

function NavItem({ path, label, icon, count }: { path: string; label: string; icon: ReactNode; count?: ReactNode }) {
  const [location] = useLocation();
  const active = location === path;
  return (
    <li>
      <Link href={path} className={active ? 'drv-bar__item is-active' : 'drv-bar__item'} aria-current={active ? 'page' : undefined}>
        {icon}
        <span className="drv-bar__label">{label}</span>
        {count}
      </Link>
    </li>
  );
}

export function DriverBar() {
  const { pending, undelivered = 0 } = useEngineSnapshot().outbox;
  const unread = useUnreadAnnouncements(true);
  const [queueOpen, setQueueOpen] = useState(false);
  const disputed = useDisputedReports().data?.data.length ?? 0;
  const count = pending + disputed;
  return (
    <>
      <nav className="drv-bar" aria-label="Разделы водителя">
        <ul className="drv-bar__list">
          <NavItem path="/current-tasks" label="Задачи" icon={TASKS_ICON} />
          <NavItem path="/available-tasks" label="Доступные" icon={AVAILABLE_ICON} />
          <li>
            <button
              type="button"
              className="drv-bar__item"
              aria-label={reportsEntryLabel(outboxQueueLabel(pending, undelivered), disputed)}
              aria-haspopup="dialog"
              onClick={() => setQueueOpen(true)}
            >
              {REPORTS_ICON}
              <span className="drv-bar__label">Отчёты</span>
              {count > 0 ? (
                <span className="drv-bar__count" aria-hidden="true">
                  {count > 99 ? '99+' : count}
                </span>
              ) : undelivered > 0 ? (
                <span className="drv-bar__count" aria-hidden="true">
                  !
                </span>
              ) : null}
            </button>
          </li>
          <NavItem
            path="/profile"
            label="Профиль"
            icon={PROFILE_ICON}
            count={
              unread > 0 ? (
                <span className="drv-bar__count" aria-label={`непрочитанных объявлений: ${unread}`}>
                  {unread > 99 ? '99+' : unread}
                </span>
              ) : null
            }
          />
        </ul>
      </nav>
      {/* Beside the bar, not inside it: the bar's styles are no business of the dialog's. */}
      {queueOpen ? (
        <Suspense fallback={null}>
          <OutboxPanel onClose={() => setQueueOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
