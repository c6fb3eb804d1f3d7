/**
 * Bulk actions that tell the truth: every selected row is tried, one at a time, and each gets
 * its own outcome — done, or refused with the server's reason. Nothing here can say "all done" unless
 * every row was.
 */
import { useState } from 'react';
import { ApiError } from '../../engine/queries.ts';

export interface BulkOutcome {
  id: string;
  label: string;
  ok: boolean;
  /** The server's reason when refused. */
  message: string | null;
}

export interface BulkItem {
  id: string;
  label: string;
}

export function reasonOf(error: unknown): string {
  if (error instanceof ApiError) return error.network ? 'Нет связи с сервером' : error.message;
  return error instanceof Error && error.message ? error.message : 'Неизвестная ошибка';
}

export async function runBulk<T extends BulkItem>(
  items: readonly T[],
  action: (item: T) => Promise<unknown>,
  onProgress?: (done: number, total: number) => void,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  for (const item of items) {
    try {
      await action(item);
      outcomes.push({ id: item.id, label: item.label, ok: true, message: null });
    } catch (error) {
      outcomes.push({ id: item.id, label: item.label, ok: false, message: reasonOf(error) });
    }
    onProgress?.(outcomes.length, items.length);
  }
  return outcomes;
}

/** '3 выполнено, 1 отклонено' — the headline of a bulk result. */
export function summarizeBulk(outcomes: readonly BulkOutcome[]): string {
  const done = outcomes.filter((o) => o.ok).length;
  const refused = outcomes.length - done;
  if (refused === 0) return `Выполнено: ${done} из ${outcomes.length}`;
  if (done === 0) return `Не выполнено ни одного: отклонено ${refused} из ${outcomes.length}`;
  return `${done} выполнено, ${refused} отклонено`;
}

/**
 * A bulk action over a list's selection: `run(title, items, action)` tries every item (runBulk), keeps the
 * refused ones selected, holds the result for BulkResults and, done or not, calls `after` (the refetch).
 * `busy` is the title of the action under way.
 */
export function useBulk(setSelected: (ids: Set<string>) => void, after: () => Promise<void>) {
  const [result, setResult] = useState<{ title: string; outcomes: BulkOutcome[] } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  async function run<T extends BulkItem>(title: string, items: readonly T[], action: (item: T) => Promise<unknown>): Promise<void> {
    setBusy(title);
    try {
      const outcomes = await runBulk(items, action);
      setResult({ title, outcomes });
      setSelected(new Set(outcomes.filter((o) => !o.ok).map((o) => o.id)));
    } finally {
      setBusy(null);
      await after();
    }
  }
  return { run, busy, result, dismiss: () => setResult(null) };
}
