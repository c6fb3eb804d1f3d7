/**
 * The guards an uploaded .xlsx meets before exceljs reads it (server/tasks/import-xlsx.ts; docs/task-entry.md): the
 * size, the format (a zip; an old .xls or a password-protected book is named as such), the zip's central directory
 * and every entry inflated under a ceiling (server/tasks/xlsx-zip.ts), and, counted while the sheets inflate (given up
 * at the first cap passed), the first sheet's rows (too many rows are refused before exceljs builds row objects) and
 * the cells exceljs would build: the first sheet's widest column (the import reads nine columns, found among the first
 * ones), the cells of the whole book and its shared strings — a file of a few MB can hold millions of numbers, each a
 * cell object in exceljs. A refusal is an
 * `ImportFileError` (its message is for the user).
 */
import { StringDecoder } from 'node:string_decoder';
import { ROWS, formatNumber, plural } from '../../contract/words.ts';
import { ImportFileError, checkSizes, inflateEntry, readCentralDirectory, streamEntry, type PreflightStats } from './xlsx-zip.ts';

export { DAMAGED, IMPORT_MAX_UNZIPPED_BYTES, ImportFileError, type PreflightStats } from './xlsx-zip.ts';

/** The largest upload read at all. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** The most task rows one file may hold. */
export const IMPORT_MAX_ROWS = 2000;
/** Rows (with values) the other sheets of the book may hold together; exceljs reads every sheet. */
const MAX_OTHER_SHEET_ROWS = 10_000;
/** The widest column of the first sheet: the template's nine and room for a dispatcher's own notes beside them. */
export const IMPORT_MAX_COLUMNS = 30;
/** Cells (`<c>`, filled or only formatted) in the whole book, and shared strings: 2 000 rows of the template's columns, twice over. */
export const IMPORT_MAX_CELLS = 40_000;

export const NOT_XLSX = 'Файл не похож на Excel (.xlsx). Откройте таблицу в Excel и сохраните её как «Книга Excel (.xlsx)».';
export const NO_ROWS = 'в файле нет строк с задачами';
export const tooManyRows = (n: number) => `в файле ${plural(n, ROWS)}, можно не больше ${IMPORT_MAX_ROWS} — разделите файл`;
export const tooWide = (letter: string, n: number) =>
  `на листе с задачами заполнены столбцы до ${letter} (${n}), можно не больше ${IMPORT_MAX_COLUMNS}: удалите лишние столбцы — импорт читает только столбцы шаблона`;
/** Counted while the sheet inflates, which stops at the cap: the count beyond it is not known. */
export const moreRowsThanCap = `в файле больше ${IMPORT_MAX_ROWS} строк с задачами — разделите файл на части до ${IMPORT_MAX_ROWS} строк`;
export const moreCellsThanCap = `в файле больше ${formatNumber(IMPORT_MAX_CELLS)} ячеек: оставьте только лист с задачами и столбцы шаблона`;

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

