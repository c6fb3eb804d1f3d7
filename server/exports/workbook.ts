/**
 * Writes the completed-tasks export: one row per driver association (a task without drivers: one row),
 * with exceljs's streaming WorkbookWriter — rows are committed one by one and the file stream's
 * backpressure is awaited, so memory stays flat whatever the size (exceljs's commit() alone does not wait).
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Task } from '../../contract/entities.ts';

const TASK_STATUS: Record<string, string> = { open: 'Открыта', in_progress: 'В работе', completed: 'Выполнена', cancelled: 'Отменена' };
const DRIVER_STATUS: Record<string, string> = { accepted: 'Принята', in_progress: 'В рейсе', completed: 'Выполнена', cancelled: 'Отменена' };

export const EXPORT_COLUMNS = [
  { header: '№ задачи', key: 'task_id', width: 11 },
  { header: 'Дата', key: 'date', width: 12 },
  { header: 'Груз', key: 'cargo', width: 28 },
  { header: 'Место погрузки', key: 'loading_place', width: 30 },
  { header: 'Место выгрузки', key: 'unloading_place', width: 30 },
  { header: 'План', key: 'planned_quantity', width: 10 },
  { header: 'Ед.', key: 'unit', width: 6 },
  { header: 'Ставка, ₽', key: 'rate', width: 11 },
  { header: 'Статус задачи', key: 'status', width: 14 },
  { header: '№ назначения', key: 'association_id', width: 13 },
  { header: 'Водитель', key: 'driver_name', width: 24 },
  { header: 'Статус водителя', key: 'driver_status', width: 15 },
  { header: 'Количество', key: 'quantity', width: 12 },
  { header: 'Погружено', key: 'loading_quantity', width: 11 },
  { header: 'Выгружено', key: 'unloading_quantity', width: 11 },
  { header: 'Ставка водителя, ₽', key: 'transport_rate', width: 12 },
  { header: 'Отчётов', key: 'report_count', width: 9 },
  { header: 'Перевезено по отчётам', key: 'reported_quantity', width: 14 },
  { header: 'Доля', key: 'share', width: 9 },
  { header: 'Рейсов', key: 'trips', width: 8 },
  { header: 'Доставлено', key: 'delivered', width: 12 },
  { header: 'Номер талона', key: 'tickets', width: 24 },
  { header: 'Проверка', key: 'review', width: 30 },
  { header: 'Комментарий', key: 'comment', width: 40 },
] as const;

/** A cell: a value, or a formula with the result it had when written (what a reader without Excel sees). */
export type ExportCell = string | number | Date | null | { formula: string; result?: number };

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An attachment header that keeps a Russian file name (RFC 6266 filename*), with an ASCII fallback. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
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

/** The rows of one task, as cells in EXPORT_COLUMNS order. Ids are text: a spreadsheet must not sum them. */
export function rowsOfTask(task: Task, reviews: ReadonlyMap<number, ReviewSummary> = new Map()): ExportCell[][] {
  const base: ExportCell[] = [
    String(task.id),
    new Date(`${task.date}T00:00:00Z`),
    task.cargo,
    task.loading_place,
    task.unloading_place,
    task.planned_quantity,
    task.unit,
    task.rate,
    TASK_STATUS[task.status] ?? task.status,
  ];
  const associations = task.driver_associations;
  if (associations.length === 0) return [[...base, null, null, null, null, null, null, null, null, null, null, null, null, null, null, task.comment]];
  return associations.map((a) => [
    ...base,
    String(a.id),
    a.driver_name,
    DRIVER_STATUS[a.status] ?? a.status,
    a.quantity,
    a.loading_quantity,
    a.unloading_quantity,
    a.transport_rate,
    a.report_count,
    a.reported_quantity,
    a.share,
    a.trips,
    a.delivered,
    reviews.get(a.id)?.tickets.join(', ') || null,
    reviewText(reviews.get(a.id)),
    task.comment,
  ]);
}

export interface ExportWriter {
  add(task: Task, reviews?: ReadonlyMap<number, ReviewSummary>): Promise<number>;
  finish(): Promise<void>;
}

function drained(stream: Writable): Promise<void> {
  return stream.writableNeedDrain ? new Promise((resolve) => stream.once('drain', () => resolve())) : Promise.resolve();
}

export interface SheetColumn {
  header: string;
  key: string;
  width: number;
  /** An Excel number format, e.g. 'dd.mm.yyyy' or '#,##0.00'. */
  numFmt?: string;
}

/** One streamed sheet: a bold frozen header, rows committed as they come, the stream's backpressure awaited. */
export interface SheetWriter {
  addRow(cells: readonly ExportCell[]): Promise<void>;
  finish(): Promise<void>;
}

/** A streamed workbook of several sheets written one after another (a sheet is committed before the next starts). */
export interface WorkbookWriter {
  sheet(sheetName: string, columns: readonly SheetColumn[], options?: { autoFilter?: boolean }): SheetWriter;
  finish(): Promise<void>;
}

export function createWorkbookWriter(stream: Writable): WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
  workbook.creator = 'Рейс';
  return {
    sheet(sheetName, columns, options = {}) {
      // Excel refuses sheet names over 31 characters or with []:*?/\ in them.
      const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
      sheet.getRow(1).font = { bold: true };
      for (const c of columns) if (c.numFmt) sheet.getColumn(c.key).numFmt = c.numFmt;
      if (options.autoFilter) sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
      sheet.getRow(1).commit();
      return {
        async addRow(cells) {
          sheet.addRow([...cells]).commit();
          await drained(stream);
        },
        async finish() {
          sheet.commit();
        },
      };
    },
    finish: () => workbook.commit(),
  };
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

export function createExportWriter(stream: Writable, sheetName: string): ExportWriter {
  const sheet = createSheetWriter(
    stream,
    sheetName,
    EXPORT_COLUMNS.map((c) => ({ ...c, ...(c.key === 'date' ? { numFmt: 'dd.mm.yyyy' } : {}) })),
  );
  return {
    async add(task, reviews) {
      const rows = rowsOfTask(task, reviews);
      for (const cells of rows) await sheet.addRow(cells);
      return rows.length;
    },
    finish: () => sheet.finish(),
  };
}
