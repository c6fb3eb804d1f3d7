/** The amount in words and the VAT of the act and the invoice (contract/statements.ts; docs/statements.md). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountInWords, invoiceCreateSchema, numberInWords, statementQuery, vatIncludedKop } from '../../contract/statements.ts';

describe('amountInWords', () => {
  it.each([
    [0, 'Ноль рублей 00 копеек'],
    [1, 'Один рубль 00 копеек'],
    [2, 'Два рубля 00 копеек'],
    [5, 'Пять рублей 00 копеек'],
    [11, 'Одиннадцать рублей 00 копеек'],
    [12, 'Двенадцать рублей 00 копеек'],
    [21, 'Двадцать один рубль 00 копеек'],
    [22, 'Двадцать два рубля 00 копеек'],
    [111, 'Сто одиннадцать рублей 00 копеек'],
    [1000, 'Одна тысяча рублей 00 копеек'],
    [2000, 'Две тысячи рублей 00 копеек'],
    [5000, 'Пять тысяч рублей 00 копеек'],
    [11_000, 'Одиннадцать тысяч рублей 00 копеек'],
    [21_000, 'Двадцать одна тысяча рублей 00 копеек'],
    [1_000_000, 'Один миллион рублей 00 копеек'],
    [2_001_001, 'Два миллиона одна тысяча один рубль 00 копеек'],
    [150_382, 'Сто пятьдесят тысяч триста восемьдесят два рубля 00 копеек'],
    [1_000_000_000, 'Один миллиард рублей 00 копеек'],
  ])('%d ₽ → %s', (rubles, words) => {
    expect(amountInWords(rubles)).toBe(words);
  });

  it.each([
    [0.01, 'Ноль рублей 01 копейка'],
    [0.02, 'Ноль рублей 02 копейки'],
    [0.05, 'Ноль рублей 05 копеек'],
    [1.11, 'Один рубль 11 копеек'],
    [21.21, 'Двадцать один рубль 21 копейка'],
    [22.22, 'Двадцать два рубля 22 копейки'],
    [150_382.45, 'Сто пятьдесят тысяч триста восемьдесят два рубля 45 копеек'],
    // A double that is a hair below its kopeck: 0.29 * 100 = 28.999999999999996.
    [0.29, 'Ноль рублей 29 копеек'],
  ])('%d ₽ → %s (kopecks)', (rubles, words) => {
    expect(amountInWords(rubles)).toBe(words);
  });

  it('refuses a negative or non-finite amount', () => {
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(Number.NaN)).toThrow(RangeError);
  });

  it('writes every whole number below a million with one word per spoken part, no double spaces', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999 }), (n) => {
        const words = numberInWords(n);
        expect(words).not.toMatch(/\s{2}|^\s|\s$/);
        // The thousands' group is feminine: never «один тысяча» or «два тысячи».
        expect(words).not.toMatch(/(один|два) тысяч/);
      }),
    );
  });
});

describe('vatIncludedKop', () => {
  it('is the VAT inside a total that includes it, to the kopeck; «Без НДС» and 0 % are none', () => {
    expect(vatIncludedKop(12_000_00, 20)).toBe(2_000_00);
    expect(vatIncludedKop(100_01, 20)).toBe(16_67);
    expect(vatIncludedKop(12_000_00, null)).toBe(0);
    expect(vatIncludedKop(12_000_00, 0)).toBe(0);
    expect(vatIncludedKop(10_500_00, 5)).toBe(500_00);
  });
});

describe('the schemas', () => {
  it('refuses a period that ends before it starts, naming it', () => {
    const r = statementQuery.safeParse({ from: '2026-11-30', to: '2026-11-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Период: дата «по» раньше даты «с»');
    expect(invoiceCreateSchema.safeParse({ counterparty_id: 1, from: '2026-11-01', to: '2026-11-30' }).success).toBe(true);
    expect(statementQuery.parse({ from: '2026-11-01', to: '2026-11-30' }).format).toBe('json');
  });
});
