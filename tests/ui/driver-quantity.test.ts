import { describe, expect, it } from 'vitest';
import { parseHours, parseQuantity, quantitiesUnsaved, quantityBody, quantityText } from '../../src/parts/driver/quantity.ts';

describe('driver quantity fields', () => {
  it('sends null for an empty or blank field', () => {
    expect(parseQuantity('')).toEqual({ ok: true, value: null });
    expect(parseQuantity('   ')).toEqual({ ok: true, value: null });
  });

  it('sends a number otherwise, accepting a decimal comma and spaces between digits', () => {
    expect(parseQuantity('12')).toEqual({ ok: true, value: 12 });
    expect(parseQuantity(' 12,5 ')).toEqual({ ok: true, value: 12.5 });
    expect(parseQuantity('1 200.25')).toEqual({ ok: true, value: 1200.25 });
    expect(parseQuantity('0')).toEqual({ ok: true, value: 0 });
  });

  it('rejects text and negative numbers instead of silently sending null', () => {
    expect(parseQuantity('abc').ok).toBe(false);
    expect(parseQuantity('1,2,3').ok).toBe(false);
    expect(parseQuantity('12кг').ok).toBe(false);
    expect(parseQuantity('-3')).toEqual({ ok: false, error: 'Число не может быть отрицательным' });
  });

  it('builds the quantity update body field by field', () => {
    expect(quantityBody({ quantity: '20', loading_quantity: '', unloading_quantity: '19,5' })).toEqual({
      ok: true,
      body: { quantity: 20, loading_quantity: null, unloading_quantity: 19.5 },
    });
  });

  it('names every invalid field and sends nothing', () => {
    const result = quantityBody({ quantity: 'x', loading_quantity: '3', unloading_quantity: '-1' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(['quantity', 'unloading_quantity']);
  });

  it('shows a stored number back with a comma and null as an empty field', () => {
    expect(quantityText(12.5)).toBe('12,5');
    expect(quantityText(null)).toBe('');
    expect(parseQuantity(quantityText(7.25))).toEqual({ ok: true, value: 7.25 });
  });

  it('accepts daily hours above 0 and up to 24 only', () => {
    expect(parseHours('8')).toEqual({ ok: true, value: 8 });
    expect(parseHours('24')).toEqual({ ok: true, value: 24 });
    expect(parseHours('0').ok).toBe(false);
    expect(parseHours('24,5').ok).toBe(false);
    expect(parseHours('').ok).toBe(false);
  });
});

describe('unsaved quantities', () => {
  const stored = { quantity: 24.5, loading_quantity: null, unloading_quantity: 25 };
  const typed = (quantity: string, loading = '', unloading = '25') => ({ quantity, loading_quantity: loading, unloading_quantity: unloading });

  it('are none while the fields read as what the server holds, however they are written', () => {
    expect(quantitiesUnsaved(typed('24,5'), stored)).toBe(false);
    expect(quantitiesUnsaved(typed(' 24.50 ', '  '), stored)).toBe(false);
  });

  it('are there when a value differs, is cleared, is added, or does not read as a number', () => {
    expect(quantitiesUnsaved(typed('24'), stored)).toBe(true);
    expect(quantitiesUnsaved(typed(''), stored)).toBe(true);
    expect(quantitiesUnsaved(typed('24,5', '30'), stored)).toBe(true);
    expect(quantitiesUnsaved(typed('24,5', '', 'двадцать'), stored)).toBe(true);
  });
});