/** A column's number from its letters (A = 1, AA = 27); 0 when there are none. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** A column's letters from its number (1 = A). */
export function columnLetters(column: number): string {
  let letters = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * A worksheet's XML counted as it inflates, chunk by chunk: its rows that hold a value (a value, a shared or inline
 * string or a formula; formatted empty rows do not count), its cells (`<c>` elements, filled or only formatted) and
 * its widest column (a cell's `r` reference, or the one after the cell before it in the row when it has none). A tag
 * cut by a chunk's end is carried into the next chunk; a character cut so is held by the decoder.
 */
export class SheetScan {
  rows = 0;
  cells = 0;
  widest = 0;
  private column = 0;
  private inRow = false;
  private rowHasValue = false;
  private carry = '';
  private readonly decoder = new StringDecoder('utf8');

  feed(chunk: Buffer | string): void {
    const text = this.carry + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const open = text.lastIndexOf('<');
    const cut = open >= 0 && text.indexOf('>', open) < 0 ? open : text.length;
    this.carry = text.slice(cut);
    const tag = /<(\/?)(?:[\w.-]+:)?(row|c|v|is|f)\b([^>]*)>/g;
    const complete = text.slice(0, cut);
    for (let m = tag.exec(complete); m; m = tag.exec(complete)) this.tag(m[1] === '/', m[2] as string, m[3] as string);
  }

  /** The sheet's end: a row left open counts as if closed. */
  end(): this {
    this.feed(this.decoder.end());
    this.closeRow();
    return this;
  }

  private tag(closing: boolean, name: string, attrs: string): void {
    if (name === 'row') {
      if (closing) return this.closeRow();
      this.closeRow();
      this.column = 0;
      this.inRow = !attrs.endsWith('/');
    } else if (name === 'c') {
      if (closing) return;
      this.cells++;
      const ref = /\br\s*=\s*["']\$?([A-Za-z]{1,3})\$?\d/.exec(attrs);
      this.column = ref ? columnNumber((ref[1] as string).toUpperCase()) : this.column + 1;
      if (this.column > this.widest) this.widest = this.column;
    } else if (!closing && this.inRow) {
      this.rowHasValue = true;
    }
  }

  private closeRow(): void {
    if (this.inRow && this.rowHasValue) this.rows++;
    this.inRow = false;
    this.rowHasValue = false;
  }
}

/** Rows of a worksheet's XML that hold a value (`SheetScan`, on the whole text at once). */
export function countValueRows(xml: string): number {
  const scan = new SheetScan();
  scan.feed(xml);
  return scan.end().rows;
}

/** Shared strings (`<si>`) counted as the part inflates, a tag cut by a chunk's end carried into the next. */
class StringsScan {
  count = 0;
  private carry = '';
  private readonly decoder = new StringDecoder('utf8');

  feed(chunk: Buffer): void {
    const text = this.carry + this.decoder.write(chunk);
    const open = text.lastIndexOf('<');
    const cut = open >= 0 && text.indexOf('>', open) < 0 ? open : text.length;
    this.carry = text.slice(cut);
    this.count += text.slice(0, cut).match(/<(?:[\w.-]+:)?si\b/g)?.length ?? 0;
  }
}

/**
 * Every guard that can run without exceljs; throws `ImportFileError`, returns nothing on a file worth reading. The
 * worksheets and shared strings are counted while they inflate and given up at the first cap passed (a sheet of
 * 900 columns stops within its first rows, not after its 44 MB): the refusal names the cap, or the widest column
 * found so far.
 */
export async function preflight(file: Buffer, stats?: PreflightStats): Promise<void> {
  checkFormat(file);
  const entries = readCentralDirectory(file);
  checkSizes(entries);
  const byName = new Map(entries.map((e) => [e.name, e]));
  if (!byName.has('xl/workbook.xml')) throw new ImportFileError(NOT_XLSX);
  const worksheets = entries
    .map((e) => e.name)
    .filter((name) => /^xl\/worksheets\/[^/]+\.xml$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const streamed = new Set([...worksheets, 'xl/sharedStrings.xml']);
  const texts = new Map<string, string>();
  // Every other entry is inflated whole under its ceiling (exceljs will inflate all of them too).
  for (const entry of entries) {
    if (entry.name.endsWith('/') || streamed.has(entry.name)) continue;
    const data = inflateEntry(file, entry);
    if (stats) stats.inflatedBytes += data.length;
    if (entry.name === 'xl/workbook.xml' || entry.name === 'xl/_rels/workbook.xml.rels') texts.set(entry.name, data.toString('utf8'));
  }
  const first = firstSheetPath(texts.get('xl/workbook.xml') ?? '', texts.get('xl/_rels/workbook.xml.rels') ?? null, worksheets);
  if (!first) throw new ImportFileError(NO_ROWS);
  let others = 0;
  let cells = 0;
  // The first sheet first: its own caps are named before the book's.
  for (const path of [first, ...worksheets.filter((w) => w !== first)]) {
    const entry = byName.get(path);
    if (!entry) continue;
    const scan = new SheetScan();
    const check = () => {
      if (path === first) {
        if (scan.widest > IMPORT_MAX_COLUMNS) throw new ImportFileError(tooWide(columnLetters(scan.widest), scan.widest));
        // One of them is the header row.
        if (scan.rows - 1 > IMPORT_MAX_ROWS) throw new ImportFileError(moreRowsThanCap);
      }
      if (cells + scan.cells > IMPORT_MAX_CELLS) throw new ImportFileError(moreCellsThanCap);
    };
    await streamEntry(file, entry, (piece) => (scan.feed(piece), check()), stats);
    scan.end();
    check();
    if (path !== first) others += scan.rows;
    cells += scan.cells;
  }
  const shared = byName.get('xl/sharedStrings.xml');
  if (shared) {
    const strings = new StringsScan();
    await streamEntry(
      file,
      shared,
      (piece) => {
        strings.feed(piece);
        if (strings.count > IMPORT_MAX_CELLS) throw new ImportFileError(moreCellsThanCap);
      },
      stats,
    );
  }
  if (others > MAX_OTHER_SHEET_ROWS) {
    throw new ImportFileError(`на других листах файла ${plural(others, ROWS)} — оставьте в файле только лист с задачами (он должен быть первым)`);
  }
}
