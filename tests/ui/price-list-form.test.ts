/** The price list's form and the task form's price hint (src/parts/registers/price-form.ts, src/screens/task-form/price-hint.ts). */
import { describe, expect, it } from 'vitest';
import type { PriceLine } from '../../contract/prices.ts';
import { actVatNote, emptyLine, lineBody, lineValues, periodText, priceGroups, priceText } from '../../src/parts/registers/price-form.ts';
import { priceHint } from '../../src/screens/task-form/price-hint.ts';

const line = (over: Partial<PriceLine>): PriceLine => ({
  id: 1,
  company_id: 1,
  counterparty_id: 5,
  cargo: null,
  loading_place_id: null,
  unloading_place_id: null,
  loading_place: null,
  unloading_place: null,
  unit: 'т',
  price: 450.5,
  vat_mode: 'none',
  vat_rate: null,
  free_minutes: null,
  valid_from: '2026-11-01',
  valid_to: null,
  frozen: false,
  created_at: '',
  updated_at: '',
  ...over,
});

describe('price line form', () => {
  it('builds the body from typed text with a decimal comma, and refuses a half route or a missing hourly free period', () => {
    expect(lineBody({ ...emptyLine('2026-11-01'), price: '450,05' })).toEqual({
      ok: true,
      body: { cargo: null, loading_place_id: null, unloading_place_id: null, unit: 'т', price: 450.05, vat_mode: 'none', vat_rate: null, free_minutes: null, valid_from: '2026-11-01' },
    });
    const half = lineBody({ ...emptyLine('2026-11-01'), price: '1', loading_place_id: '3' });
    expect(half).toEqual({ ok: false, errors: { unloading_place_id: 'Укажите оба места или ни одного (любой маршрут)' } });
    expect(lineBody({ ...emptyLine('2026-11-01'), price: '1500', unit: 'час' })).toMatchObject({ ok: false, errors: { free_minutes: expect.stringMatching(/^Укажите минуты/) } });
    expect(lineBody({ ...emptyLine('2026-11-01'), price: '' })).toMatchObject({ ok: false, errors: { price: 'Укажите цену больше 0' } });
  });

  it('a new version from a date keeps what the line prices and asks the new price', () => {
    const values = lineValues(line({ cargo: 'Щебень', loading_place_id: 1, unloading_place_id: 2 }), '2026-12-01');
    expect(values).toMatchObject({ cargo: 'Щебень', loading_place_id: '1', unloading_place_id: '2', price: '', valid_from: '2026-12-01' });
  });

  it('groups versions by what they price, newest first, and words them', () => {
    const groups = priceGroups([line({ id: 1 }), line({ id: 2, cargo: 'Песок' }), line({ id: 3, valid_from: '2026-12-01' })]);
    expect(groups.map((g) => g.map((l) => l.id))).toEqual([[3, 1], [2]]);
    expect(periodText(line({ valid_to: '2026-11-30' }))).toBe('с 01.11.2026 по 30.11.2026');
    expect(priceText(line({ unit: 'час', price: 1500, free_minutes: 60, vat_mode: 'added', vat_rate: 22 }))).toMatch(/^1[\s\u00a0]500 ₽ за час, НДС сверху 22 %, первые 60 мин бесплатно$/);
  });
});

describe('the act’s VAT beside a line', () => {
  it('says where the act bills otherwise than the line reads: the company’s rate included, or «без НДС»', () => {
    const included20 = line({ vat_mode: 'included', vat_rate: 20 });
    expect(actVatNote(included20, 20)).toBeNull();
    expect(actVatNote(line({ vat_mode: 'none' }), null)).toBeNull();
    expect(actVatNote(included20, undefined)).toBeNull();
    expect(actVatNote(line({ vat_mode: 'added', vat_rate: 20 }), 20)).toBe('В акте — НДС 20 % в том числе в цене, не сверху: так настроена компания');
    expect(actVatNote(line({ vat_mode: 'none' }), 20)).toBe('В акте — НДС 20 % в том числе в цене: так настроена компания');
    expect(actVatNote(line({ vat_mode: 'included', vat_rate: 10 }), 20)).toBe('В акте — НДС 20 % в том числе в цене: так настроена компания');
    expect(actVatNote(included20, null)).toBe('В акте — без НДС: так настроена компания');
  });
});

describe('task form price hint', () => {
  const task = { cargo: 'Щебень', loading: { id: 1, name: 'Карьер' }, unloading: { id: 2, name: 'Объект' }, unit: 'т', date: '2026-11-20', rate: '' };
  const lines = [line({ id: 1, price: 400 }), line({ id: 2, loading_place_id: 1, unloading_place_id: 2, loading_place: { id: 1, name: 'Карьер' }, unloading_place: { id: 2, name: 'Объект' }, price: 455.55 })];

  it('says «по прайсу» with the most specific line while the price is empty or equal to it', () => {
    expect(priceHint(task, lines)).toMatchObject({ kind: 'list', filled: false, line: { id: 2 } });
    expect(priceHint({ ...task, rate: '455,55' }, lines)).toMatchObject({ kind: 'list', filled: true, text: expect.stringMatching(/^по прайсу: 455,55 ₽ за т \(любой груз, Карьер → Объект, за т, с 01\.11\.2026\)$/) });
  });

  it('says «вручную» for another price, with the list’s price beside it', () => {
    expect(priceHint({ ...task, rate: '500' }, lines)).toMatchObject({ kind: 'manual', line: { id: 2 }, text: 'вручную (по прайсу — 455,55 ₽)' });
    expect(priceHint({ ...task, rate: '500' }, null)).toEqual({ kind: 'manual', line: null, text: 'вручную' });
    expect(priceHint(task, null)).toEqual({ kind: 'none' });
    expect(priceHint({ ...task, unit: 'рейс' }, lines)).toMatchObject({ kind: 'missing' });
  });
});
