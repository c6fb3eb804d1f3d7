/**
 * The guards an uploaded .xlsx meets before exceljs reads it (server/tasks/import-xlsx.ts; docs/task-entry.md): the
 * size, the format (a zip; an old .xls or a password-protected book is named as such), the zip's central directory
 * (declared sizes and ratios: a zip bomb is refused before anything is inflated), every entry inflated under a ceiling
 * of its declared size (a zip that lies about its sizes stops there), and, counted while the sheets inflate (given up
 * at the first cap passed), the first sheet's rows (too many rows are refused before exceljs builds row objects) and
 * the cells exceljs would build: the first sheet's widest column (the import reads nine columns, found among the first
 * ones), the cells of the whole book and its shared strings — a file of a few MB can hold millions of numbers, each a
 * cell object in exceljs. A refusal is an
 * `ImportFileError` (its message is for the user).
 */
import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { ROWS, formatNumber, plural } from '../../contract/words.ts';

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
/** The widest column of the first sheet: the template's nine and room for a dispatcher's own notes beside them. */
export const IMPORT_MAX_COLUMNS = 30;
/** Cells (`<c>`, filled or only formatted) in the whole book, and shared strings: 2 000 rows of the template's columns, twice over. */
export const IMPORT_MAX_CELLS = 40_000;


export class ImportFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImportFileError';
  }
}

export const NOT_XLSX = 'Файл не похож на Excel (.xlsx). Откройте таблицу в Excel и сохраните её как «Книга Excel (.xlsx)».';
export const DAMAGED = 'Не удалось прочитать файл Excel: он повреждён или сохранён в необычном формате. Откройте его в Excel и сохраните заново как .xlsx.';
const BOMB = 'Файл распаковывается в слишком большой объём — это не похоже на обычную таблицу. Сохраните задачи в новый файл .xlsx.';
export const NO_ROWS = 'в файле нет строк с задачами';
export const tooManyRows = (n: number) => `в файле ${plural(n, ROWS)}, можно не больше ${IMPORT_MAX_ROWS} — разделите файл`;
export const tooWide = (letter: string, n: number) =>
  `на листе с задачами заполнены столбцы до ${letter} (${n}), можно не больше ${IMPORT_MAX_COLUMNS}: удалите лишние столбцы — импорт читает только столбцы шаблона`;
/** Counted while the sheet inflates, which stops at the cap: the count beyond it is not known. */
export const moreRowsThanCap = `в файле больше ${IMPORT_MAX_ROWS} строк с задачами — разделите файл на части до ${IMPORT_MAX_ROWS} строк`;
export const moreCellsThanCap = `в файле больше ${formatNumber(IMPORT_MAX_CELLS)} ячеек: оставьте только лист с задачами и столбцы шаблона`;

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

/** An entry's stored (compressed) bytes, found through its local header. */
function entrySpan(file: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > file.length || file.readUInt32LE(at) !== 0x04034b50) throw new ImportFileError(DAMAGED);
  const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
  if (start + entry.compressedSize > file.length) throw new ImportFileError(DAMAGED);
  return file.subarray(start, start + entry.compressedSize);
}

/** One entry's bytes, inflated to at most its declared size (a zip that lies about it stops there). */
function inflateEntry(file: Buffer, entry: ZipEntry): Buffer {
  const raw = entrySpan(file, entry);
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

/** What a preflight inflated: the tests see that a refused file stopped near its cap, not at its end. */
export interface PreflightStats {
  inflatedBytes: number;
}

/** The inflated pieces handed on at a time: a cap passed is seen within one of them. */
const INFLATE_CHUNK = 64 * 1024;

/**
 * One entry inflated piece by piece (zlib's streaming inflate), each piece handed to `take` as it comes; `take` throws
 * to stop (a cap passed), and nothing more is inflated. More than the declared size is a bomb; less, a damaged file.
 */
async function streamEntry(file: Buffer, entry: ZipEntry, take: (piece: Buffer) => void, stats?: PreflightStats): Promise<void> {
  const raw = entrySpan(file, entry);
  if (entry.method === 0) {
    if (raw.length !== entry.size) throw new ImportFileError(DAMAGED);
    for (let at = 0; at < raw.length; at += INFLATE_CHUNK) take(raw.subarray(at, at + INFLATE_CHUNK));
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    let total = 0;
    const stop = (error: unknown) => {
      inflater.destroy();
      reject(error);
    };
    inflater.on('data', (piece: Buffer) => {
      total += piece.length;
      if (stats) stats.inflatedBytes += piece.length;
      if (total > entry.size) return stop(new ImportFileError(BOMB));
      try {
        take(piece);
      } catch (error) {
        stop(error);
      }
    });
    inflater.on('error', (error) => stop(new ImportFileError(DAMAGED, { cause: error })));
    inflater.on('end', () => (total === entry.size ? resolve() : reject(new ImportFileError(DAMAGED))));
    inflater.end(raw);
  });
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
