/** The one plural rule and number words (contract/words.ts) every realm uses. */
import { describe, expect, it } from 'vitest';
import { DAYS, REPORTS, ROWS_TO_DO, TRIPS, WAIT, formatNumber, inMonthLabel, plural, pluralForm, rateSourceText } from '../../contract/words.ts';
import { formatTrips } from '../../src/ui/format.ts';

describe('plural (Intl.PluralRules ru)', () => {
  it('picks the Russian form by the number', () => {
    const cases: [number, string][] = [
      [0, '0 рейсов'],
      [1, '1 рейс'],
      [2, '2 рейса'],
      [4, '4 рейса'],
      [5, '5 рейсов'],
      [11, '11 рейсов'],
      [12, '12 рейсов'],
      [14, '14 рейсов'],
      [21, '21 рейс'],
      [22, '22 рейса'],
      [25, '25 рейсов'],
      [101, '101 рейс'],
      [111, '111 рейсов'],
      [112, '112 рейсов'],
      [122, '122 рейса'],
      [1001, '1 001 рейс'],
    ];
    for (const [n, text] of cases) expect(plural(n, TRIPS).replace(/\s/g, ' ')).toBe(text);
  });

  it('a fraction takes the «few» form, with a decimal comma', () => {
    expect(plural(1.5, DAYS)).toBe('1,5 дня');
    expect(pluralForm(0.5, REPORTS)).toBe('отчёта');
  });

  it('the forms after a verb: «Подтвердить 2 отчёта», «пропустить 1 строку», «62 дня»', () => {
    expect(`Подтвердить ${plural(2, REPORTS)} без замечаний?`).toBe('Подтвердить 2 отчёта без замечаний?');
    expect(plural(1, ROWS_TO_DO)).toBe('1 строку');
    expect(plural(62, DAYS)).toBe('62 дня');
    expect(formatTrips(3)).toBe('3 рейса');
  });

  it('the verb agrees with the count, and a month after «в» is in the prepositional case', () => {
    const waiting = (n: number) => `${plural(n, REPORTS)} ${pluralForm(n, WAIT)} проверки`;
    expect([waiting(1), waiting(3), waiting(5), waiting(21)]).toEqual(['1 отчёт ждёт проверки', '3 отчёта ждут проверки', '5 отчётов ждут проверки', '21 отчёт ждёт проверки']);
    expect([inMonthLabel('2026-11'), inMonthLabel('2027-03')]).toEqual(['в ноябре 2026', 'в марте 2027']);
  });
});

describe('numbers in words', () => {
  it('decimal comma, groups of thousands, at most three decimals', () => {
    expect(formatNumber(207.9)).toBe('207,9');
    expect(formatNumber(1250.5).replace(/\s/g, ' ')).toBe('1 250,5');
    expect(formatNumber(0.12345)).toBe('0,123');
  });

  it('where a rate came from, said once for every screen and file', () => {
    expect(rateSourceText({ rate_source: 'progressive', month_volume: 207.9, unit: 'т' })).toBe('по шкале при 207,9 т за месяц');
    expect(rateSourceText({ rate_source: 'transport_rate', month_volume: 0, unit: 'т', frozen: true })).toBe('ставка водителя, месяц закрыт');
    expect(rateSourceText({ rate_source: null, month_volume: 0, unit: 'т' })).toBe('ставка не задана');
  });
});
