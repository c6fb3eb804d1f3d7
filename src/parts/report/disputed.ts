/**
 * The driver's disputed reports (GET /reports/disputed/) through the engine's cached GET: one cache entry for the
 * home screen's list, the «Отчёты» panel and the bottom bar's count. Light on purpose: the bar loads it on every
 * driver screen, without the report form.
 */
import { useGet } from '../../engine/api.ts';

export function useDisputedReports(enabled = true) {
  return useGet(enabled ? 'GET /reports/disputed/' : null);
}

/** The «Отчёты» entry's accessible name: the queue, then the disputes waiting for a correction. */
export function reportsEntryLabel(queue: string, disputed: number): string {
  return `Отчёты. ${queue}${disputed > 0 ? `; оспорено диспетчером: ${disputed}` : ''}`;
}
