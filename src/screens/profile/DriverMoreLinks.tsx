/**
 * On a driver's phone the bottom bar holds four sections; what the drawer offered besides them is here, on the
 * profile: Статистика (earnings, completed tasks and their reports) and Объявления with the unread count.
 */
import { Link } from 'wouter';
import { useUnreadAnnouncements } from '../../app/use-unread-announcements.ts';

export function DriverMoreLinks() {
  const unread = useUnreadAnnouncements(true);
  return (
    <nav className="card more-links" aria-label="Ещё разделы">
      <ul>
        <li>
          <Link href="/statistics" className="nav-link more-link">
            <span className="more-link__text">
              Статистика
              <span className="more-link__hint">заработок, выполненные задачи и их отчёты</span>
            </span>
          </Link>
        </li>
        <li>
          <Link href="/announcements" className="nav-link more-link">
            <span className="more-link__text">
              Объявления
              <span className="more-link__hint">от диспетчеров компании</span>
            </span>
            {unread > 0 && (
              <span className="nav-count" aria-label={`непрочитанных: ${unread}`}>
                {unread}
              </span>
            )}
          </Link>
        </li>
      </ul>
    </nav>
  );
}
