import { describe, expect, it } from 'vitest';
import { outboxStateLabel } from '../../src/parts/outbox/outbox-labels.ts';
import { base } from './outbox-item.ts';

describe('outbox item state labels', () => {
  it('says a new item is in the queue', () => {
    expect(outboxStateLabel(base)).toBe('в очереди');
  });

  it('shows upload progress while sending, in whole percent within 0..100', () => {
    expect(outboxStateLabel({ ...base, state: 'sending' })).toBe('отправляется');
    expect(outboxStateLabel({ ...base, state: 'sending', progress: 0.426 })).toBe('отправляется: 43 %');
    expect(outboxStateLabel({ ...base, state: 'sending', progress: 1.2 })).toBe('отправляется: 100 %');
  });

  it('gives the next attempt as local HH:MM:SS', () => {
    const at = new Date(2026, 10, 21, 9, 5, 7).getTime();
    expect(outboxStateLabel({ ...base, state: 'retry', attempts: 3, nextAttemptAt: at })).toBe(
      'следующая попытка в 09:05:07',
    );
  });

  it('says sent once the server confirmed it', () => {
    expect(outboxStateLabel({ ...base, state: 'sent', sentAt: 1 })).toBe('отправлен');
  });

  it("shows the server's reason for a failure", () => {
    expect(outboxStateLabel({ ...base, state: 'failed', lastError: 'Задача не найдена' })).toBe(
      'ошибка: Задача не найдена',
    );
    expect(outboxStateLabel({ ...base, state: 'failed' })).toBe('ошибка: сервер не принял отчёт');
  });
});
