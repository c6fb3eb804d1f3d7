/**
 * Undoing a report just filed: while it waits in the queue it is taken out (it never reaches
 * the server); once the server has it, it is deleted there, which puts the driver's task back in progress.
 * A report on its way is waited for (a few seconds at most) and then deleted.
 */
import { getOnce, sendOnce } from '../../engine/api.ts';
import { getEngine } from '../../engine/engine.ts';
import { engineState } from '../../engine/store.ts';

export type UndoOutcome = 'discarded' | 'deleted' | 'gone';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function undoFiledReport(outboxId: number, associationId: number): Promise<UndoOutcome> {
  for (let i = 0; i < 40; i++) {
    const item = engineState.snapshot.outbox.items.find((x) => x.id === outboxId);
    if (item && item.state !== 'sending' && item.state !== 'sent') {
      await getEngine().discard(outboxId);
      return 'discarded';
    }
    if (!item || item.state === 'sent') break;
    await pause(250);
  }
  const reports = (await getOnce('GET /reports/association/:id', { id: associationId })).data;
  const newest = [...reports].sort((a, b) => b.id - a.id)[0];
  if (!newest) return 'gone';
  await sendOnce('DELETE /reports/:id', { params: { id: newest.id } });
  return 'deleted';
}
