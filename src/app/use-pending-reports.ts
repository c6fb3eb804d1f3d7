/**
 * The loads waiting for review, for the sidebar's «Отчёты»: staff only. Like the unread announcements, no
 * polling: fetched on sign-in, on focus, and after a write here or on the change feed (a new report is one).
 */
import { STAFF, type Role } from '../../contract/roles.ts';
import { useApiQuery } from '../engine/queries.ts';

export function usePendingReports(role: Role | null): number {
  const staff = role !== null && STAFF.includes(role);
  // The raw path, not the typed route table: the shell must not load the table's schemas.
  const query = useApiQuery<{ pending: number }>(staff ? '/reports/' : null, { review: 'pending', limit: 1 });
  return query.data?.data.pending ?? 0;
}
