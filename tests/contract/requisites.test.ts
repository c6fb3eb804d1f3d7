/** ИНН, КПП, ОГРН / ОГРНИП and the counterparty's and the carrier's schemas (contract/requisites.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  companyRequisitesSchema,
  counterpartySchema,
  innProblem,
  kppProblem,
  ogrnProblem,
} from '../../contract/requisites.ts';

// Public registry numbers: Сбербанк, Яндекс, Газпром, Ростелеком (ЮЛ); entrepreneurs' numbers as printed in
// the tax service's examples.
const VALID_INN10 = ['7707083893', '7736207543', '7736050003', '7707049388'];
const VALID_INN12 = ['500100732259', '773370857141'];
const VALID_OGRN = ['1027700132195', '1027700229193', '1027700070518', '1027700198767'];
const VALID_OGRNIP = ['304500116000157'];

// A reference written apart from the module: the tax service's weights and BigInt remainders.
const weighted = (digits: string, weights: number[]) =>
  (weights.reduce((sum, w, i) => sum + w * Number(digits[i]), 0) % 11) % 10;
const refInn = (leading: string) =>
  leading.length === 9
    ? `${leading}${weighted(leading, [2, 4, 10, 3, 5, 9, 4, 6, 8])}`
    : ((with11: string) => `${with11}${weighted(with11, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8])}`)(
        `${leading}${weighted(leading, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8])}`,
      );
const refOgrn = (leading: string) => `${leading}${(BigInt(leading) % (leading.length === 14 ? 13n : 11n)) % 10n}`;

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
const otherDigit = (right: string) => fc.integer({ min: 0, max: 9 }).filter((d) => String(d) !== right).map(String);

describe('ИНН', () => {
  it('accepts known valid numbers', () => {
    for (const inn of VALID_INN10) expect(innProblem(inn, 'ul')).toBeNull();
    for (const inn of VALID_INN12) {
      expect(innProblem(inn, 'ip')).toBeNull();
      expect(innProblem(inn, 'fl')).toBeNull();
    }
    for (const inn of [...VALID_INN10, ...VALID_INN12]) expect(innProblem(inn)).toBeNull();
  });

  it('refuses a wrong check digit and a wrong length with the reason the user reads', () => {
    expect(innProblem('7707083894', 'ul')).toBe('ИНН: неверная контрольная цифра');
    expect(innProblem('500100732258', 'ip')).toBe('ИНН: неверная контрольная цифра');
    expect(innProblem('500100732249', 'fl')).toBe('ИНН: неверная контрольная цифра');
    expect(innProblem('500100732259', 'ul')).toBe('ИНН: должен состоять из 10 цифр');
    expect(innProblem('7707083893', 'ip')).toBe('ИНН: должен состоять из 12 цифр');
    expect(innProblem('77070838a3', 'ul')).toBe('ИНН: должен состоять из 10 цифр');
    expect(innProblem('77070838931')).toBe('ИНН: должен состоять из 10 или 12 цифр');
  });

  it('property: 10 digits pass with their check digit, and fail with any other', () => {
    fc.assert(
      fc.property(digits(9).chain((lead) => fc.tuple(fc.constant(refInn(lead)), otherDigit(refInn(lead).slice(-1)))), ([inn, wrong]) => {
        expect(innProblem(inn, 'ul')).toBeNull();
        expect(innProblem(inn.slice(0, 9) + wrong, 'ul')).toBe('ИНН: неверная контрольная цифра');
      }),
      { numRuns: 500 },
    );
  });

  it('property: 12 digits pass with both check digits, and fail when either is any other', () => {
    fc.assert(
      fc.property(
        digits(10).chain((lead) => {
          const inn = refInn(lead);
          return fc.tuple(fc.constant(inn), otherDigit(inn[10] ?? ''), otherDigit(inn[11] ?? ''));
        }),
        ([inn, wrong11, wrong12]) => {
          expect(innProblem(inn, 'ip')).toBeNull();
          expect(innProblem(inn.slice(0, 10) + wrong11 + inn.slice(11), 'ip')).toBe('ИНН: неверная контрольная цифра');
          expect(innProblem(inn.slice(0, 11) + wrong12, 'fl')).toBe('ИНН: неверная контрольная цифра');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('ОГРН and ОГРНИП', () => {
  it('accepts known valid numbers', () => {
    for (const ogrn of VALID_OGRN) expect(ogrnProblem(ogrn, 'ul')).toBeNull();
    for (const ogrn of VALID_OGRNIP) expect(ogrnProblem(ogrn, 'ip')).toBeNull();
    for (const ogrn of [...VALID_OGRN, ...VALID_OGRNIP]) expect(ogrnProblem(ogrn)).toBeNull();
  });

  it('refuses a wrong length, first digit or check digit', () => {
    expect(ogrnProblem('1027700132194', 'ul')).toBe('ОГРН: неверная контрольная цифра');
    expect(ogrnProblem('304500116000158', 'ip')).toBe('ОГРНИП: неверная контрольная цифра');
    expect(ogrnProblem('304500116000157', 'ul')).toBe('ОГРН: должен состоять из 13 цифр');
    expect(ogrnProblem('1027700132195', 'ip')).toBe('ОГРНИП: должен состоять из 15 цифр');
    expect(ogrnProblem('102770013219')).toBe('ОГРН: должен состоять из 13 цифр (ОГРНИП — из 15)');
    expect(ogrnProblem(refOgrn('302770013219'), 'ul')).toBe('ОГРН: должен начинаться с 1 или 5');
    expect(ogrnProblem(refOgrn('10450011600015'), 'ip')).toBe('ОГРНИП: должен начинаться с 3');
  });

  it('property: ОГРН (13) and ОГРНИП (15) pass with their check digit, and fail with any other', () => {
    const lead = (first: fc.Arbitrary<string>, rest: number) => fc.tuple(first, digits(rest)).map(([a, b]) => a + b);
    const cases = fc.oneof(
      lead(fc.constantFrom('1', '5'), 11).map((l) => ({ number: refOgrn(l), form: 'ul' as const })),
      lead(fc.constant('3'), 13).map((l) => ({ number: refOgrn(l), form: 'ip' as const })),
    );
    fc.assert(
      fc.property(cases.chain((c) => fc.tuple(fc.constant(c), otherDigit(c.number.slice(-1)))), ([{ number, form }, wrong]) => {
        expect(ogrnProblem(number, form)).toBeNull();
        expect(ogrnProblem(number.slice(0, -1) + wrong, form)).toMatch(/^ОГРН(?:ИП)?: неверная контрольная цифра$/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('КПП', () => {
  it('is 4 digits, 2 digits or capital Latin letters, 3 digits', () => {
    expect(kppProblem('773601001')).toBeNull();
    expect(kppProblem('7736AB001')).toBeNull();
    for (const bad of ['77360100', '7736010011', 'A73601001', '7736ab001', '7736АВ001', '773601A01']) {
      expect(kppProblem(bad)).toMatch(/^КПП: должен состоять из 9 знаков/);
    }
  });
});

const card = {
  legal_form: 'ul',
  name: 'Сбербанк',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  roles: ['customer'],
};
const refusal = (input: unknown) => {
  const result = counterpartySchema.safeParse(input);
  return result.success ? null : result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`);
};

describe('counterpartySchema', () => {
  it('takes a legal entity, with spaces in its numbers dropped and empty fields as null', () => {
    const parsed = counterpartySchema.parse({ ...card, inn: ' 7707 083 893 ', kpp: '7736ab001', phone: '', note: '  ', roles: ['consignee', 'customer', 'consignee'] });
    expect(parsed).toMatchObject({ inn: '7707083893', kpp: '7736AB001', ogrn: '1027700132195', phone: null, note: null, full_name: null, edo_id: null });
    expect(parsed.roles).toEqual(['customer', 'consignee']);
  });

  it('takes an entrepreneur with ОГРНИП and a private person without ИНН', () => {
    expect(refusal({ ...card, legal_form: 'ip', inn: '500100732259', kpp: null, ogrn: '304500116000157' })).toBeNull();
    expect(refusal({ legal_form: 'fl', name: 'Иванов И. И.', roles: ['consignee'] })).toBeNull();
    expect(refusal({ legal_form: 'fl', name: 'Иванов И. И.', inn: '500100732259', roles: ['consignee'] })).toBeNull();
  });

  it('refuses each rule on its field, naming it in Russian', () => {
    expect(refusal({ ...card, inn: '7707083894' })).toEqual(['inn ИНН: неверная контрольная цифра']);
    expect(refusal({ ...card, inn: undefined })).toEqual(['inn ИНН: обязательное поле']);
    expect(refusal({ ...card, legal_form: 'ip', inn: '7707083893', kpp: null, ogrn: null })).toEqual(['inn ИНН: должен состоять из 12 цифр']);
    expect(refusal({ ...card, legal_form: 'ip', inn: '500100732259', ogrn: null })).toEqual(['kpp КПП: бывает только у юридического лица']);
    expect(refusal({ ...card, legal_form: 'ip', inn: '500100732259', kpp: '', ogrn: '1027700132195' })).toEqual(['ogrn ОГРНИП: должен состоять из 15 цифр']);
    expect(refusal({ ...card, ogrn: '304500116000157' })).toEqual(['ogrn ОГРН: должен состоять из 13 цифр']);
    expect(refusal({ legal_form: 'fl', name: 'Иванов', inn: '500100732259', ogrn: '304500116000157', roles: ['shipper'] })).toEqual([
      'ogrn ОГРН: у физического лица его нет',
    ]);
    expect(refusal({ ...card, kpp: '77360100' })?.[0]).toMatch(/^kpp КПП: должен состоять из 9 знаков/);
    expect(refusal({ ...card, roles: [] })).toEqual(['roles Роли: укажите хотя бы одну — заказчик, грузоотправитель или грузополучатель']);
    expect(refusal({ ...card, roles: ['carrier'] })).toEqual(['roles.0 Роли: ожидается customer, shipper или consignee']);
    expect(refusal({ ...card, legal_form: 'ooo' })).toEqual(['legal_form Форма: ожидается ЮЛ (ul), ИП (ip) или физлицо (fl)']);
    expect(refusal({ ...card, name: ' ' })).toEqual(['name Название: обязательное поле']);
    expect(refusal({ ...card, phone: 'звоните' })).toEqual(['phone Телефон: некорректный номер']);
    expect(counterpartySchema.safeParse({ ...card, price: 1 }).error?.issues[0]?.code).toBe('unrecognized_keys');
  });
});

describe('companyRequisitesSchema', () => {
  it('takes a legal entity, an entrepreneur, or nothing at all', () => {
    expect(companyRequisitesSchema.parse({ full_name: 'ООО «Рейс»', inn: '7707083893', kpp: '773601001', ogrn: '1027700132195', address: 'Москва', phone: '+7 495 000-00-00' })).toMatchObject({
      inn: '7707083893',
    });
    expect(companyRequisitesSchema.safeParse({ inn: '500100732259', ogrn: '304500116000157' }).success).toBe(true);
    // A partial update leaves the absent fields as they are: they stay absent, not null.
    expect(companyRequisitesSchema.parse({})).toEqual({});
  });

  it('tells the legal entity from the entrepreneur by the ИНН', () => {
    const issues = (input: unknown) => companyRequisitesSchema.safeParse(input).error?.issues.map((i) => i.message);
    expect(issues({ inn: '500100732259', kpp: '773601001' })).toEqual(['КПП: бывает только у юридического лица']);
    expect(issues({ inn: '500100732259', ogrn: '1027700132195' })).toEqual(['ОГРНИП: должен состоять из 15 цифр']);
    expect(issues({ inn: '7707083893', ogrn: '304500116000157' })).toEqual(['ОГРН: должен состоять из 13 цифр']);
    expect(issues({ inn: '770708389' })).toEqual(['ИНН: должен состоять из 10 или 12 цифр']);
    expect(issues({ ogrn: '1027700132196' })).toEqual(['ОГРН: неверная контрольная цифра']);
  });
});
