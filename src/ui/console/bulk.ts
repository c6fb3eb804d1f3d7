/**
 * Bulk actions that tell the truth: every item gets its own outcome (done, or refused with the server's
 * reason), so a screen never claims "all done" when some failed (CONSOLE.md "Truth over comfort").
 */

export interface BulkItem {
  id: number | string;
  /** How the user recognises the item in the results ('Щебень, 23.11.2026'). */
  label: string;
}

export interface BulkOutcome {
  id: number | string;
  label: string;
  ok: boolean;
  /** The server's reason when refused; empty when done. */
  message: string;
}

export interface BulkOptions {
  /** Calls in flight at once; results keep the items' order whatever finishes first. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Неизвестная ошибка';
}

/** Runs `action` for each item; a throw (an ApiError from `unwrap`) becomes that item's refusal. */
export async function runBulk<I extends BulkItem>(
  items: readonly I[],
  action: (item: I) => Promise<unknown>,
  { concurrency = 4, onProgress }: BulkOptions = {},
): Promise<BulkOutcome[]> {
  const outcomes = new Array<BulkOutcome>(items.length);
  let next = 0;
  let done = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as I;
      try {
        await action(item);
        outcomes[index] = { id: item.id, label: item.label, ok: true, message: '' };
      } catch (error) {
        outcomes[index] = { id: item.id, label: item.label, ok: false, message: reasonOf(error) };
      }
      done += 1;
      onProgress?.(done, items.length);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return outcomes;
}

/** '3 выполнено, 1 отклонено'; only the part that applies when all went one way. */
export function bulkSummary(outcomes: readonly BulkOutcome[]): string {
  const ok = outcomes.filter((outcome) => outcome.ok).length;
  const refused = outcomes.length - ok;
  if (refused === 0) return `${ok} выполнено`;
  if (ok === 0) return `${refused} отклонено`;
  return `${ok} выполнено, ${refused} отклонено`;
}
