/**
 * A small streaming xlsx writer for the server's sheets (issue 35: exceljs's streaming writer cost ~0.1 ms a row and
 * held the event loop while it ran). A workbook is a zip of a handful of XML parts; the sheets' rows are written as
 * strings, deflated by node's zlib on its thread pool (off the event loop) while fflate's `Zip` lays out the
 * archive. Only what our sheets use: numbers, text (inline strings), dates, formulas with their cached result; a
 * bold frozen header row, column widths and number formats, an optional autofilter.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { createDeflateRaw, crc32 } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';

export type XlsxCell = string | number | Date | null | { formula: string; result?: number };

export interface XlsxColumn {
  header: string;
  width: number;
  /** An Excel number format, e.g. 'dd.mm.yyyy' or '#,##0.00'. */
  numFmt?: string;
}

/** Resolves once `stream` can take more; rejects if it was closed under the writer (the client went away). */
export function drained(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.reject(new Error('the output stream is closed'));
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', ok);
      stream.off('close', closed);
      stream.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    const ok = () => done();
    const closed = () => done(new Error('the output stream is closed'));
    stream.on('drain', ok);
    stream.on('close', closed);
    stream.on('error', done);
  });
}

// The characters XML 1.0 forbids (C0 controls but tab and line breaks; U+FFFE/FFFF) besides the markup ones.
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const INVALID = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const INVALID_ALL = new RegExp(INVALID.source, 'g');
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data: the five markup characters escaped, the characters XML 1.0 forbids dropped. */
export function xmlText(text: string): string {
  return INVALID.test(text) ? text.replace(INVALID_ALL, (c) => ENTITY[c] ?? '') : text;
}

/** The column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Excel's built-in number formats (ECMA-376 §18.8.30) by their code; any other gets an id from 164 on. */
const BUILT_IN: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '#,##0': 3, '#,##0.00': 4, '0%': 9, '0.00%': 10, 'mm-dd-yy': 14 };
/** What a date cell in a column without a format shows (as exceljs did). */
const DEFAULT_DATE = 'mm-dd-yy';

/** The workbook's cell formats: a number format and bold or not, each combination once. */
class Styles {
  private readonly formats = new Map<string, number>();
  private readonly xfs = new Map<string, number>([['0:0', 0]]);

  /** The index of the cell format (`s`) of this number format, bold or not; 0 is the default. */
  xf(numFmt: string | undefined, bold = false): number {
    const fmt = numFmt === undefined ? 0 : (BUILT_IN[numFmt] ?? this.customFormat(numFmt));
    const key = `${fmt}:${bold ? 1 : 0}`;
    let index = this.xfs.get(key);
    if (index === undefined) {
      index = this.xfs.size;
      this.xfs.set(key, index);
    }
    return index;
  }

  private customFormat(code: string): number {
    let id = this.formats.get(code);
    if (id === undefined) {
      id = 164 + this.formats.size;
      this.formats.set(code, id);
    }
    return id;
  }

