/**
 * The number of unread announcements for the sidebar: the same cached GET as the screen. No polling — every tab
 * of a dispatcher would ask each minute; it is fetched on sign-in, refetched when a tab regains focus (React
 * Query's default) and after a write in any tab (engine write invalidation).
 */
import { useGet } from '../engine/api.ts';

export function useUnreadAnnouncements(signedIn: boolean): number {
  const query = useGet(signedIn ? 'GET /announcements/' : null);
  return query.data?.data.unread ?? 0;
}
