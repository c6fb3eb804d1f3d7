/**
 * Writes the completed-tasks export: one row per driver association (a task without drivers: one row), with the
 * server's streaming xlsx writer (./xlsx.ts) — rows are written as they come and the file stream's backpressure is
 * awaited, so memory stays flat whatever the size. The other streamed sheets (payroll, wages, statements) use the
 * same writer through createWorkbookWriter.
 */
import type { Writable } from 'node:stream';
import { createXlsx, type XlsxCell, type XlsxColumn, type XlsxSheet, type XlsxWorkbook } from './xlsx.ts';
import type { Task } from '../../contract/entities.ts';

const TASK_STATUS: Record<string, string> = { open: 'Открыта', in_progress: 'В работе', completed: 'Выполнена', cancelled: 'Отменена' };
const DRIVER_STATUS: Record<string, string> = { accepted: 'Принята', in_progress: 'В рейсе', completed: 'Выполнена', cancelled: 'Отменена' };

const MONEY = '#,##0.00';

/**
 * The completed-tasks export's columns: numbers are numbers (ids too: a bookkeeper filters and sorts by them), money
 * in a money format, and the driver's pay, revenue and margin from the one rate rule on the approved loads
 * (server/wages/pay.ts). `sum`: the totals row adds the column up with a SUM formula.
 */
export const EXPORT_COLUMNS = [
  { header: '№ задачи', key: 'task_id', width: 10 },
  { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
  { header: 'Груз', key: 'cargo', width: 28 },
  { header: 'Место погрузки', key: 'loading_place', width: 30 },
  // The registers (docs/registers.md): a place's address and the customer, where the task links them; else empty.
  { header: 'Адрес погрузки', key: 'loading_address', width: 36 },
  { header: 'Место выгрузки', key: 'unloading_place', width: 30 },
  { header: 'Адрес выгрузки', key: 'unloading_address', width: 36 },
  { header: 'Заказчик', key: 'customer', width: 28 },
  // Text, not a number: an ИНН is an identifier (a leading zero of a 12-digit one stays).
  { header: 'ИНН заказчика', key: 'customer_inn', width: 14 },
  { header: 'План', key: 'planned_quantity', width: 10 },
  { header: 'Ед.', key: 'unit', width: 6 },
  { header: 'Цена задачи, ₽', key: 'rate', width: 12, numFmt: MONEY },
  { header: 'Статус задачи', key: 'status', width: 14 },
  { header: '№ назначения', key: 'association_id', width: 12 },
  { header: 'Водитель', key: 'driver_name', width: 24 },
  { header: 'Госномер', key: 'vehicle', width: 12 },
  { header: 'Статус водителя', key: 'driver_status', width: 15 },
  { header: 'Количество', key: 'quantity', width: 12, sum: true },
  { header: 'Погружено', key: 'loading_quantity', width: 11 },
  { header: 'Выгружено', key: 'unloading_quantity', width: 11 },
  { header: 'Ставка водителя, ₽', key: 'transport_rate', width: 12, numFmt: MONEY },
  { header: 'Откуда ставка', key: 'rate_source', width: 22 },
  { header: 'Отчётов', key: 'report_count', width: 9, sum: true },
  { header: 'Перевезено по отчётам', key: 'reported_quantity', width: 14, sum: true },
  { header: 'Доля', key: 'share', width: 9 },
  { header: 'Рейсов', key: 'trips', width: 8, sum: true },
  { header: 'Доставлено', key: 'delivered', width: 12, sum: true },
  { header: 'Принято, т', key: 'approved', width: 11, sum: true },
  { header: 'Водителю, ₽', key: 'pay', width: 13, numFmt: MONEY, sum: true },
  { header: 'Выручка, ₽', key: 'revenue', width: 13, numFmt: MONEY, sum: true },
  { header: 'Маржа, ₽', key: 'margin', width: 13, numFmt: MONEY, sum: true },
  { header: 'Номер талона', key: 'tickets', width: 24 },
  { header: 'Проверка', key: 'review', width: 30 },
  { header: 'Комментарий', key: 'comment', width: 40 },
] as const satisfies readonly (SheetColumn & { sum?: true })[];

/** An association's money in the export: its approved loads priced by the one rule (server/wages/pay.ts). */
export interface AssociationMoney {
  approved: number;
  rate: number | null;
  /** «ставка водителя», «по шкале при 103,1 т за месяц» (contract/words.ts). */
  source: string | null;
  pay: number;
  revenue: number;
  margin: number;
}

export type ExportCell = XlsxCell;

/**
 * A totals cell: its formula with the result cached, so a reader that does not recalculate shows it. A zero total
 * is written as the number: exceljs reads a formula's cached 0 back as no result at all (its cell model keeps only
 * truthy results), and an empty column's total is 0 either way.
 */
export function sumCell(formula: string, result: number): ExportCell {
  return result === 0 ? 0 : { formula, result };
}

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Russian letters in Latin, for a file name's ASCII fallback (as a passport spells them). */
const LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'i', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o', п: 'p',
  р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: 'ie', ы: 'y', ь: '', э: 'e', ю: 'iu', я: 'ia',
};