  xml(): string {
    const numFmts = [...this.formats].map(([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`).join('');
    const xfs = [...this.xfs.keys()]
      .map((key) => {
        const [fmt, bold] = key.split(':');
        return `<xf numFmtId="${fmt}" fontId="${bold}" fillId="0" borderId="0" xfId="0"${fmt !== '0' ? ' applyNumberFormat="1"' : ''}${bold === '1' ? ' applyFont="1"' : ''}/>`;
      })
      .join('');
    const font = '<sz val="11"/><name val="Calibri"/><family val="2"/>';
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN}">` +
      (this.formats.size ? `<numFmts count="${this.formats.size}">${numFmts}</numFmts>` : '') +
      `<fonts count="2"><font>${font}</font><font><b/>${font}</font></fonts>` +
      '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
      '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      `<cellXfs count="${this.xfs.size}">${xfs}</cellXfs>` +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>'
    );
  }
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/**
 * One part of the archive, written as text: deflated by zlib on the thread pool, its CRC and size counted as it
 * passes (both go to the data descriptor fflate writes after it). Parts are written one after another.
 */
class Part {
  private readonly file: ZipInputFile;
  // Level 1: the size exceljs's files had (~3 MB for a month of 43 000 lines), ~40 % less CPU than level 6 for
  // ~25 % more bytes — on a shared 2-core server the CPU is the scarcer.
  private readonly deflate = createDeflateRaw({ level: 1 });
  private readonly ended: Promise<void>;

  constructor(zip: Zip, filename: string) {
    this.file = { filename, size: 0, crc: 0, compression: 8, flag: 0, ondata: () => undefined };
    zip.add(this.file);
    // zip.add set the file's ondata: what it is handed goes into the archive after the part's header.
    const push = (chunk: Uint8Array<ArrayBuffer>, final: boolean) => this.file.ondata?.(null, chunk, final);
    this.deflate.on('data', (chunk: Buffer) => push(chunk as Uint8Array<ArrayBuffer>, false));
    this.ended = once(this.deflate, 'end').then(() => push(new Uint8Array(0), true));
    // A zlib error surfaces where end() is awaited, never as an unhandled rejection in between.
    this.ended.catch(() => undefined);
  }

  async write(text: string): Promise<void> {
    const bytes = Buffer.from(text, 'utf8');
    this.file.crc = crc32(bytes, this.file.crc);
    this.file.size += bytes.length;
    if (!this.deflate.write(bytes)) await once(this.deflate, 'drain');
  }

  end(): Promise<void> {
    this.deflate.end();
    return this.ended;
  }
}

/** Rows a sheet gathers before it hands their text to the archive (and lets the event loop turn). */
export const ROWS_PER_TURN = 250;

export interface XlsxSheet {
  addRow(cells: readonly XlsxCell[]): Promise<void>;
  finish(): Promise<void>;
}

export interface XlsxWorkbook {
  sheet(name: string, columns: readonly XlsxColumn[], options?: { autoFilter?: boolean }): XlsxSheet;
  finish(): Promise<void>;
}

/** Excel's serial day (the 1900 date system) of a moment: days since 1899-12-30, UTC. */
const serial = (date: Date): number => date.getTime() / 86_400_000 + 25_569;

/**
 * A streamed workbook into `out`: sheets one after another (a sheet is finished before the next starts), rows
 * written as they come with `out`'s backpressure awaited, and the event loop let turn every ROWS_PER_TURN rows.
 * `finish` writes the workbook's small parts and ends `out`.
 */
export function createXlsx(out: Writable, creator = 'Рейс'): XlsxWorkbook {
  const styles = new Styles();
  const sheets: string[] = [];
  let failed: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) {
      failed = error;
      out.destroy(error);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const check = () => {
    if (failed) throw failed;
  };

  const part = async (filename: string, text: string) => {
    const p = new Part(zip, filename);
    await p.write(text);
    await p.end();
    check();
    await drained(out);
  };

  return {
    sheet(name, columns, options = {}) {
      // Excel refuses sheet names over 31 characters or with []:*?/\ in them.
      sheets.push(name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31));
      const p = new Part(zip, `xl/worksheets/sheet${sheets.length}.xml`);
      const letters = columns.map((_, i) => columnLetter(i));
      const colXf = columns.map((c) => styles.xf(c.numFmt));
      const dateXf = columns.map((c, i) => (c.numFmt ? (colXf[i] as number) : styles.xf(DEFAULT_DATE)));
      const bold = styles.xf(undefined, true);
      // Each column's cell markup around the row number and the value, made once: a row is a few concatenations.
      const cellOpen = letters.map((letter) => `<c r="${letter}`);
      const styleOf = (xf: number | undefined) => (xf ? ` s="${xf}"` : '');
      const numberTail = colXf.map((xf) => `"${styleOf(xf)}><v>`);
      const textTail = colXf.map((xf) => `"${styleOf(xf)} t="inlineStr"><is><t>`);
      const dateTail = dateXf.map((xf) => `"${styleOf(xf)}><v>`);
      const formulaTail = colXf.map((xf) => `"${styleOf(xf)}><f>`);
      const extend = (upTo: number) => {
        for (let i = cellOpen.length; i <= upTo; i++) {
          cellOpen.push(`<c r="${columnLetter(i)}`);
          colXf.push(0);
          numberTail.push('"><v>');
          textTail.push('" t="inlineStr"><is><t>');
          dateTail.push(`" s="${styles.xf(DEFAULT_DATE)}"><v>`);
          formulaTail.push('"><f>');
        }
      };
      const last = letters.at(-1) ?? 'A';
      const cols = columns
        .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}"${colXf[i] ? ` style="${colXf[i]}"` : ''} customWidth="1"/>`)
        .join('');
      const header = columns.map((c, i) => `<c r="${letters[i]}1" s="${styles.xf(c.numFmt, true)}" t="inlineStr"><is><t>${xmlText(c.header)}</t></is></c>`).join('');
      let text =
        `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/></sheetView></sheetViews>' +
        `<sheetFormatPr defaultRowHeight="15"/>${cols ? `<cols>${cols}</cols>` : ''}` +
        `<sheetData><row r="1" s="${bold}" customFormat="1">${header}</row>`;
      let row = 1;

      const flush = async () => {
        const chunk = text;
        text = '';
        await p.write(chunk);
        check();
        await drained(out);
      };

      return {
        async addRow(cells) {
          row += 1;
          let xml = `<row r="${row}">`;
          for (let i = 0; i < cells.length; i++) {
            const v = cells[i];
            if (v === null || v === undefined) continue;
            // A cell past the declared columns (none of ours has one): its letters and no format of its own.
            if (i >= cellOpen.length) extend(i);
            if (typeof v === 'number') {
              if (Number.isFinite(v)) xml += `${cellOpen[i]}${row}${numberTail[i]}${v}</v></c>`;
            } else if (typeof v === 'string') {
              // Leading or trailing blanks are kept only where the text says so (xml:space).
              const padded = v.length > 0 && (v.charCodeAt(0) <= 32 || v.charCodeAt(v.length - 1) <= 32);
              xml += `${cellOpen[i]}${row}${padded ? `"${styleOf(colXf[i])} t="inlineStr"><is><t xml:space="preserve">` : textTail[i]}${xmlText(v)}</t></is></c>`;
            } else if (v instanceof Date) {
              const day = serial(v);
              if (Number.isFinite(day)) xml += `${cellOpen[i]}${row}${dateTail[i]}${day}</v></c>`;
            } else {
              const result = v.result !== undefined && Number.isFinite(v.result) ? `<v>${v.result}</v>` : '';
              xml += `${cellOpen[i]}${row}${formulaTail[i]}${xmlText(v.formula)}</f>${result}</c>`;
            }
          }
          text += `${xml}</row>`;
          // A turn of the event loop every few hundred rows: a month's 40 000 lines are not one long turn (issue 35).
          if ((row - 1) % ROWS_PER_TURN === 0) {
            await flush();
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        },
        async finish() {
          text += `</sheetData>${options.autoFilter ? `<autoFilter ref="A1:${last}1"/>` : ''}`;
          text += '<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>';
          await flush();
          await p.end();
          check();
          await drained(out);
        },
      };
    },

    async finish() {
      const names = sheets.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
      await part('xl/styles.xml', styles.xml());
      await part('xl/workbook.xml', `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><workbookPr/><sheets>${names}</sheets><calcPr calcId="171027"/></workbook>`);
      const sheetRels = sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
      await part('xl/_rels/workbook.xml.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL}">${sheetRels}<Relationship Id="rId${sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`);
      const now = `${new Date().toISOString().slice(0, 19)}Z`;
      await part(
        'docProps/core.xml',
        `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
          `<dc:creator>${xmlText(creator)}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${now}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${now}</dcterms:modified></cp:coreProperties>`,
      );
      await part(
        '_rels/.rels',
        `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>` +
          `<Relationship Id="rId2" Type="${PKG_REL}/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
      );
      const sheetTypes = sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${CT}.worksheet+xml"/>`).join('');
      await part(
        '[Content_Types].xml',
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
          `<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>${sheetTypes}` +
          `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
      );
      const finished = once(out, 'finish');
      zip.end();
      check();
      await finished;
    },
  };
}
