/**
 * The toast after «Отправить отчёт»: it follows the report through the engine's snapshot and says what happened
 * (submit-outcome.ts) — sending, sent, or kept on the phone and why, and when it goes — with «Отменить» while
 * that still makes sense. A report that had to wait and then went is told by the engine's own «Отчёт отправлен»
 * in every tab, so this toast steps aside then.
 */
import { useEffect, useState } from 'react';
import { useEngineSnapshot } from '../../engine/store.ts';
import { submitOutcome } from './submit-outcome.ts';

/** `note`: what the driver must know whatever the outcome (a load of a closed month is paid in the next one). */
export function SubmitToast({ outboxId, final, closeToast, onUndo, note }: { outboxId: number; final: boolean; closeToast: () => void; onUndo: () => void; note?: string }) {
  const snapshot = useEngineSnapshot();
  const item = snapshot.outbox.items.find((x) => x.id === outboxId);
  // Gone from the outbox means delivered (its task finished); whether it had waited is what it last showed.
  const [waitedSeen, setWaitedSeen] = useState(false);
  if (item?.waited && !waitedSeen) setWaitedSeen(true);
  const outcome = submitOutcome(item, snapshot, final, waitedSeen);
  const handedOver = outcome.phase === 'delivered-later';
  useEffect(() => {
    if (handedOver) closeToast();
  }, [handedOver, closeToast]);
  return (
    <span className="drv-undo drv-submit-toast" data-phase={outcome.phase}>
      {outcome.text}
      {note ? ` ${note}` : ''}
      <button
        type="button"
        className="drv-undo__button"
        onClick={() => {
          closeToast();
          onUndo();
        }}
      >
        Отменить
      </button>
    </span>
  );
}
