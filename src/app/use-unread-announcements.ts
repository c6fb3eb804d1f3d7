/** The number of unread announcements for the sidebar: the same cached GET as the screen, refreshed each minute. */
import type { AnnouncementList } from '../../contract/announcements.ts';
import { useApiQuery } from '../engine/queries.ts';

export function useUnreadAnnouncements(signedIn: boolean): number {
  const query = useApiQuery<AnnouncementList>(signedIn ? '/announcements/' : null, undefined, { refetchInterval: 60_000 });
  return query.data?.data.unread ?? 0;
}
