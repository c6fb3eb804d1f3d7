/**
 * The loads waiting for review, for the sidebar's «Отчёты»: staff only. Like the unread announcements, no
 * polling: fetched on sign-in, on focus, and after a write here or on the change feed (a new report is one).
 */
import { STAFF, type Role } from '../../contract/roles.ts';
import { useGet } from '../engine/api.ts';

export function usePendingReports(role: Role | null): number {
  const staff = role !== null && STAFF.includes(role);
  const query = useGet(staff ? 'GET /reports/' : null, { review: 'pending', limit: 1 });
  return query.data?.data.pending ?? 0;
}
