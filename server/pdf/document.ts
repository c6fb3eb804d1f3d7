/**
 * The one PDF helper every paper is drawn with (docs/pdf.md): an A4 page with fixed margins, the DejaVu Sans
 * Condensed font shipped by the `dejavu-fonts-ttf` package (Cyrillic on any machine, no system font), text that
 * wraps, rows of bordered boxes that stay empty when a fact is missing (to be completed by hand), bordered tables
 * that break across pages with their header repeated, images (photos JPEG/PNG, a signature PNG) and page numbers.
 * It knows nothing of the database: a renderer hands it facts already read.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

const requireFont = createRequire(import.meta.url);

interface Fonts {
  regular: Buffer;
  bold: Buffer;
}
let fonts: Fonts | null = null;

/** The font files, read once per process (≈ 0.6 MB each; only the glyphs used are embedded). */
function loadFonts(): Fonts {
  fonts ??= {
    regular: readFileSync(requireFont.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(requireFont.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return fonts;
}

/** Points: A4 is 595.28 × 841.89; 34 pt is 12 mm, inside every printer's margin. */
export const MARGIN = 34;
const FOOTER = 18;
const PAD = 3;
const TEXT = 9;
const CAPTION = 6.5;
const GREY = '#555555';
const RULE = 0.6;

/** A box of a row: its value (empty when missing) above its caption. */
export interface BoxSpec {
  caption: string;
  value?: string | null;
  /** A share of the row's width; the shares of a row are scaled to fill it (default 1 each). */
  share?: number;
  /** Writing lines kept for a hand when the value is missing, or the least height when present (default 1). */
  lines?: number;
  bold?: boolean;
  /** An image (a signature) drawn in the box under the value, `imageHeight` points tall. */
  image?: Buffer | null;
  imageHeight?: number;
}

export interface Column {
  header: string;
  share?: number;
  align?: 'left' | 'right' | 'center';
}

export interface Picture {
  image: Buffer | null;
  caption: string;
}

const isBlank = (value: string | null | undefined): value is null | undefined | '' => value == null || value.trim() === '';

export class PdfDoc {
  readonly doc: PDFKit.PDFDocument;
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<Buffer>;
  /** Page runs that are one paper each (a batch): their footers count their own sheets. */
  private readonly groups: { label: string; first: number }[] = [];

  constructor(info: { title: string; subject?: string }) {
    const { regular, bold } = loadFonts();
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER },
      bufferPages: true,
      lang: 'ru-RU',
      info: { Title: info.title, Subject: info.subject ?? info.title, Creator: 'Рейс', Producer: 'Рейс' },
    });
    this.doc.registerFont('regular', regular);
    this.doc.registerFont('bold', bold);
    this.doc.font('regular').fontSize(TEXT).lineGap(0);
    this.done = new Promise((resolve, reject) => {
      this.doc.on('data', (chunk: Buffer) => this.chunks.push(chunk));
      this.doc.on('end', () => resolve(Buffer.concat(this.chunks)));
      this.doc.on('error', reject);
    });
  }

  get left(): number {
    return this.doc.page.margins.left;
  }

  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** A new page unless `height` more points fit on this one. */
  ensure(height: number): void {
    if (this.doc.y + height > this.bottom) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.doc.x = this.left;
  }

  /** Starts a paper of a batch: on a new page unless this is the document's first, empty one. */
  startGroup(label: string): void {
    const pages = this.doc.bufferedPageRange();
    const current = pages.start + pages.count - 1;
    const empty = this.groups.length === 0 && current === 0 && this.doc.y <= this.doc.page.margins.top;
    if (!empty) this.newPage();
    const range = this.doc.bufferedPageRange();
    this.groups.push({ label, first: range.start + range.count - 1 });
  }

  space(points = 6): void {
    this.doc.y += points;
  }

  /** Text across the page, wrapped. */
  text(value: string, opts: { size?: number; bold?: boolean; color?: string; align?: 'left' | 'right' | 'center' } = {}): void {
    const size = opts.size ?? TEXT;
    this.doc.font(opts.bold ? 'bold' : 'regular').fontSize(size);
    const height = this.doc.heightOfString(value, { width: this.width });
    this.ensure(height);
    this.doc.fillColor(opts.color ?? 'black').text(value, this.left, this.doc.y, { width: this.width, align: opts.align ?? 'left' });
    this.doc.fillColor('black').font('regular').fontSize(TEXT);
  }

  title(value: string, sub?: string): void {
    this.text(value, { size: 14, bold: true, align: 'center' });
    if (sub) this.text(sub, { size: 9, align: 'center', color: GREY });
    this.space(6);
  }

  /** A section's bar: bold text on grey, kept with at least `keep` points of what follows. */
  section(value: string, keep = 40): void {
    this.doc.font('bold').fontSize(9.5);
    const height = this.doc.heightOfString(value, { width: this.width - 2 * PAD }) + 2 * PAD;
    this.ensure(height + keep);
    const y = this.doc.y;
    this.doc.rect(this.left, y, this.width, height).fillAndStroke('#e6e6e6', 'black');
    this.doc.fillColor('black').text(value, this.left + PAD, y + PAD, { width: this.width - 2 * PAD });
    this.doc.y = y + height;
    this.doc.font('regular').fontSize(TEXT);
  }

  /** One row of bordered boxes, each its value (or nothing) over its caption, all as tall as the tallest. */
  boxes(specs: BoxSpec[]): void {
    const widths = this.split(specs.map((s) => s.share ?? 1));
    const heights = specs.map((spec, i) => this.boxHeight(spec, widths[i] ?? 0));
    const height = Math.max(...heights);
    this.ensure(height);
    const y = this.doc.y;
    let x = this.left;
    specs.forEach((spec, i) => {
      const w = widths[i] ?? 0;
      this.drawBox(spec, x, y, w, height);
      x += w;
    });
    this.doc.x = this.left;
    this.doc.y = y + height;
  }

  /** A bordered table, rows wrapped, a row never split, the header repeated on each page. */
  table(columns: Column[], rows: (string | null | undefined)[][]): void {
    const widths = this.split(columns.map((c) => c.share ?? 1));
    const header = columns.map((c) => c.header);
    const headerHeight = this.rowHeight(header, widths, true);
    const drawHeader = () => this.drawRow(header, widths, columns, headerHeight, true);
    this.ensure(headerHeight + this.rowHeight(rows[0] ?? [], widths, false));
    drawHeader();
    for (const row of rows) {
      const height = this.rowHeight(row, widths, false);
      if (this.doc.y + height > this.bottom) {
        this.newPage();
        drawHeader();
      }
      this.drawRow(row, widths, columns, height, false);
    }
    this.doc.x = this.left;
  }

  /** Pictures in a grid, each fitted into its cell with its caption; one that cannot be read leaves its cell empty. */
  pictures(list: Picture[], opts: { columns?: number; height?: number } = {}): void {
    const columns = opts.columns ?? 2;
    const imageHeight = opts.height ?? 190;
    const widths = this.split(Array.from({ length: columns }, () => 1));
    for (let start = 0; start < list.length; start += columns) {
      const row = list.slice(start, start + columns);
      this.doc.font('regular').fontSize(CAPTION);
      const captions = row.map((p, i) => this.doc.heightOfString(p.caption, { width: (widths[i] ?? 0) - 2 * PAD }));
      const height = imageHeight + 3 * PAD + Math.max(...captions);
      this.ensure(height);
      const y = this.doc.y;
      let x = this.left;
      row.forEach((picture, i) => {
        const w = widths[i] ?? 0;
        this.doc.lineWidth(RULE).rect(x, y, w, height).stroke();
        this.drawImage(picture.image, x + PAD, y + PAD, w - 2 * PAD, imageHeight);
        this.doc.font('regular').fontSize(CAPTION).fillColor(GREY);
        this.doc.text(picture.caption, x + PAD, y + 2 * PAD + imageHeight, { width: w - 2 * PAD });
        this.doc.fillColor('black').fontSize(TEXT);
        x += w;
      });
      this.doc.x = this.left;
      this.doc.y = y + height;
    }
  }

  /** Numbers the pages («Лист 1 из 2» of each paper in a batch, and the document's pages) and gives the file. */
  async end(): Promise<Buffer> {
    const range = this.doc.bufferedPageRange();
    const total = range.count;
    for (let i = range.start; i < range.start + total; i++) {
      this.doc.switchToPage(i);
      const group = [...this.groups].reverse().find((g) => g.first <= i);
      const next = group ? this.groups[this.groups.indexOf(group) + 1] : undefined;
      const last = next ? next.first - 1 : range.start + total - 1;
      const own = group ? `${group.label} · лист ${i - group.first + 1} из ${last - group.first + 1} · ` : '';
      const footer = `${own}страница ${i - range.start + 1} из ${total}`;
      const bottom = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      this.doc.font('regular').fontSize(7).fillColor(GREY);
      this.doc.text(footer, this.left, this.doc.page.height - MARGIN - 8, { width: this.width, align: 'right', lineBreak: false });
      this.doc.page.margins.bottom = bottom;
    }
    this.doc.fillColor('black');
    this.doc.end();
    return this.done;
  }

  private split(shares: number[]): number[] {
    const sum = shares.reduce((a, b) => a + b, 0) || 1;
    return shares.map((s) => (this.width * s) / sum);
  }

  private boxHeight(spec: BoxSpec, width: number): number {
    const inner = width - 2 * PAD;
    this.doc.font(spec.bold ? 'bold' : 'regular').fontSize(TEXT);
    const lines = (spec.lines ?? 1) * this.doc.currentLineHeight(true);
    const value = isBlank(spec.value) ? 0 : this.doc.heightOfString(spec.value, { width: inner });
    const image = spec.image ? (spec.imageHeight ?? 40) + PAD : 0;
    this.doc.font('regular').fontSize(CAPTION);
    const caption = this.doc.heightOfString(spec.caption, { width: inner });
    return PAD + Math.max(lines, value + image) + PAD + caption + PAD;
  }

  private drawBox(spec: BoxSpec, x: number, y: number, w: number, h: number): void {
    const inner = w - 2 * PAD;
    this.doc.lineWidth(RULE).strokeColor('black').rect(x, y, w, h).stroke();
    let valueBottom = y + PAD;
    if (!isBlank(spec.value)) {
      this.doc.font(spec.bold ? 'bold' : 'regular').fontSize(TEXT).fillColor('black');
      this.doc.text(spec.value, x + PAD, y + PAD, { width: inner });
      valueBottom = this.doc.y;
    }
    if (spec.image) this.drawImage(spec.image, x + PAD, valueBottom + PAD, Math.min(inner, 200), spec.imageHeight ?? 40, 'left');
    this.doc.font('regular').fontSize(CAPTION).fillColor(GREY);
    const caption = this.doc.heightOfString(spec.caption, { width: inner });
    this.doc.text(spec.caption, x + PAD, y + h - PAD - caption, { width: inner });
    this.doc.fillColor('black').fontSize(TEXT);
  }

  private rowHeight(cells: (string | null | undefined)[], widths: number[], header: boolean): number {
    this.doc.font(header ? 'bold' : 'regular').fontSize(header ? 7.5 : 8.5);
    const heights = cells.map((c, i) => (isBlank(c) ? 0 : this.doc.heightOfString(c, { width: (widths[i] ?? 0) - 2 * PAD })));
    return Math.max(this.doc.currentLineHeight(true), ...heights) + 2 * PAD;
  }

  private drawRow(cells: (string | null | undefined)[], widths: number[], columns: Column[], height: number, header: boolean): void {
    const y = this.doc.y;
    let x = this.left;
    widths.forEach((w, i) => {
      if (header) this.doc.rect(x, y, w, height).fillAndStroke('#f0f0f0', 'black');
      else this.doc.lineWidth(RULE).rect(x, y, w, height).stroke();
      const cell = cells[i];
      if (!isBlank(cell)) {
        this.doc.font(header ? 'bold' : 'regular').fontSize(header ? 7.5 : 8.5).fillColor('black');
        this.doc.text(cell, x + PAD, y + PAD, { width: w - 2 * PAD, align: header ? 'left' : (columns[i]?.align ?? 'left') });
      }
      x += w;
    });
    this.doc.font('regular').fontSize(TEXT);
    this.doc.x = this.left;
    this.doc.y = y + height;
  }

  /** An image fitted into a frame; bytes pdfkit cannot read (not JPEG/PNG, broken) leave the frame empty. */
  private drawImage(image: Buffer | null, x: number, y: number, w: number, h: number, align: 'center' | 'left' = 'center'): void {
    if (!image) return;
    try {
      this.doc.image(image, x, y, { fit: [w, h], valign: 'center', ...(align === 'center' ? { align } : {}) });
    } catch {
      // An unreadable picture is left out; its caption still says what it was.
    }
  }
}
