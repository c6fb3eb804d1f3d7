/**
 * «Импорт задач из Excel» (server/tasks/import-xlsx.ts): the template read back, rows good and bad, every cell
 * form a user sends, and the guards a hostile or wrong file meets before exceljs reads it.
 */
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { inlineCell, rawXlsx } from '../fixtures/xlsx.ts';
import {
  EXAMPLE_MARK,
  IMPORT_HEADERS,
  ImportFileError,
  buildImportTemplate,
  countValueRows,
  parseTaskImport,
  summarizeImport,
  type ImportRow,
} from '../../server/tasks/import-xlsx.ts';

const DRIVERS = [
  { id: 11, name: 'Петров Пётр', phone: '+7 916 111-22-33' },
  { id: 12, name: 'Сидоров  Иван ', phone: '8 (903) 444-55-66' },
  { id: 13, name: 'Козлов Андрей', phone: null },
  { id: 14, name: 'Козлов Андрей', phone: '+7 999 000-00-01' },
];
const ctx = { drivers: DRIVERS };
const HEAD = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий', 'заказчик'];
const utcDay = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));
/** The Excel serial number of a calendar day. */
const serial = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000 + 25569;

async function book(rows: unknown[][], setup?: (sheet: ExcelJS.Worksheet, book: ExcelJS.Workbook) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Задачи');
  for (const row of rows) sheet.addRow(row);
  setup?.(sheet, workbook);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** One task row with the template's columns; `over` replaces cells by header. */
const line = (over: Partial<Record<(typeof HEAD)[number], unknown>> = {}) =>
  HEAD.map((h) => (h in over ? over[h] : ({ дата: utcDay(2026, 11, 25), груз: 'Песок', 'место погрузки': 'Карьер', 'место выгрузки': 'Объект', объём: 100, единица: 'т', ставка: 500, водители: '', комментарий: '', заказчик: '' } as Record<string, unknown>)[h]));

async function fileError(file: Buffer): Promise<string> {
  const error = await parseTaskImport(file, ctx).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportFileError);
  return (error as Error).message;
}

const only = (rows: ImportRow[]) => {
  expect(rows).toHaveLength(1);
  return rows[0] as ImportRow;
};

// ---- raw zips, for what exceljs would never write

interface RawEntry {
  name: string;
  data: Buffer;
  /** What the directory claims; the real sizes unless a test lies. */
  size: number;
  method: 0 | 8;
}

function zip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    // CRC 0: the guards refuse these files before anything checks a CRC.
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(e.method, 10);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    central.push(dir, name);
    offset += local.length + name.length + e.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const deflated = (name: string, text: string): RawEntry => {
  const data = Buffer.from(text, 'utf8');
  return { name, data: deflateRawSync(data), size: data.length, method: 8 };
};