function transliterate(text: string): string {
  return Array.from(text, (char) => {
    const lower = char.toLowerCase();
    const latin = LATIN[lower];
    if (latin === undefined) return char;
    return char === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
  }).join('');
}

/**
 * The one rule for every file the server hands out (the task export, the template, the payroll and wage sheets):
 * its name in Russian, as the user reads it (RFC 6266 `filename*`), and its transliteration as the ASCII
 * `filename` for clients that read only that.
 */
export function contentDisposition(filename: string): string {
  const ascii = transliterate(filename).replace(/[–—]/g, '-').replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A period in a file name: «01.11.2026–30.11.2026», «с 01.11.2026», «по 30.11.2026», «всё время». */
export function filePeriod(from: string | undefined, to: string | undefined): string {
  const d = (iso: string) => iso.split('-').reverse().join('.');
  if (from && to) return `${d(from)}–${d(to)}`;
  if (from) return `с ${d(from)}`;
  if (to) return `по ${d(to)}`;
  return 'всё время';
}

/** What an association's reports say beyond the task: their ticket numbers and where their review stands. */
export interface ReviewSummary {
  tickets: string[];
  approved: number;
  pending: number;
  disputed: number;
}

/** «подтверждено 3, ждёт проверки 1, оспорено 1», only the non-zero parts; «—» without reports. */
export function reviewText(r: ReviewSummary | undefined): string {
  if (!r) return '—';
  const parts = [r.approved ? `подтверждено ${r.approved}` : '', r.pending ? `ждёт проверки ${r.pending}` : '', r.disputed ? `оспорено ${r.disputed}` : ''].filter(Boolean);
  return parts.length ? parts.join(', ') : '—';
}

/** What the export adds to a task beyond the task itself: reviews, money, vehicles, per association / driver. */
export interface ExportExtras {
  reviews?: ReadonlyMap<number, ReviewSummary>;
  money?: ReadonlyMap<number, AssociationMoney>;
  /** The driver's current vehicle plate. */
  vehicles?: ReadonlyMap<number, string>;
}

/** The rows of one task, as cells in EXPORT_COLUMNS order. */
export function rowsOfTask(task: Task, extras: ExportExtras = {}): ExportCell[][] {
  const { reviews = new Map(), money = new Map(), vehicles = new Map() } = extras;
  const base: ExportCell[] = [
    task.id,
    new Date(`${task.date}T00:00:00Z`),
    task.cargo,
    task.loading_place,
    task.loading?.address ?? null,
    task.unloading_place,
    task.unloading?.address ?? null,
    task.customer?.name ?? null,
    task.customer?.inn ?? null,
    task.planned_quantity,
    task.unit,
    task.rate,
    TASK_STATUS[task.status] ?? task.status,
  ];
  const associations = task.driver_associations;
  const blank = EXPORT_COLUMNS.length - base.length - 1;
  if (associations.length === 0) return [[...base, ...Array<ExportCell>(blank).fill(null), task.comment]];
  return associations.map((a) => {
    const m = money.get(a.id);
    return [
      ...base,
      a.id,
      a.driver_name,
      vehicles.get(a.driver_id) ?? null,
      DRIVER_STATUS[a.status] ?? a.status,
      a.quantity,
      a.loading_quantity,
      a.unloading_quantity,
      m?.rate ?? a.transport_rate,
      m?.source ?? (a.transport_rate !== null ? 'ставка водителя' : null),
      a.report_count,
      a.reported_quantity,
      a.share,
      a.trips,
      a.delivered,
      m?.approved ?? 0,
      m?.pay ?? 0,
      m?.revenue ?? 0,
      m?.margin ?? 0,
      reviews.get(a.id)?.tickets.join(', ') || null,
      reviewText(reviews.get(a.id)),
      task.comment,
    ];
  });
}

export interface ExportWriter {
  add(task: Task, extras?: ExportExtras): Promise<number>;
  finish(): Promise<void>;
}

export { ROWS_PER_TURN } from './xlsx.ts';

export interface SheetColumn extends XlsxColumn {
  key: string;
}

/** One streamed sheet: a bold frozen header, rows written as they come, the stream's backpressure awaited. */
export type SheetWriter = XlsxSheet;

/** A streamed workbook of several sheets written one after another (a sheet is finished before the next starts). */
export interface WorkbookWriter extends XlsxWorkbook {
  sheet(sheetName: string, columns: readonly SheetColumn[], options?: { autoFilter?: boolean }): SheetWriter;
}

/** The server's streamed workbooks: our own writer (./xlsx.ts), which ends `stream` when finished. */
export function createWorkbookWriter(stream: Writable): WorkbookWriter {
  return createXlsx(stream);
}

export function createSheetWriter(stream: Writable, sheetName: string, columns: readonly SheetColumn[]): SheetWriter {
  const workbook = createWorkbookWriter(stream);
  const sheet = workbook.sheet(sheetName, columns);
  return {
    addRow: (cells) => sheet.addRow(cells),
    async finish() {
      await sheet.finish();
      await workbook.finish();
    },
  };
}

/** The export's one sheet: an autofilter on the header and, at the end, a totals row of SUM formulas. */
export function createExportWriter(stream: Writable, sheetName: string): ExportWriter {
  const book = createWorkbookWriter(stream);
  const sheet = book.sheet(sheetName, EXPORT_COLUMNS, { autoFilter: true });
  let rows = 0;
  // Each summed column's total as the rows pass, so the formula carries its result (readers without Excel see it).
  const totals = EXPORT_COLUMNS.map(() => 0);
  return {
    async add(task, extras) {
      const cells = rowsOfTask(task, extras);
      for (const row of cells) {
        row.forEach((cell, i) => {
          if (typeof cell === 'number') totals[i] = (totals[i] ?? 0) + cell;
        });
        await sheet.addRow(row);
      }
      rows += cells.length;
      return cells.length;
    },
    async finish() {
      if (rows > 0) {
        const letter = (index: number) => (index < 26 ? String.fromCharCode(65 + index) : `A${String.fromCharCode(65 + index - 26)}`);
        await sheet.addRow(
          EXPORT_COLUMNS.map((c, i): ExportCell => {
            if (c.key === 'cargo') return 'Итого';
            return 'sum' in c ? sumCell(`SUM(${letter(i)}2:${letter(i)}${rows + 1})`, Math.round((totals[i] ?? 0) * 1000) / 1000) : null;
          }),
        );
      }
      await sheet.finish();
      await book.finish();
    },
  };
}
