/** Russian plates read from what a person types, one stored form, one shown form (contract/plates.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLATE_LETTERS, parsePlate } from '../../contract/plates.ts';

const plate = (input: string, options?: Parameters<typeof parsePlate>[1]) => {
  const result = parsePlate(input, options);
  return result.ok ? result.plate : result.reason;
};

describe('parsePlate', () => {
  it('reads a vehicle plate with spaces, case, Latin look-alikes and «RUS» ignored', () => {
    const expected = { kind: 'vehicle', normalized: 'А123ВС77', display: 'А123ВС 77' };
    for (const input of ['А123ВС 77', 'а123вс77', 'A123BC 77', 'a 123 bc 77', ' А123ВС-77 ', 'A123ВС 77 RUS', 'А123ВС|77']) {
      expect(plate(input), input).toEqual(expected);
    }
    expect(plate('х777ху 777')).toEqual({ kind: 'vehicle', normalized: 'Х777ХУ777', display: 'Х777ХУ 777' });
    expect(plate('M001OP 05')).toEqual({ kind: 'vehicle', normalized: 'М001ОР05', display: 'М001ОР 05' });
  });

  it('every Latin look-alike is its Cyrillic letter', () => {
    const latin = 'ABEKMHOPCTYX';
    for (let i = 0; i < latin.length; i += 1) {
      const l = latin[i] ?? '';
      expect(plate(`${l}123${l}${l} 50`)).toMatchObject({ normalized: `${PLATE_LETTERS[i]}123${PLATE_LETTERS[i]}${PLATE_LETTERS[i]}50` });
    }
  });

  it('reads a trailer plate where a trailer is asked for', () => {
    expect(plate('ab 1234 77', { trailer: true })).toEqual({ kind: 'trailer', normalized: 'АВ123477', display: 'АВ1234 77' });
    expect(plate('АВ1234 177', { trailer: true })).toEqual({ kind: 'trailer', normalized: 'АВ1234177', display: 'АВ1234 177' });
    expect(plate('А123ВС 77', { trailer: true })).toMatchObject({ kind: 'vehicle' });
    expect(plate('АВ1234 77')).toBe('Госномер: это номер прицепа; ожидается вид А123ВС 77 или А123ВС 777');
  });

  it('refuses with the reason, naming the field', () => {
    expect(plate('Б123ВС 77')).toBe(
      'Госномер: буква «Б» не бывает в российских номерах (только А В Е К М Н О Р С Т У Х); иностранный номер отметьте как иностранный',
    );
    expect(plate('D123BC 77')).toMatch(/^Госномер: буква «D» не бывает/);
    expect(plate('А12ВС 77')).toBe('Госномер: ожидается вид А123ВС 77 или А123ВС 777');
    expect(plate('А123ВС 7')).toBe('Госномер: ожидается вид А123ВС 77 или А123ВС 777');
    expect(plate('А123ВС 00')).toBe('Госномер: ожидается вид А123ВС 77 или А123ВС 777');
    expect(plate('А123ВС 7777')).toBe('Госномер: ожидается вид А123ВС 77 или А123ВС 777');
    expect(plate('А000ВС 77')).toBe('Госномер: номер 000 не выдаётся');
    expect(plate('  ')).toBe('Госномер: обязательное поле');
    expect(plate('АВ12 77', { trailer: true, label: 'Номер прицепа' })).toBe('Номер прицепа: ожидается вид АВ1234 77 (прицеп) или А123ВС 77');
  });

  it('takes a foreign plate as typed when marked so: trimmed, upper-cased, single spaces', () => {
    expect(plate('  ab  123 cd ', { foreign: true })).toEqual({ kind: 'foreign', normalized: 'AB 123 CD', display: 'AB 123 CD' });
    expect(plate('01 KG 123 ABC', { foreign: true })).toMatchObject({ kind: 'foreign' });
    expect(plate(' ', { foreign: true })).toBe('Госномер: обязательное поле');
    expect(plate('X'.repeat(21), { foreign: true })).toBe('Госномер: не длиннее 20 символов');
    expect(plate('AB\u202E123', { foreign: true })).toMatch(/^Госномер: недопустимые символы/);
  });

  it('property: any spelling of a plate (case, Latin look-alikes, spaces) has the same stored form', () => {
    const letter = fc.integer({ min: 0, max: PLATE_LETTERS.length - 1 });
    const spelling = fc.tuple(letter, fc.constantFrom('latin', 'cyrillic'), fc.boolean()).map(([i, script, lower]) => {
      const c = (script === 'latin' ? 'ABEKMHOPCTYX' : PLATE_LETTERS)[i] ?? '';
      return { canonical: PLATE_LETTERS[i] ?? '', typed: lower ? c.toLowerCase() : c };
    });
    const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
    const region = fc.integer({ min: 1, max: 999 }).map((n) => (n < 10 ? `0${n}` : String(n)));
    const gap = fc.constantFrom('', ' ', '  ');
    fc.assert(
      fc.property(spelling, digits(3).filter((d) => d !== '000'), spelling, spelling, region, gap, gap, (a, number, b, c, r, g1, g2) => {
        const result = parsePlate(`${a.typed}${g1}${number}${b.typed}${c.typed}${g2}${r}`);
        expect(result).toEqual({
          ok: true,
          plate: { kind: 'vehicle', normalized: `${a.canonical}${number}${b.canonical}${c.canonical}${r}`, display: `${a.canonical}${number}${b.canonical}${c.canonical} ${r}` },
        });
      }),
      { numRuns: 300 },
    );
  });
});
