/**
 * «Импорт задач из Excel»: the template, and an uploaded .xlsx read into task payloads (`TaskCreate`, the same
 * rules as the task form: every row goes through `taskCreateSchema`) with Russian errors per row and column.
 * Pure: no database, no routes. A bad file as a whole is an `ImportFileError` (its message is for the user);
 * a bad row is that row's `errors`.
 *
 * The file is checked before exceljs sees it, so a hostile upload can neither hang the server nor fill its memory:
 * the size, the format (zip; an old .xls or a password-protected book is named as such), the zip's central
 * directory (declared sizes and ratios: a zip bomb is refused before anything is inflated), then every entry
 * inflated with a ceiling of its declared size (a zip that lies about its sizes is refused at the ceiling), and
 * the first sheet's rows counted in its XML (too many rows are refused before exceljs builds row objects).
 */
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { taskCreateSchema, type TaskCreate } from '../../contract/driver.ts';

/** The template's headers, in order. */
export const IMPORT_HEADERS = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий'] as const;
export type ImportHeader = (typeof IMPORT_HEADERS)[number];

/** The largest upload read at all. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The most task rows one file may hold. */
export const IMPORT_MAX_ROWS = 2000;
/** The most the zip's entries may inflate to, all together. */
export const IMPORT_MAX_UNZIPPED_BYTES = 50 * 1024 * 1024;
/** An entry above this size that inflates more than `MAX_RATIO` times is a zip bomb, not a spreadsheet. */
const RATIO_FLOOR_BYTES = 1024 * 1024;
const MAX_RATIO = 300;
/** More entries than any spreadsheet has. */
const MAX_ENTRIES = 5000;
/** Rows (with values) the other sheets of the book may hold together; exceljs reads every sheet. */
const MAX_OTHER_SHEET_ROWS = 10_000;

const REQUIRED: readonly ImportHeader[] = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём'];

export class ImportFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportFileError';
  }
}

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
  return { ok, bad: rows.length - ok };
}

// ---------------------------------------------------------------------------------------------------------------
// The template

const HELP: Record<ImportHeader, string> = {
  дата: 'Обязательно. Дата задачи: ячейка-дата Excel или текст 25.11.2026, 25.11.26, 25/11/2026, 2026-11-25.',
  груз: 'Обязательно. Что везём, например «Щебень 20-40».',
  'место погрузки': 'Обязательно. Откуда везём.',
  'место выгрузки': 'Обязательно. Куда везём.',
  объём: 'Обязательно. План на задачу, число больше нуля; можно с запятой (12,5) и с пробелами (1 200).',
  единица: 'т или м³ (также «тонн», «м3», «куб»). Пусто — т.',
  ставка: 'Цена для заказчика за единицу (₽ за т или за м³). Можно оставить пустой.',
  водители: 'ФИО или телефоны водителей через запятую или точку с запятой, как они записаны в «Водителях». Можно оставить пустым.',
  комментарий: 'Любой текст для водителей. Можно оставить пустым.',
};

/** Today's date in the server's local time plus `days`, as the UTC midnight Excel stores for that calendar day. */
function localDay(days: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + days));
}

