import { describe, expect, it } from 'vitest';
import type { OutboxItemView, Snapshot } from '../../worker/api.ts';
import { submitOutcome } from '../../src/parts/report/submit-outcome.ts';
import { base } from './outbox-item.ts';

const item = (patch: Partial<OutboxItemView> = {}): OutboxItemView => ({ ...base, photoCount: 1, quantity: 20, ...patch });
const reachable = { network: { online: true, offlineMode: false }, auth: { offlineMode: false } } as Pick<Snapshot, 'network' | 'auth'>;
const noNetwork = { network: { online: false, offlineMode: false }, auth: { offlineMode: false } } as Pick<Snapshot, 'network' | 'auth'>;
const serverDown = { network: { online: true, offlineMode: true }, auth: { offlineMode: false } } as Pick<Snapshot, 'network' | 'auth'>;

describe('what the report form tells after «Отправить отчёт»', () => {
  it('online: sending, then sent — never «in the queue»', () => {
    expect(submitOutcome(item(), reachable, false)).toEqual({ phase: 'sending', text: 'Отчёт отправляется…' });
    expect(submitOutcome(item({ state: 'sending', progress: 0.5 }), reachable, false).text).toBe('Отчёт отправляется: 50 %…');
    expect(submitOutcome(item({ state: 'sent' }), reachable, false).text).toBe('Отчёт отправлен. Рейс записан; задача остаётся в текущих до последнего рейса.');
    // Delivered and let go by the outbox (its task finished): sent too.
    expect(submitOutcome(undefined, reachable, true).text).toBe('Отчёт отправлен. Задача выполнена: она теперь в разделе «Статистика».');
  });

  it('kept on the phone: says why and when it goes', () => {
    expect(submitOutcome(item({ waited: true }), noNetwork, true)).toEqual({
      phase: 'queued',
      text: 'Нет сети. Отчёт сохранён на телефоне и уйдёт сам, как только связь появится. Задача уйдёт в «Статистику», когда отчёт дойдёт.',
    });
    expect(submitOutcome(item({ waited: true }), serverDown, false).text).toBe('Сервер не отвечает. Отчёт сохранён на телефоне и уйдёт сам, как только сервер ответит.');
    expect(submitOutcome(item({ state: 'retry', nextAttemptAt: Date.UTC(2026, 0, 1, 9, 0, 5) }), reachable, false).text).toMatch(/^Связь с сервером прервалась\. .*Следующая попытка в \d\d:\d\d:\d\d\.$/);
    expect(submitOutcome(item({ state: 'failed', lastError: 'Задача уже завершена', nextAttemptAt: 2_000 }), reachable, false)).toMatchObject({ phase: 'refused' });
    expect(submitOutcome(item({ state: 'failed', lastError: 'Задача уже завершена' }), reachable, false).text).toContain('Сервер не принял отчёт: Задача уже завершена.');
  });

  it('a report that waited and then went is handed to the engine\'s «Отчёт отправлен»', () => {
    expect(submitOutcome(item({ state: 'sent', waited: true }), reachable, false).phase).toBe('delivered-later');
    expect(submitOutcome(undefined, reachable, false, true).phase).toBe('delivered-later');
  });
});