const WORKBOOK_PARTS = [
  deflated('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
  deflated('xl/workbook.xml', '<workbook xmlns:r="r"><sheets><sheet name="Задачи" sheetId="1" r:id="rId1"/></sheets></workbook>'),
  deflated('xl/_rels/workbook.xml.rels', '<Relationships><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>'),
];

/** `megabytes` of zeros deflated as a stream (never 200 MB in memory at once). */
async function deflatedZeros(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    if (!deflate.write(mb)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(chunks);
}

const inline = inlineCell;
const headerXml = `<row r="1">${['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём'].map((h, i) => inline(`${'ABCDE'[i]}1`, h)).join('')}</row>`;
const rowXml = (r: number) => `<row r="${r}">${inline(`A${r}`, '25.11.2026')}${inline(`B${r}`, 'Песок')}${inline(`C${r}`, 'Карьер')}${inline(`D${r}`, 'Объект')}<c r="E${r}"><v>${r}</v></c></row>`;
const manyRows = (n: number) => rawXlsx(headerXml + Array.from({ length: n }, (_, i) => rowXml(i + 2)).join(''));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the template', () => {
  it('has the headers in bold, a real date, and a help sheet with a line per column', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildImportTemplate()) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Задачи', 'Как заполнить']);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([...IMPORT_HEADERS]);
    expect(IMPORT_HEADERS).toEqual(HEAD);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBeInstanceOf(Date);
    expect(sheet.getCell('B2').value).toBe('Щебень 20-40');
    expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual(15);
    const help = workbook.worksheets[1] as ExcelJS.Worksheet;
    const described = new Set<string>();
    help.eachRow((row) => described.add(String(row.getCell(1).value)));
    for (const header of IMPORT_HEADERS) expect(described).toContain(header);
  });

  /** The template as a user edits it in a spreadsheet: `edit` changes its first sheet, then it is saved again. */
  async function editedTemplate(edit: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildImportTemplate()) as unknown as ExcelJS.Buffer);
    edit(workbook.worksheets[0] as ExcelJS.Worksheet);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }

  // Issue 30 item 20: uploaded as it was downloaded, the template's own example was refused («водитель «Петров
  // Пётр» не найден») in a company without that driver, and created a task «Щебень 20-40» in one with him.
  it('its example row is marked as one and read back as the example: no task and no error, with or without «Петров Пётр»', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildImportTemplate()) as unknown as ExcelJS.Buffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getCell('I2').value).toBe(EXAMPLE_MARK);
    expect(sheet.getRow(2).getCell(2).font?.italic).toBe(true);
    for (const drivers of [DRIVERS, []]) {
      const rows = await parseTaskImport(await buildImportTemplate(), { drivers });
      expect(rows).toEqual([{ row: 2, task: null, errors: [], example: true }]);
      expect(summarizeImport(rows)).toEqual({ ok: 0, bad: 0 });
    }
  });

  it('the day’s tasks typed below the kept example are imported; the example is left out', async () => {
    const file = await editedTemplate((sheet) => {
      sheet.addRow(line({ груз: 'Песок мытый', водители: 'Петров Пётр' }));
    });
    const rows = await parseTaskImport(file, { drivers: [] });
    expect(rows.map((r) => [r.row, r.example ?? false, r.task?.cargo ?? null])).toEqual([
      [2, true, null],
      [3, false, null],
    ]);
    const withDriver = await parseTaskImport(file, ctx);
    expect(withDriver[1]?.task).toMatchObject({ cargo: 'Песок мытый', driver_ids: [11] });
    expect(summarizeImport(withDriver)).toEqual({ ok: 1, bad: 0 });
  });

  it('without its mark the example is an ordinary row: tomorrow, its numbers, «Петров Пётр» matched', async () => {
    const now = new Date();
    const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    const expected = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    const file = await editedTemplate((sheet) => {
      sheet.getCell('I2').value = 'Въезд со стороны ул. Лесной';
    });
    const row = only(await parseTaskImport(file, ctx));
    expect(row).toMatchObject({ row: 2, errors: [] });
    expect(row.example).toBeUndefined();
    expect(row.task).toMatchObject({
      date: expected,
      cargo: 'Щебень 20-40',
      loading_place: 'Карьер Гранитный',
      unloading_place: 'ЖК Северный',
      planned_quantity: 120,
      unit: 'т',
      rate: 450,
      driver_ids: [11],
      comment: 'Въезд со стороны ул. Лесной',
    });
    expect(only(await parseTaskImport(file, { drivers: [] })).errors).toEqual([{ field: 'водители', detail: 'водитель «Петров Пётр» не найден' }]);
  });
});

