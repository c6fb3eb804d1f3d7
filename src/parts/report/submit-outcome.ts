/**
 * What happened to a report the driver just filed, said as it happens (the report form's toast, SubmitToast.tsx):
 * going, gone to the server, or kept on the phone — and then why, and when it will go. Pure: the outbox item and
 * the network as the engine's snapshot has them.
 */
import type { OutboxItemView, Snapshot } from '../../engine/types.ts';
import { formatClockSeconds } from '../../ui/format.ts';

export type SubmitPhase = 'sending' | 'sent' | 'queued' | 'refused' | 'delivered-later';

export interface SubmitOutcome {
  phase: SubmitPhase;
  text: string;
}

const KEPT = 'Отчёт сохранён на телефоне';

/**
 * `item`: the report's outbox item, undefined once the outbox let it go (delivered, its task finished);
 * `waitedBefore`: the item was seen to wait before it went.
 */
export function submitOutcome(
  item: OutboxItemView | undefined,
  { network, auth }: Pick<Snapshot, 'network' | 'auth'>,
  final: boolean,
  waitedBefore = false,
): SubmitOutcome {
  if (!item || item.state === 'sent') {
    // One that had to wait is announced by the engine's «Отчёт отправлен», in every tab.
    if (item?.waited || (!item && waitedBefore)) return { phase: 'delivered-later', text: 'Отчёт отправлен' };
    return {
      phase: 'sent',
      text: final
        ? 'Отчёт отправлен. Задача выполнена: она теперь в разделе «Статистика».'
        : 'Отчёт отправлен. Рейс записан; задача остаётся в текущих до последнего рейса.',
    };
  }
  const later = final ? ' Задача уйдёт в «Статистику», когда отчёт дойдёт.' : '';
  if (item.state === 'undelivered') {
    return { phase: 'refused', text: `Сервер не принял отчёт: ${item.lastError ?? 'причина не названа'}. Он в «Отчётах», в разделе «Не доставлено».` };
  }
  if (item.state === 'failed') {
    const next = item.nextAttemptAt === null ? '' : ` Следующая попытка в ${formatClockSeconds(item.nextAttemptAt)}.`;
    return { phase: 'refused', text: `Сервер не принял отчёт: ${item.lastError ?? 'причина не названа'}. ${KEPT}.${next}` };
  }
  if (!network.online) {
    return { phase: 'queued', text: `Нет сети. ${KEPT} и уйдёт сам, как только связь появится.${later}` };
  }
  if (network.offlineMode || auth.offlineMode) {
    return { phase: 'queued', text: `Сервер не отвечает. ${KEPT} и уйдёт сам, как только сервер ответит.${later}` };
  }
  if (item.state === 'retry') {
    const next = item.nextAttemptAt === null ? '' : ` Следующая попытка в ${formatClockSeconds(item.nextAttemptAt)}.`;
    return { phase: 'queued', text: `Связь с сервером прервалась. ${KEPT} и уйдёт сам.${next}${later}` };
  }
  const progress = item.state === 'sending' && item.progress !== null ? `: ${Math.round(Math.min(1, Math.max(0, item.progress)) * 100)} %` : '';
  return { phase: 'sending', text: `Отчёт отправляется${progress}…` };
}
