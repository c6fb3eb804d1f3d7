/**
 * «Импорт задач из Excel»: an uploaded .xlsx read into task payloads (`TaskCreate`, the same
 * rules as the task form: every row goes through `taskCreateSchema`) with Russian errors per row and column.
 * Pure: no database, no routes. A bad file as a whole is an `ImportFileError` (its message is for the user);
 * a bad row is that row's `errors`.
 *
 * The file is checked before exceljs sees it (xlsx-preflight.ts), so a hostile upload can neither hang the server nor
 * fill its memory. The template users fill in is import-template.ts.
 */
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { taskCreateSchema, type TaskCreate } from '../../contract/driver.ts';
import { calendarDate } from '../../contract/calendar.ts';
import { columnLetters, DAMAGED, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS, ImportFileError, NO_ROWS, preflight, tooManyRows } from './xlsx-preflight.ts';

import { EXAMPLE_MARK, IMPORT_HEADERS, type ImportHeader } from './import-template.ts';

export { buildImportTemplate, EXAMPLE_MARK, IMPORT_HEADERS, type ImportHeader } from './import-template.ts';
export { countValueRows, IMPORT_MAX_BYTES, IMPORT_MAX_CELLS, IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS, IMPORT_MAX_UNZIPPED_BYTES, ImportFileError } from './xlsx-preflight.ts';


const REQUIRED: readonly ImportHeader[] = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём'];


export interface ImportRowError {
  /** The column's header as in the template (`IMPORT_HEADERS`). */
  field: string;
  /** What is wrong, in Russian. */
  detail: string;
}

export interface ImportRow {
  /** The row's number in Excel. */
  row: number;
  /** The payload for POST /tasks/ when the row is valid, else null. */
  task: TaskCreate | null;
  errors: ImportRowError[];
  /** The template's own example row (its комментарий is `EXAMPLE_MARK`): shown, neither a task nor an error. */
  example?: true;
  /** The «заказчик» cell as typed (an ИНН, a name, or both), matched against the registers by the server. */
  customer?: string;
}

export interface ImportDriver {
  id: number;
  name: string;
  phone: string | null;
}

export interface ImportContext {
  drivers: ImportDriver[];
}

export function summarizeImport(rows: readonly ImportRow[]): { ok: number; bad: number } {
  const ok = rows.filter((r) => r.task !== null).length;
  return { ok, bad: rows.filter((r) => r.task === null && !r.example).length };
}

// ---------------------------------------------------------------------------------------------------------------
// Headers

/** A header or a name reduced to what matters: lower case, ё = е, no punctuation or spaces, nothing in brackets. */
const headerKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/\([^)]*\)/g, '')
    .replace(/[^\p{L}\p{N}]/gu, '');

const SYNONYMS: Record<ImportHeader, string[]> = {
  дата: ['дата', 'датазадачи'],
  груз: ['груз'],
  'место погрузки': ['местопогрузки', 'погрузка'],
  'место выгрузки': ['местовыгрузки', 'выгрузка'],
  объём: ['объем', 'количество', 'колво', 'план', 'плановыйобъем'],
  единица: ['единица', 'ед', 'едизм', 'единицаизмерения'],
  ставка: ['ставка', 'цена'],
  водители: ['водители', 'водитель'],
  комментарий: ['комментарий', 'примечание'],
  заказчик: ['заказчик', 'клиент', 'иннзаказчика'],
};
const HEADER_BY_KEY = new Map<string, ImportHeader>(IMPORT_HEADERS.flatMap((h) => SYNONYMS[h].map((key) => [key, h] as const)));

// ---------------------------------------------------------------------------------------------------------------
// Cells

type Cell = ExcelJS.CellValue;

const isObject = (v: Cell): v is Exclude<Cell, null | undefined | string | number | boolean | Date> =>
  typeof v === 'object' && v !== null && !(v instanceof Date);