describe('rows', () => {
  it('20 rows, 2 of them bad: 18 tasks, the 2 with their column and reason', async () => {
    const rows = Array.from({ length: 20 }, (_, i) =>
      line({
        груз: `Щебень ${i + 1}`,
        // Decimal commas and thousands spaces are fine.
        объём: i % 3 === 0 ? '12,5' : i % 3 === 1 ? '1 200' : 30 + i,
        водители: i % 4 === 0 ? 'Петров Пётр' : '',
        ...(i === 6 ? { дата: 'послезавтра' } : {}),
        ...(i === 13 ? { водители: 'Петров Пётр; Смирнов Олег' } : {}),
      }),
    );
    const result = await parseTaskImport(await book([HEAD, ...rows]), ctx);
    expect(result).toHaveLength(20);
    expect(summarizeImport(result)).toEqual({ ok: 18, bad: 2 });
    const bad = result.filter((r) => r.task === null);
    expect(bad).toEqual([
      { row: 8, task: null, errors: [{ field: 'дата', detail: 'дата не распознана: послезавтра' }] },
      { row: 15, task: null, errors: [{ field: 'водители', detail: 'водитель «Смирнов Олег» не найден' }] },
    ]);
    expect(result[0]?.task).toMatchObject({ date: '2026-11-25', cargo: 'Щебень 1', planned_quantity: 12.5, unit: 'т', rate: 500, driver_ids: [11] });
    expect(result[1]?.task?.planned_quantity).toBe(1200);
    expect(result[1]?.task && 'driver_ids' in result[1].task).toBe(false);
    expect(result.map((r) => r.row)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
  });

  it('skips fully empty rows without reporting them, keeping the Excel row numbers', async () => {
    const result = await parseTaskImport(await book([HEAD, line({ груз: 'А' }), [], ['', '  ', null], line({ груз: 'Б' })]), ctx);
    expect(result.map((r) => [r.row, r.task?.cargo])).toEqual([
      [2, 'А'],
      [5, 'Б'],
    ]);
  });

  it('reads dates as text in every accepted form, as an Excel serial, and refuses the rest', async () => {
    const dates = ['25.11.2026', '25.11.26', '2026-11-25', '25/11/2026', '5.1.2027', serial(2026, 11, 25), '31.02.2026', '2026', 20261125, '11/25/2026'];
    const result = await parseTaskImport(await book([HEAD, ...dates.map((d) => line({ дата: d }))]), ctx);
    expect(result.map((r) => r.task?.date ?? r.errors[0]?.detail)).toEqual([
      '2026-11-25',
      '2026-11-25',
      '2026-11-25',
      '2026-11-25',
      '2027-01-05',
      '2026-11-25',
      'дата не распознана: 31.02.2026',
      'дата не распознана: 2026',
      'дата не распознана: 20261125',
      'дата не распознана: 11/25/2026',
    ]);
    expect(result.every((r) => r.errors.every((e) => e.field === 'дата'))).toBe(true);
  });

  it('takes a date cell as its calendar day whatever the server time zone', async () => {
    const file = await book([HEAD, line({ дата: utcDay(2026, 11, 25) }), line({ дата: new Date(Date.UTC(2026, 0, 1, 23, 30)) })]);
    const before = process.env.TZ;
    try {
      for (const [zone, offset] of [
        ['Europe/Moscow', -180],
        ['America/New_York', 300],
        ['Pacific/Kiritimati', -840],
        ['UTC', 0],
      ] as const) {
        process.env.TZ = zone;
        // The zone really applies in this process (else the test would prove nothing).
        expect(new Date(Date.UTC(2026, 10, 25)).getTimezoneOffset()).toBe(offset);
        const result = await parseTaskImport(file, ctx);
        expect(result.map((r) => r.task?.date)).toEqual(['2026-11-25', '2026-01-01']);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it('reads numbers with commas and spaces, refuses words, and wants a volume above zero', async () => {
    const result = await parseTaskImport(
      await book([
        HEAD,
        line({ объём: '1 200,5', ставка: '450,75' }),
        line({ объём: '1\u00a0000', ставка: '' }),
        line({ объём: 'двенадцать' }),
        line({ объём: 0 }),
        line({ объём: '' }),
        line({ объём: 10, ставка: 'договорная' }),
        line({ объём: 10, ставка: -5 }),
      ]),
      ctx,
    );
    expect(result[0]?.task).toMatchObject({ planned_quantity: 1200.5, rate: 450.75 });
    expect(result[1]?.task).toMatchObject({ planned_quantity: 1000, rate: null });
    expect(result.slice(2).map((r) => r.errors)).toEqual([
      [{ field: 'объём', detail: 'ожидается число, а не «двенадцать»' }],
      [{ field: 'объём', detail: 'объём должен быть больше нуля' }],
      [{ field: 'объём', detail: 'укажите объём' }],
      [{ field: 'ставка', detail: 'ожидается число, а не «договорная»' }],
      [{ field: 'ставка', detail: 'не может быть отрицательным' }],
    ]);
  });

  it('normalizes the unit, defaults it to т and refuses another', async () => {
    const units = ['т', 'тонн', 'Тонна', 't', 'м3', 'м³', 'куб', 'куб.м', 'куб. м', '', 'шт'];
    const result = await parseTaskImport(await book([HEAD, ...units.map((u) => line({ единица: u }))]), ctx);
    expect(result.map((r) => r.task?.unit ?? r.errors[0]?.detail)).toEqual(['т', 'т', 'т', 'т', 'м³', 'м³', 'м³', 'м³', 'м³', 'т', 'единица «шт» не подходит — укажите т или м³']);
  });

  it('applies the task form’s rules (empty required text, length) under the Russian header', async () => {
    const result = await parseTaskImport(
      await book([HEAD, line({ груз: '', 'место выгрузки': '   ' }), line({ 'место погрузки': 'К'.repeat(301) }), line({ дата: '' })]),
      ctx,
    );
    expect(result.map((r) => r.errors)).toEqual([
      [
        { field: 'груз', detail: 'укажите груз' },
        { field: 'место выгрузки', detail: 'укажите место выгрузки' },
      ],
      [{ field: 'место погрузки', detail: 'не длиннее 300 символов' }],
      [{ field: 'дата', detail: 'укажите дату' }],
    ]);
  });

  it('matches drivers by name (any case, ё = е, extra spaces) or phone, and names the unknown and the ambiguous', async () => {
    const result = await parseTaskImport(
      await book([
        HEAD,
        line({ водители: 'петров петр, СИДОРОВ   ИВАН' }),
        line({ водители: '89161112233; +7 (903) 444 55 66; Петров Пётр' }),
        line({ водители: '+7 999 000 00 01' }),
        line({ водители: 'Козлов Андрей' }),
        line({ водители: '+7 900 000 00 00' }),
      ]),
      ctx,
    );
    expect(result.map((r) => r.task?.driver_ids ?? r.errors)).toEqual([
      [11, 12],
      [11, 12],
      [14],
      [{ field: 'водители', detail: '«Козлов Андрей» — несколько водителей с таким именем, укажите телефон' }],
      [{ field: 'водители', detail: 'водитель «+7 900 000 00 00» не найден' }],
    ]);
  });

  it('refuses formulas in a column, even with a cached result', async () => {
    const file = await book([HEAD, line(), line()], (sheet) => {
      sheet.getCell('E2').value = { formula: '60*2', result: 120 };
      sheet.getCell('B3').value = { formula: 'UPPER("песок")', result: 'ПЕСОК' };
    });
    const result = await parseTaskImport(file, ctx);
    expect(result.map((r) => r.errors)).toEqual([
      [{ field: 'объём', detail: 'формулы не принимаются — вставьте значения' }],
      [{ field: 'груз', detail: 'формулы не принимаются — вставьте значения' }],
    ]);
    expect(result.every((r) => r.task === null)).toBe(true);
  });

  it('uses the text of rich-text and hyperlink cells', async () => {
    const file = await book([HEAD, line()], (sheet) => {
      sheet.getCell('B2').value = { richText: [{ text: 'Щебень ', font: { bold: true } }, { text: '5-20' }] };
      sheet.getCell('D2').value = { text: 'ЖК Южный', hyperlink: 'https://maps.example/jk' };
    });
    expect(only(await parseTaskImport(file, ctx)).task).toMatchObject({ cargo: 'Щебень 5-20', unloading_place: 'ЖК Южный' });
  });
});

describe('headers', () => {
  it('finds columns in any order by synonyms, ignores unknown ones, and reads headers below a title', async () => {
    const file = await book([
      ['Задачи на ноябрь'],
      [],
      ['Примечание', 'Ед. изм.', 'Количество', 'Лишний столбец', 'Место  Выгрузки', 'МЕСТО ПОГРУЗКИ', 'Груз', 'Цена', 'Дата', 'Водитель'],
      ['срочно', 'м3', '7,5', 'что угодно', 'Объект', 'Карьер', 'Песок', 300, '01.12.2026', 'Петров Петр'],
    ]);
    const row = only(await parseTaskImport(file, ctx));
    expect(row).toMatchObject({ row: 4, errors: [] });
    expect(row.task).toEqual({
      date: '2026-12-01',
      cargo: 'Песок',
      loading_place: 'Карьер',
      unloading_place: 'Объект',
      planned_quantity: 7.5,
      unit: 'м³',
      rate: 300,
      comment: 'срочно',
      driver_ids: [11],
    });
  });

  it('«объем» and «план» are the volume too', async () => {
    for (const header of ['объем', 'План']) {
      const file = await book([['дата', 'груз', 'место погрузки', 'место выгрузки', header], ['25.11.2026', 'Песок', 'А', 'Б', 3]]);
      expect(only(await parseTaskImport(file, ctx)).task?.planned_quantity).toBe(3);
    }
  });

  it('names every missing required column', async () => {
    const message = await fileError(await book([['Дата', 'Груз', 'Ставка'], ['25.11.2026', 'Песок', 1]]));
    expect(message).toContain('«место погрузки», «место выгрузки», «объём»');
    expect(message).not.toContain('«груз»');
  });

  it('refuses a column given twice', async () => {
    expect(await fileError(await book([[...HEAD, 'Количество'], [...line(), 5]]))).toBe('столбец «объём» встречается дважды (E и K) — оставьте один');
  });

  it('reads only the first sheet', async () => {
    const file = await book([HEAD, line()], (_sheet, workbook) => {
      workbook.addWorksheet('Ещё').addRow(HEAD);
      workbook.getWorksheet('Ещё')?.addRow(line({ груз: 'Со второго листа' }));
    });
    expect(only(await parseTaskImport(file, ctx)).task?.cargo).toBe('Песок');
  });
});

describe('the whole file refused', () => {
  it('merged cells in the data, with their addresses', async () => {
    const file = await book([HEAD, line(), line(), line()], (sheet) => {
      sheet.mergeCells('B3:B4');
      sheet.mergeCells('C2:D2');
    });
    const message = await fileError(file);
    expect(message).toMatch(/^в файле есть объединённые ячейки \(.*\) — разъедините их$/);
    expect(message).toContain('B3:B4');
    expect(message).toContain('C2:D2');
  });

  it('a merged title above the headers is fine', async () => {
    const file = await book([['Задачи'], HEAD, line()], (sheet) => sheet.mergeCells('A1:I1'));
    expect(only(await parseTaskImport(file, ctx)).row).toBe(3);
  });

  it('headers only, or no cells at all: no rows', async () => {
    expect(await fileError(await book([HEAD]))).toBe('в файле нет строк с задачами');
    expect(await fileError(await book([HEAD, [], []]))).toBe('в файле нет строк с задачами');
    expect(await fileError(await book([]))).toBe('в файле нет строк с задачами');
  });

  it('a book without sheets: no rows', async () => {
    const file = zip([
      deflated('[Content_Types].xml', '<Types/>'),
      deflated('xl/workbook.xml', '<workbook><sheets/></workbook>'),
    ]);
    expect(await fileError(file)).toBe('в файле нет строк с задачами');
  });

  it('a CSV or a PNG renamed .xlsx, and an empty file', async () => {
    for (const file of [
      Buffer.from('дата;груз;место погрузки\n25.11.2026;Песок;Карьер\n', 'utf8'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]),
      Buffer.from('PK'),
    ]) {
      expect(await fileError(file)).toMatch(/^Файл не похож на Excel \(\.xlsx\)/);
    }
    expect(await fileError(Buffer.alloc(0))).toBe('Файл пустой.');
  });

  it('a zip that is not a spreadsheet (a .docx)', async () => {
    const file = zip([deflated('[Content_Types].xml', '<Types/>'), deflated('word/document.xml', '<document/>')]);
    expect(await fileError(file)).toMatch(/^Файл не похож на Excel \(\.xlsx\)/);
  });

  it('an old .xls: save it as .xlsx', async () => {
    const xls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096)]);
    expect(await fileError(xls)).toBe('Это файл старого формата Excel (.xls). Откройте его в Excel и сохраните как «Книга Excel (.xlsx)».');
  });

  it('a damaged zip (cut short)', async () => {
    const file = await book([HEAD, line()]);
    expect(await fileError(file.subarray(0, Math.floor(file.length / 2)))).toMatch(/^Не удалось прочитать файл Excel/);
  });

  it('over 5 MB', async () => {
    const file = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(5 * 1024 * 1024)]);
    expect(await fileError(file)).toMatch(/^Файл слишком большой \(5,0 МБ\), можно не больше 5 МБ/);
  });

  it('a zip bomb (200 MB of zeros in ~200 kB) is refused from the directory, before anything inflates it', async () => {
    const zeros = await deflatedZeros(200);
    expect(zeros.length).toBeLessThan(1024 * 1024);
    const bomb = zip([...WORKBOOK_PARTS, { name: 'xl/worksheets/sheet1.xml', data: zeros, size: 200 * 1024 * 1024, method: 8 }]);
    const load = vi.spyOn(JSZip, 'loadAsync');
    const before = process.memoryUsage().rss;
    expect(await fileError(bomb)).toMatch(/^Файл распаковывается в слишком большой объём/);
    expect(load).not.toHaveBeenCalled();
    // 200 MB inflated anywhere would show in the process's memory.
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('a zip bomb that lies about its size is stopped at the size it declared', async () => {
    const zeros = await deflatedZeros(200);
    const bomb = zip([...WORKBOOK_PARTS, { name: 'xl/worksheets/sheet1.xml', data: zeros, size: 40_000, method: 8 }]);
    const load = vi.spyOn(JSZip, 'loadAsync');
    const before = process.memoryUsage().rss;
    expect(await fileError(bomb)).toMatch(/^Файл распаковывается в слишком большой объём/);
    expect(load).not.toHaveBeenCalled();
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('100 000 rows are refused from the sheet’s XML, before exceljs builds a row', async () => {
    const file = await manyRows(100_000);
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const load = vi.spyOn(JSZip, 'loadAsync');
    expect(await fileError(file)).toBe('в файле больше 2000 строк с задачами — разделите файл на части до 2000 строк');
    expect(load).not.toHaveBeenCalled();
  });

  it('2 000 rows are read, 2 001 are not', async () => {
    const load = vi.spyOn(JSZip, 'loadAsync');
    const rows = await parseTaskImport(await manyRows(2000), ctx);
    // The spy sees exceljs's load, so the refusals above really happened before it.
    expect(load).toHaveBeenCalledTimes(1);
    expect(summarizeImport(rows)).toEqual({ ok: 2000, bad: 0 });
    expect(rows[1999]).toMatchObject({ row: 2001, task: { date: '2026-11-25', planned_quantity: 2001 } });
    expect(await fileError(await manyRows(2001))).toBe('в файле больше 2000 строк с задачами — разделите файл на части до 2000 строк');
  });

  it('counts rows with values, not rows that are only formatted', () => {
    expect(countValueRows('<row r="1"><c r="A1" s="1"/></row><row r="2"/><row r="3"><c r="A3"><v>1</v></c></row><x:row r="4"><x:c t="inlineStr"><x:is><x:t>a</x:t></x:is></x:c></x:row>')).toBe(2);
  });
});
