/** The outbox item states as the driver reads them (Russian), from the engine's snapshot. */
import type { OutboxItemView } from '../../engine/types.ts';
import { formatClockSeconds } from '../../ui/format.ts';

export function outboxStateLabel(item: OutboxItemView): string {
  switch (item.state) {
    case 'waiting':
      return 'в очереди';
    case 'sending':
      return item.progress === null ? 'отправляется' : `отправляется: ${Math.round(clamp01(item.progress) * 100)} %`;
    case 'retry':
      return item.nextAttemptAt === null
        ? 'ждёт повторной попытки'
        : `следующая попытка в ${formatClockSeconds(item.nextAttemptAt)}`;
    case 'sent':
      return 'отправлен';
    case 'failed':
      return `ошибка: ${item.lastError ?? 'сервер не принял отчёт'}`;
    case 'undelivered':
      return `не доставлен: ${item.lastError ?? 'сервер не принял отчёт'}`;
  }
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** What the outbox holds, said in one line: the header badge's and the driver bar's «Отчёты» accessible name. */
export function outboxQueueLabel(pending: number, undelivered: number): string {
  return (
    (pending > 0 ? `Очередь отчётов: не отправлено ${pending}` : 'Очередь отчётов: всё отправлено') +
    (undelivered > 0 ? `; не доставлено: ${undelivered}` : '')
  );
}
