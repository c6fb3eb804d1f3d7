/** The sidebar: only the screens the user's role may open, from the same table as the router. */
import { Link, useLocation, useSearch } from 'wouter';
import type { Role } from '../../contract/roles.ts';
import { menuPathFor, sidebarFor } from './nav.ts';
import { useUnreadAnnouncements } from './use-unread-announcements.ts';
import { usePendingReports } from './use-pending-reports.ts';

export interface SidebarProps {
  role: Role | null;
  /** Off-canvas drawer (phones) or a column beside the content (desktop). */
  variant: 'drawer' | 'column';
  open: boolean;
  onNavigate: () => void;
  /** Unseen alerts per menu path (use-alerts.ts). */
  alertCounts?: Record<string, number>;
}

export function Sidebar({ role, variant, open, onNavigate, alertCounts = {} }: SidebarProps) {
  const [location] = useLocation();
  const current = menuPathFor(location, useSearch());
  const unread = useUnreadAnnouncements(role !== null);
  const pending = usePendingReports(role);
  return (
    <nav
      id="sidebar"
      className={`sidebar sidebar-${variant}${open ? ' is-open' : ''}`}
      aria-label="Разделы"
      // A closed drawer stays in the DOM for its slide animation but must not take focus.
      inert={!open}
    >
      <ul>
        {sidebarFor(role).map((entry) => {
          const active = current === entry.path;
          return (
            <li key={entry.path}>
              <Link
                href={entry.path}
                className={active ? 'nav-link is-active' : 'nav-link'}
                aria-current={active ? 'page' : undefined}
                onClick={onNavigate}
              >
                {entry.label}
                {entry.path === '/announcements' && unread > 0 && (
                  <span className="nav-count" aria-label={`непрочитанных: ${unread}`}>
                    {unread}
                  </span>
                )}
                {entry.path === '/reports' && pending > 0 && (
                  <span className="nav-count" aria-label={`ждут проверки: ${pending}`}>
                    {pending}
                  </span>
                )}
                {entry.path !== '/reports' && (alertCounts[entry.path] ?? 0) > 0 && (
                  <span className="nav-count nav-count--alert" aria-label={`новых событий: ${alertCounts[entry.path]}`}>
                    {alertCounts[entry.path]}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
