/** The medic's and the mechanic's lists as read (contract/trip-sheet-checks.ts): columns, cells, names, the file's code page. */
import { describe, expect, it } from 'vitest';
import { checkMoment, decodeList, parseCheckList, sameDriver } from '../../contract/trip-sheet-checks.ts';

describe('the medic’s and the mechanic’s lists', () => {
  it('reads the columns by their Russian names, quoted cells with the separator inside, «Дата и время» in one cell', () => {
    const rows = parseCheckList('\uFEFFДата и время;Водитель;"Заключение";Медработник\n"27.11.2026 6:05";"Иванов; П. С.";Допущен;Смирнова А. В.\n\n28.11.2026 19:40;Петров О. И.;не допущен;Смирнова А. В.');
    expect(rows).toEqual([
      { line: 2, date: '2026-11-27', time: '06:05', driver: 'Иванов; П. С.', plate: null, name: 'Смирнова А. В.', refused: false, problem: null },
      { line: 4, date: '2026-11-28', time: '19:40', driver: 'Петров О. И.', plate: null, name: 'Смирнова А. В.', refused: true, problem: null },
    ]);
    expect(() => parseCheckList('Водитель,Дата\nИванов,27.11.2026')).toThrow('В первой строке списка не найдены столбцы: кто провёл осмотр (например, «Медработник» или «Механик»), время');
    expect(parseCheckList('Госномер,Время,Механик\nА123ВС77,25:10,Кузнецов')[0]?.problem).toBe('не указано время (ожидается ЧЧ:ММ)');
  });

  it('matches a listed name to the driver by surname and initials, never another surname or a different name', () => {
    expect(sameDriver('Иванов П. С.', 'Иванов Пётр Сергеевич')).toBe(true);
    expect(sameDriver('иванов п.с.', 'Иванов Пётр Сергеевич')).toBe(true);
    expect(sameDriver('Иванов Петр Сергеевич', 'Иванов Пётр Сергеевич')).toBe(true);
    expect(sameDriver('Иванов А. С.', 'Иванов Пётр Сергеевич')).toBe(false);
    expect(sameDriver('Иванова П. С.', 'Иванов Пётр Сергеевич')).toBe(false);
    expect(checkMoment('2026-11-27', '06:05', 180)).toBe('2026-11-27T06:05:00+03:00');
    expect(checkMoment('2026-11-27', '06:05', -90)).toBe('2026-11-27T06:05:00-01:30');
  });

  it('reads a file in UTF-8, or in windows-1251 as a Russian Excel writes CSV', () => {
    expect(decodeList(new TextEncoder().encode('Дата;Время'))).toBe('Дата;Время');
    // «Дата» in windows-1251: Д=0xC4 а=0xE0 т=0xF2 а=0xE0.
    expect(decodeList(new Uint8Array([0xc4, 0xe0, 0xf2, 0xe0, 0x3b]))).toBe('Дата;');
  });
});