export async function buildImportTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи', { views: [{ state: 'frozen', ySplit: 1 }] });
  const widths: Record<ImportHeader, number> = {
    дата: 12,
    груз: 24,
    'место погрузки': 24,
    'место выгрузки': 24,
    объём: 10,
    единица: 10,
    ставка: 10,
    водители: 28,
    комментарий: 36,
  };
  sheet.columns = IMPORT_HEADERS.map((header) => ({ header, key: header, width: widths[header] }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow([localDay(1), 'Щебень 20-40', 'Карьер Гранитный', 'ЖК Северный', 120, 'т', 450, 'Петров Пётр', 'Въезд со стороны ул. Лесной']);
  sheet.getColumn(1).numFmt = 'dd.mm.yyyy';

  const help = book.addWorksheet('Как заполнить');
  help.columns = [
    { header: 'Столбец', key: 'column', width: 18 },
    { header: 'Как заполнить', key: 'how', width: 100 },
  ];
  help.getRow(1).font = { bold: true };
  for (const header of IMPORT_HEADERS) help.addRow([header, HELP[header]]);
  help.addRow([]);
  help.addRow(['', 'Задачи — на первом листе, заголовки — в первой строке, одна задача на строку. Порядок столбцов любой, лишние столбцы не читаются.']);
  help.addRow(['', `Не больше ${IMPORT_MAX_ROWS} строк в файле. Пустые строки пропускаются. Формулы и объединённые ячейки не принимаются — вставьте значения.`]);
  return Buffer.from(await book.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// The file's guards: format, zip directory, bounded inflation, row count

const NOT_XLSX = 'Файл не похож на Excel (.xlsx). Откройте таблицу в Excel и сохраните её как «Книга Excel (.xlsx)».';
const DAMAGED = 'Не удалось прочитать файл Excel: он повреждён или сохранён в необычном формате. Откройте его в Excel и сохраните заново как .xlsx.';
const BOMB = 'Файл распаковывается в слишком большой объём — это не похоже на обычную таблицу. Сохраните задачи в новый файл .xlsx.';
const NO_ROWS = 'в файле нет строк с задачами';
const tooManyRows = (n: number) => `в файле ${n} строк, можно не больше ${IMPORT_MAX_ROWS} — разделите файл`;

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

function checkFormat(file: Buffer): void {
  if (file.length === 0) throw new ImportFileError('Файл пустой.');
  if (file.length > IMPORT_MAX_BYTES) {
    throw new ImportFileError(`Файл слишком большой (${(file.length / 1024 / 1024).toFixed(1).replace('.', ',')} МБ), можно не больше ${IMPORT_MAX_BYTES / 1024 / 1024} МБ — разделите его.`);
  }
  if (file.length >= 8 && file.readUInt32BE(0) === 0xd0cf11e0 && file.readUInt32BE(4) === 0xa1b11ae1) {
    // An OLE compound file: an old .xls, or a password-protected .xlsx (Excel wraps those in OLE too).
    if (file.includes(Buffer.from('EncryptedPackage', 'utf16le'))) {
      throw new ImportFileError('Файл защищён паролем. Снимите пароль в Excel (Файл → Сведения → Защита книги) и загрузите файл снова.');
    }
    throw new ImportFileError('Это файл старого формата Excel (.xls). Откройте его в Excel и сохраните как «Книга Excel (.xlsx)».');
  }
  if (file.length < 22 || file.readUInt32LE(0) !== 0x04034b50) throw new ImportFileError(NOT_XLSX);
}

/** The zip's central directory, read from the buffer itself: names and declared sizes, nothing inflated. */
function readCentralDirectory(file: Buffer): ZipEntry[] {
  // The end-of-central-directory record: 22 bytes plus a comment of at most 65 535 bytes, at the end.
  let eocd = -1;
  for (let i = file.length - 22; i >= Math.max(0, file.length - 22 - 0xffff); i--) {
    if (file.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ImportFileError(DAMAGED);
  let count = file.readUInt16LE(eocd + 10);
  let dirOffset = file.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) {
    // ZIP64: the locator sits just before the record and points at the 64-bit record.
    const locator = eocd - 20;
    if (locator < 0 || file.readUInt32LE(locator) !== 0x07064b50) throw new ImportFileError(DAMAGED);
    const record = Number(file.readBigUInt64LE(locator + 8));
    if (record + 56 > file.length || file.readUInt32LE(record) !== 0x06064b50) throw new ImportFileError(DAMAGED);
    count = Number(file.readBigUInt64LE(record + 32));
    dirOffset = Number(file.readBigUInt64LE(record + 48));
  }
  if (count > MAX_ENTRIES) throw new ImportFileError(BOMB);
  const entries: ZipEntry[] = [];
  let at = dirOffset;
  for (let n = 0; n < count; n++) {
    if (at + 46 > file.length || file.readUInt32LE(at) !== 0x02014b50) throw new ImportFileError(DAMAGED);
    const flags = file.readUInt16LE(at + 8);
    const method = file.readUInt16LE(at + 10);
    let compressedSize = file.readUInt32LE(at + 20);
    let size = file.readUInt32LE(at + 24);
    const nameLength = file.readUInt16LE(at + 28);
    const extraLength = file.readUInt16LE(at + 30);
    const commentLength = file.readUInt16LE(at + 32);
    let localOffset = file.readUInt32LE(at + 42);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > file.length) throw new ImportFileError(DAMAGED);
    const name = file.toString('utf8', at + 46, at + 46 + nameLength);
    // ZIP64 sizes live in the extra field (id 1), each present only when its 32-bit field is all ones.
    for (let x = at + 46 + nameLength; x + 4 <= at + 46 + nameLength + extraLength; ) {
      const id = file.readUInt16LE(x);
      const length = file.readUInt16LE(x + 2);
      if (id === 1) {
        let p = x + 4;
        const next = () => {
          if (p + 8 > x + 4 + length) throw new ImportFileError(DAMAGED);
          const value = Number(file.readBigUInt64LE(p));
          p += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      x += 4 + length;
    }
    entries.push({ name: name.replace(/^\/+/, ''), method, flags, compressedSize, size, localOffset });
    at = end;
  }
  return entries;
}

function checkSizes(entries: readonly ZipEntry[]): void {
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & 1) throw new ImportFileError('Файл защищён паролем. Снимите пароль в Excel и загрузите файл снова.');
    if (entry.method !== 0 && entry.method !== 8) throw new ImportFileError(DAMAGED);
    total += entry.size;
    if (total > IMPORT_MAX_UNZIPPED_BYTES) throw new ImportFileError(BOMB);
    if (entry.size > RATIO_FLOOR_BYTES && (entry.compressedSize === 0 || entry.size / entry.compressedSize > MAX_RATIO)) throw new ImportFileError(BOMB);
  }
}

/** One entry's bytes, inflated to at most its declared size (a zip that lies about it stops there). */
function inflateEntry(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== 0x04034b50) throw new ImportFileError(DAMAGED);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  if (start + entry.compressedSize > file.length) throw new ImportFileError(DAMAGED);
  const raw = file.subarray(start, start + entry.compressedSize);
  let data: Buffer;
  if (entry.method === 0) {
    data = raw;
  } else {
    try {
      data = inflateRawSync(raw, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      throw new ImportFileError((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? BOMB : DAMAGED, { cause: error });
    }
  }
  if (data.length !== entry.size) throw new ImportFileError(data.length > entry.size ? BOMB : DAMAGED);
  return data;
}

/** The attributes of an XML start tag as a map (names without their namespace prefix). */
function attributes(tag: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = (m[1] as string).replace(/^[\w.-]+:/, '');
    map.set(name, m[2] ?? m[3] ?? '');
  }
  return map;
}

/** The path of the book's first worksheet: workbook.xml's first <sheet>, through workbook.xml.rels. */
function firstSheetPath(workbookXml: string, relsXml: string | null, worksheets: readonly string[]): string | null {
  const sheetTag = /<(?:[\w.-]+:)?sheet\b[^>]*>/.exec(workbookXml);
  if (!sheetTag) return null;
  const relId = attributes(sheetTag[0]).get('id');
  if (relId && relsXml) {
    for (const m of relsXml.matchAll(/<(?:[\w.-]+:)?Relationship\b[^>]*>/g)) {
      const rel = attributes(m[0]);
      if (rel.get('Id') !== relId) continue;
      const target = rel.get('Target') ?? '';
      const parts: string[] = [];
      for (const part of (target.startsWith('/') ? target.slice(1) : `xl/${target}`).split('/')) {
        if (part === '..') parts.pop();
        else if (part !== '.' && part !== '') parts.push(part);
      }
      const path = parts.join('/');
      if (worksheets.includes(path)) return path;
    }
  }
  return worksheets[0] ?? null;
}

/** Rows of a worksheet's XML that hold a value, a shared or inline string or a formula (formatted empty rows do not count). */
export function countValueRows(xml: string): number {
  let count = 0;
  const start = /<((?:[\w.-]+:)?)row\b[^>]*?(\/?)>/g;
  const value = /<(?:[\w.-]+:)?(?:v|is|f)\b/;
  for (let m = start.exec(xml); m; m = start.exec(xml)) {
    if (m[2] === '/') continue;
    const close = xml.indexOf(`</${m[1]}row>`, start.lastIndex);
    const end = close < 0 ? xml.length : close;
    if (value.test(xml.slice(start.lastIndex, end))) count++;
    start.lastIndex = end;
  }
  return count;
}

/** Every guard that can run without exceljs; throws `ImportFileError`, returns nothing on a file worth reading. */
function preflight(file: Buffer): void {
  checkFormat(file);
  const entries = readCentralDirectory(file);
  checkSizes(entries);
  const byName = new Map(entries.map((e) => [e.name, e]));
  if (!byName.has('xl/workbook.xml')) throw new ImportFileError(NOT_XLSX);
  const worksheets = entries
    .map((e) => e.name)
    .filter((name) => /^xl\/worksheets\/[^/]+\.xml$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const texts = new Map<string, string>();
  // Every entry is inflated once under its ceiling: exceljs will inflate all of them too.
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const data = inflateEntry(file, entry);
    if (entry.name === 'xl/workbook.xml' || entry.name === 'xl/_rels/workbook.xml.rels' || worksheets.includes(entry.name)) {
      texts.set(entry.name, data.toString('utf8'));
    }
  }
  const first = firstSheetPath(texts.get('xl/workbook.xml') ?? '', texts.get('xl/_rels/workbook.xml.rels') ?? null, worksheets);
  if (!first) throw new ImportFileError(NO_ROWS);
  let others = 0;
  for (const path of worksheets) {
    const rows = countValueRows(texts.get(path) ?? '');
    if (path === first) {
      // One of them is the header row.
      if (rows - 1 > IMPORT_MAX_ROWS) throw new ImportFileError(tooManyRows(rows - 1));
    } else {
      others += rows;
    }
  }
  if (others > MAX_OTHER_SHEET_ROWS) {
    throw new ImportFileError(`на других листах файла ${others} строк — оставьте в файле только лист с задачами (он должен быть первым)`);
  }
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

const iso = (y: number, m: number, d: number): string | null => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? `${y}-${pad(m)}-${pad(d)}` : null;
};

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

function columnLetter(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
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
  preflight(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ExcelJS.Buffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new ImportFileError(NO_ROWS);
  const date1904 = Boolean((book.properties as { date1904?: boolean }).date1904);

  // The header row: the first of the first five rows that names a known column.
  const lastColumn = Math.min(sheet.columnCount, 200);
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
      if (seen !== undefined) duplicates.push(`столбец «${header}» встречается дважды (${columnLetter(seen)} и ${columnLetter(c)}) — оставьте один`);
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
  return dataRows.map((row) => readRow(row, columns, date1904, findDriver));
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
  return { row: row.number, task: errors.length === 0 && result.success ? result.data : null, errors };
}
