import { describe, expect, it } from 'vitest';
import { runBulk, summarizeBulk } from '../../src/ui/console/bulk.ts';
import { readUrlState, writeUrlState } from '../../src/ui/console/use-url-state.ts';
import { ApiError } from '../../src/engine/queries.ts';
import { placeServerError } from '../../src/ui/server-error.ts';
import { formatDate, formatDateTime, formatMoney, formatQuantity, formatRate } from '../../src/ui/format.ts';

describe('runBulk', () => {
  it('tries every row and keeps each refusal with the server reason', async () => {
    const items = [
      { id: '1', label: 'Щебень' },
      { id: '2', label: 'Песок' },
      { id: '3', label: 'Гравий' },
    ];
    const progress: number[] = [];
    const outcomes = await runBulk(
      items,
      async (item) => {
        if (item.id === '2') throw new ApiError({ ok: false, message: 'Задание не найдено', status: 404, network: false });
      },
      (done) => progress.push(done),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toEqual({ id: '2', label: 'Песок', ok: false, message: 'Задание не найдено' });
    expect(progress).toEqual([1, 2, 3]);
    expect(summarizeBulk(outcomes)).toBe('2 выполнено, 1 отклонено');
  });

  it('never says all done when one failed, and names a network failure', async () => {
    const outcomes = await runBulk([{ id: '1', label: 'A' }], async () => {
      throw new ApiError({ ok: false, message: 'Network Error', status: null, network: true });
    });
    expect(outcomes[0]?.message).toBe('Нет связи с сервером');
    expect(summarizeBulk(outcomes)).toBe('Не выполнено ни одного: отклонено 1 из 1');
    expect(summarizeBulk([{ id: '1', label: 'A', ok: true, message: null }])).toBe('Выполнено: 1 из 1');
  });
});

describe('URL state', () => {
  const defaults = { tab: 'all', search: '', page: '0' };

  it('reads declared keys over their defaults and ignores others', () => {
    const state = readUrlState(new URLSearchParams('search=%D1%89%D0%B5&page=2&other=x'), defaults);
    expect(state).toEqual({ tab: 'all', search: 'ще', page: '2' });
  });

  it('leaves defaults out of the URL and keeps foreign params', () => {
    const next = writeUrlState(new URLSearchParams('id=5&page=3'), { tab: 'completed', search: '', page: '0' }, defaults);
    expect(next.toString()).toBe('id=5&tab=completed');
  });
});

describe('formatting', () => {
  it('dates, times, quantities and rates in Russian', () => {
    expect(formatDate('2026-11-23')).toBe('23.11.2026');
    expect(formatQuantity(1200, 'т').replace(/\s/g, ' ')).toBe('1 200 т');
    expect(formatQuantity(null, 'т')).toBe('—');
    expect(formatRate(460).replace(/\s/g, ' ')).toBe('460 ₽/т');
    // Money with kopecks shows both of their figures: «640,50 ₽», never «640,5 ₽»; whole rubles stay whole.
    expect([640.5, 16250, 5623.76, 0.1].map((n) => formatMoney(n).replace(/\s/g, ' '))).toEqual(['640,50 ₽', '16 250 ₽', '5 623,76 ₽', '0,10 ₽']);
    expect(formatDateTime(new Date(2026, 10, 23, 14, 5).toISOString())).toBe('23.11.2026 14:05');
  });
});

describe('placeServerError', () => {
  it('puts a refusal under the field it names, when the form has that field; anything else is the form’s', () => {
    const refusal = (message: string) => new ApiError({ ok: false, message, status: 400, network: false });
    expect(placeServerError(refusal('quantity: Количество должно быть больше нуля'), ['quantity', 'comment'])).toEqual({
      field: 'quantity',
      message: 'Количество должно быть больше нуля',
    });
    expect(placeServerError(refusal('rate: не число'), ['quantity'])).toEqual({ field: null, message: 'rate: не число' });
    expect(placeServerError(refusal('Передача уже принята'), ['quantity'])).toEqual({ field: null, message: 'Передача уже принята' });
  });
});