const isFormula = (v: Cell) => isObject(v) && ('formula' in v || 'sharedFormula' in v);
const errorOf = (v: Cell): string | null => (isObject(v) && 'error' in v ? String(v.error) : null);

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()}`;

/** A cell as the user sees its text (rich text and hyperlinks by their text); null when empty. */
function cellText(v: Cell): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'ИСТИНА' : 'ЛОЖЬ';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : dayText(v);
  if ('richText' in v) return cellText(v.richText.map((part) => part.text).join(''));
  if ('text' in v) return cellText(v.text as Cell);
  if ('result' in v) return cellText(v.result as Cell);
  return null;
}

const isEmpty = (v: Cell) => !isFormula(v) && errorOf(v) === null && cellText(v) === null;

const iso = calendarDate;

/** A task date from a date cell, an Excel serial number or text; null when it is none of them. */
function parseDate(v: Cell, date1904: boolean): string | null {
  if (v instanceof Date) {
    // exceljs turns the serial into UTC midnight of the calendar day (plus the time of day, if any).
    return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    const days = Math.floor(v) - 25569 + (date1904 ? 1462 : 0);
    const date = new Date(days * 86_400_000);
    const year = date.getUTCFullYear();
    // A serial of a plausible year; 2026 or 25112026 typed into the column is not a date.
    return year >= 1990 && year <= 2100 ? date.toISOString().slice(0, 10) : null;
  }
  const text = cellText(v);
  if (text === null) return null;
  const time = '(?:\\s+\\d{1,2}:\\d{2}(?::\\d{2})?)?';
  let m = new RegExp(`^(\\d{1,2})[./](\\d{1,2})[./](\\d{2}|\\d{4})(?:\\s*г\\.?)?${time}$`).exec(text);
  if (m) {
    const year = (m[3] as string).length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    return iso(year, Number(m[2]), Number(m[1]));
  }
  m = new RegExp(`^(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:T[\\d:.]+Z?)?${time}$`).exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  if (/^\d+$/.test(text)) return parseDate(Number(text), date1904);
  return null;
}

/** A number from a numeric cell or from text with a decimal comma and spaces between thousands. */
function parseNumber(v: Cell): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Date || typeof v === 'boolean') return null;
  const text = cellText(v);
  if (text === null) return null;
  const normalized = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(normalized) ? Number(normalized) : null;
}

const UNITS = new Map<string, string>([
  ...['т', 'тонн', 'тонна', 'тонны', 't'].map((u) => [u, 'т'] as const),
  ...['м3', 'м³', 'куб', 'кубм', 'мкуб', 'кубометр', 'кубометра', 'кубометров', 'm3'].map((u) => [u, 'м³'] as const),
]);

// ---------------------------------------------------------------------------------------------------------------
// Drivers

const nameKey = (text: string) => text.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
/** A phone's digits; the last ten of a Russian number, so +7 916…, 8 916… and 916… are one phone. */
const phoneKey = (text: string) => {
  const digits = text.replace(/\D/g, '');
  return digits.length >= 10 ? digits.slice(-10) : digits;
};

function driverIndex(drivers: readonly ImportDriver[]) {
  const byName = new Map<string, number[]>();
  const byPhone = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, key: string, id: number) => {
    if (key === '') return;
    const list = map.get(key) ?? [];
    if (!list.includes(id)) list.push(id);
    map.set(key, list);
  };
  for (const d of drivers) {
    add(byName, nameKey(d.name), d.id);
    if (d.phone) add(byPhone, phoneKey(d.phone), d.id);
  }
  /** The driver's id, or the Russian reason there is none. */
  return (token: string): number | string => {
    const phone = /^[+\d\s()-]+$/.test(token) && token.replace(/\D/g, '').length >= 7;
    const found = phone ? byPhone.get(phoneKey(token)) : byName.get(nameKey(token));
    if (!found || found.length === 0) return `водитель «${token}» не найден`;
    if (found.length > 1) return phone ? `«${token}» — несколько водителей с таким телефоном` : `«${token}» — несколько водителей с таким именем, укажите телефон`;
    return found[0] as number;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Rows

const FIELD_HEADER: Record<string, ImportHeader> = {
  date: 'дата',
  cargo: 'груз',
  loading_place: 'место погрузки',
  unloading_place: 'место выгрузки',
  planned_quantity: 'объём',
  unit: 'единица',
  rate: 'ставка',
  comment: 'комментарий',
  driver_ids: 'водители',
};

const ru = z.locales.ru().localeError;

/** A schema issue in the words of the task form. */
function issueDetail(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_big' && issue.origin === 'string') return `не длиннее ${String(issue.maximum)} символов`;
  if (issue.code === 'too_big' && issue.origin === 'number') return `не больше ${String(issue.maximum)}`;
  if (issue.code === 'too_big' && issue.origin === 'array') return `не больше ${String(issue.maximum)}`;
  return issue.message;
}

export async function parseTaskImport(file: Buffer, ctx: ImportContext): Promise<ImportRow[]> {
  try {
    return await parse(file, ctx);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    // Whatever exceljs (or a cell we did not foresee) throws, the user hears one thing about the file.
    throw new ImportFileError(DAMAGED, { cause: error });
  }
}

async function parse(file: Buffer, ctx: ImportContext): Promise<ImportRow[]> {
  await preflight(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ExcelJS.Buffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new ImportFileError(NO_ROWS);
  const date1904 = Boolean((book.properties as { date1904?: boolean }).date1904);

  // The header row: the first of the first five rows that names a known column.
  const lastColumn = Math.min(sheet.columnCount, IMPORT_MAX_COLUMNS);
  let headerRow = 0;
  let columns = new Map<ImportHeader, number>();
  let firstFilled = 0;
  for (let r = 1; r <= Math.min(5, sheet.rowCount) && headerRow === 0; r++) {
    const found = new Map<ImportHeader, number>();
    const duplicates: string[] = [];
    let filled = false;
    for (let c = 1; c <= lastColumn; c++) {
      const text = cellText(sheet.getRow(r).getCell(c).value);
      if (text === null) continue;
      filled = true;
      const header = HEADER_BY_KEY.get(headerKey(text));
      if (!header) continue;
      const seen = found.get(header);
      if (seen !== undefined) duplicates.push(`столбец «${header}» встречается дважды (${columnLetters(seen)} и ${columnLetters(c)}) — оставьте один`);
      else found.set(header, c);
    }
    if (filled && firstFilled === 0) firstFilled = r;
    if (found.size > 0) {
      if (duplicates.length > 0) throw new ImportFileError(duplicates.join('; '));
      headerRow = r;
      columns = found;
    }
  }
  if (firstFilled === 0) throw new ImportFileError(NO_ROWS);
  const missing = REQUIRED.filter((h) => !columns.has(h));
  if (missing.length > 0) {
    const list = missing.map((h) => `«${h}»`).join(', ');
    throw new ImportFileError(
      `${missing.length === 1 ? 'Нет столбца' : 'Нет столбцов'} ${list}. В первой строке должны быть заголовки: ${IMPORT_HEADERS.join(', ')} — скачайте шаблон.`,
    );
  }

  // Merged cells below the header: Excel shows one value, the rows would read it several times or not at all.
  const merges = ((sheet.model as { merges?: string[] }).merges ?? []).filter((range) => {
    const rows = range.match(/\d+/g)?.map(Number) ?? [];
    return Math.max(...rows) > headerRow;
  });
  if (merges.length > 0) {
    const shown = merges.slice(0, 5).join(', ') + (merges.length > 5 ? ` и ещё ${merges.length - 5}` : '');
    throw new ImportFileError(`в файле есть объединённые ячейки (${shown}) — разъедините их`);
  }

  const dataRows: ExcelJS.Row[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number <= headerRow) return;
    for (const column of columns.values()) if (!isEmpty(row.getCell(column).value)) return void dataRows.push(row);
  });
  if (dataRows.length === 0) throw new ImportFileError(NO_ROWS);
  if (dataRows.length > IMPORT_MAX_ROWS) throw new ImportFileError(tooManyRows(dataRows.length));

  const findDriver = driverIndex(ctx.drivers);
  const comment = columns.get('комментарий');
  return dataRows.map((row) =>
    comment !== undefined && cellText(row.getCell(comment).value) === EXAMPLE_MARK
      ? { row: row.number, task: null, errors: [], example: true }
      : readRow(row, columns, date1904, findDriver),
  );
}

function readRow(row: ExcelJS.Row, columns: ReadonlyMap<ImportHeader, number>, date1904: boolean, findDriver: (token: string) => number | string): ImportRow {
  const errors: ImportRowError[] = [];
  const fail = (field: ImportHeader, detail: string) => errors.push({ field, detail });
  /** The cell under a header, or undefined when it cannot be read as a value (the error is recorded). */
  const cell = (header: ImportHeader): Cell => {
    const column = columns.get(header);
    if (column === undefined) return null;
    const value = row.getCell(column).value;
    if (isFormula(value)) {
      fail(header, 'формулы не принимаются — вставьте значения');
      return undefined;
    }
    const error = errorOf(value);
    if (error !== null) {
      fail(header, `в ячейке ошибка ${error}`);
      return undefined;
    }
    return value;
  };
  const text = (header: ImportHeader): string | null | undefined => {
    const value = cell(header);
    return value === undefined ? undefined : cellText(value);
  };
  const number = (header: ImportHeader, required: string | null): number | null | undefined => {
    const value = cell(header);
    if (value === undefined) return undefined;
    const raw = cellText(value);
    if (raw === null) {
      if (required) fail(header, required);
      return required ? undefined : null;
    }
    const n = parseNumber(value);
    if (n === null) {
      fail(header, `ожидается число, а не «${raw}»`);
      return undefined;
    }
    return n;
  };

  const payload: Record<string, unknown> = {};

  const dateCell = cell('дата');
  if (dateCell !== undefined) {
    const raw = cellText(dateCell);
    if (raw === null) fail('дата', 'укажите дату');
    else {
      const date = parseDate(dateCell, date1904);
      if (date === null) fail('дата', `дата не распознана: ${raw}`);
      else payload.date = date;
    }
  }

  payload.cargo = text('груз') ?? '';
  payload.loading_place = text('место погрузки') ?? '';
  payload.unloading_place = text('место выгрузки') ?? '';

  const quantity = number('объём', 'укажите объём');
  if (quantity !== undefined && quantity !== null) {
    if (quantity <= 0) fail('объём', 'объём должен быть больше нуля');
    else payload.planned_quantity = quantity;
  }

  const unit = text('единица');
  if (unit !== undefined) {
    const normalized = unit === null ? 'т' : UNITS.get(unit.toLowerCase().replace(/ё/g, 'е').replace(/[\s.]/g, ''));
    if (normalized === undefined) fail('единица', `единица «${unit}» не подходит — укажите т или м³`);
    else payload.unit = normalized;
  }

  const rate = number('ставка', null);
  if (rate !== undefined) payload.rate = rate;

  const comment = text('комментарий');
  if (comment !== undefined) payload.comment = comment;

  const drivers = text('водители');
  if (drivers) {
    const ids: number[] = [];
    for (const token of drivers.split(/[,;\n]/).map((t) => t.replace(/\s+/g, ' ').trim())) {
      if (token === '') continue;
      const found = findDriver(token);
      if (typeof found === 'string') fail('водители', found);
      else if (!ids.includes(found)) ids.push(found);
    }
    if (ids.length > 0) payload.driver_ids = ids;
  }

  // The task form's own rules, for what the columns did not already refuse.
  const result = taskCreateSchema.safeParse(payload, { error: ru });
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = FIELD_HEADER[String(issue.path[0])] ?? 'строка';
      if (errors.some((e) => e.field === field)) continue;
      fail(field as ImportHeader, issueDetail(issue));
    }
  }
  const order = new Map<string, number>(IMPORT_HEADERS.map((h, i) => [h, i]));
  errors.sort((a, b) => (order.get(a.field) ?? 99) - (order.get(b.field) ?? 99));
  const customer = text('заказчик');
  return { row: row.number, task: errors.length === 0 && result.success ? result.data : null, errors, ...(customer ? { customer } : {}) };
}
