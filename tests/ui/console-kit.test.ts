import { describe, expect, it } from 'vitest';
import { bulkSummary, runBulk } from '../../src/ui/console/bulk.ts';
import { orderingToSorting, parseUrlState, sortingToOrdering, writeUrlState } from '../../src/ui/console/url-state.ts';
import { formatDate, formatDateTime, formatMoney, formatNumber, formatQuantity } from '../../src/ui/format.ts';
import { DRIVER_STATUS_LABELS, TASK_STATUS_LABELS } from '../../src/ui/statuses.ts';
import { DRIVER_STATUSES, TASK_STATUSES } from '../../contract/entities.ts';

const THIN = '\u2009';

describe('runBulk', () => {
  const items = [1, 2, 3, 4].map((id) => ({ id, label: `Задача ${id}` }));

  it('gives every item its own outcome in the items order, with the refusal reason', async () => {
    const progress: number[] = [];
    const outcomes = await runBulk(
      items,
      async (item) => {
        // The later items finish first, so the order cannot come from completion.
        await new Promise((resolve) => setTimeout(resolve, (5 - item.id) * 2));
        if (item.id === 3) throw new Error('Задача не найдена');
      },
      { concurrency: 4, onProgress: (done) => progress.push(done) },
    );
    expect(outcomes).toEqual([
      { id: 1, label: 'Задача 1', ok: true, message: '' },
      { id: 2, label: 'Задача 2', ok: true, message: '' },
      { id: 3, label: 'Задача 3', ok: false, message: 'Задача не найдена' },
      { id: 4, label: 'Задача 4', ok: true, message: '' },
    ]);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(bulkSummary(outcomes)).toBe('3 выполнено, 1 отклонено');
  });

  it('never runs more calls at once than allowed', async () => {
    let running = 0;
    let peak = 0;
    await runBulk(items, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
    }, { concurrency: 2 });
    expect(peak).toBe(2);
  });

  it('summarises one-sided results without the zero part', async () => {
    expect(bulkSummary(await runBulk(items.slice(0, 2), async () => undefined))).toBe('2 выполнено');
    expect(bulkSummary(await runBulk(items.slice(0, 1), () => Promise.reject(new Error('Нет'))))).toBe('1 отклонено');
    expect((await runBulk(items.slice(0, 1), () => Promise.reject(42)))[0]?.message).toBe('Неизвестная ошибка');
  });
});

describe('URL state', () => {
  const defaults = { tab: 'all', search: '', page: 0, ordering: '-date', mine: false };

  it('reads typed values and falls back to defaults on missing or unreadable ones', () => {
    expect(parseUrlState('?tab=completed&page=3&mine=1&search=%D1%89', defaults)).toEqual({
      tab: 'completed',
      search: 'щ',
      page: 3,
      ordering: '-date',
      mine: true,
    });
    expect(parseUrlState('page=abc&mine=maybe&page=', defaults)).toEqual(defaults);
  });

  it('leaves defaults and empty strings out of the URL and keeps keys it does not own', () => {
    const next = writeUrlState(new URLSearchParams('other=x&page=4&search=a'), { page: 0, search: '', tab: 'completed' }, defaults);
    expect(next.toString()).toBe('other=x&tab=completed');
    expect(writeUrlState(new URLSearchParams(), { mine: true, ordering: 'cargo' }, defaults).toString()).toBe('mine=1&ordering=cargo');
  });

  it('round-trips the ordering through react-table sorting', () => {
    expect(orderingToSorting('-date')).toEqual([{ id: 'date', desc: true }]);
    expect(orderingToSorting('cargo')).toEqual([{ id: 'cargo', desc: false }]);
    expect(sortingToOrdering([{ id: 'date', desc: true }])).toBe('-date');
    expect(sortingToOrdering([])).toBe('');
    expect(orderingToSorting('')).toEqual([]);
  });
});

describe('formatting', () => {
  it('writes numbers with a thin space for thousands and a unit', () => {
    expect(formatNumber(1200)).toBe(`1${THIN}200`);
    expect(formatQuantity(1200, 'т')).toBe(`1${THIN}200 т`);
    expect(formatQuantity(12.5, 'т')).toBe('12,5 т');
    expect(formatQuantity(null, 'т')).toBe('—');
    expect(formatQuantity(1234567)).toBe(`1${THIN}234${THIN}567`);
  });

  it('writes money in roubles, per unit when asked', () => {
    expect(formatMoney(460)).toBe('460 ₽');
    expect(formatMoney(460, 'т')).toBe('460 ₽/т');
    expect(formatMoney(12500.5)).toBe(`12${THIN}500,5 ₽`);
    expect(formatMoney(undefined)).toBe('—');
  });

  it('writes dates as 23.11.2026 and instants with local time', () => {
    expect(formatDate('2026-11-23')).toBe('23.11.2026');
    expect(formatDate('2026-11-23T10:00:00Z')).toBe('23.11.2026');
    expect(formatDate('завтра')).toBe('завтра');
    expect(formatDateTime(new Date(2026, 10, 23, 14, 5).getTime())).toBe('23.11.2026 14:05');
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('не дата')).toBe('не дата');
  });

  it('names every status once, in Russian', () => {
    for (const status of TASK_STATUSES) expect(TASK_STATUS_LABELS[status]).toMatch(/^[А-Я][а-я ]+$/);
    for (const status of DRIVER_STATUSES) expect(DRIVER_STATUS_LABELS[status]).toMatch(/^[А-Я][а-я ]+$/);
  });
});
