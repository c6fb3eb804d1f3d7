/**
 * The month's payroll sheet («Ведомость», xlsx): a row per driver (trips, tonnage, pay for loads, adjustments,
 * to pay) with a totals row of SUM formulas, then every load (an approved report, with its trips) on its own sheet,
 * then the adjustments — the same figures as /payroll shows, streamed while the client reads. «Рейсов» is trips on
 * every sheet (a report may cover several), so the two sheets' totals agree. A closed month's loads are its stored
 * lines, read in pages as the sheet is written; an open month's are priced once for both sheets.
 */
import type { Writable } from 'node:stream';
import { monthLabel, type PayrollMonth, type WageItem } from '../../contract/money.ts';
import { inMonthLabel } from '../../contract/words.ts';
import { createWorkbookWriter, sumCell, type WorkbookWriter } from '../exports/workbook.ts';

/** A load as the sheet lists it. */
export type SheetLoad = WageItem & { driver_name: string };

const money = '#,##0.00';
const date = (iso: string): Date => new Date(`${iso}T00:00:00Z`);
const SOURCE: Record<string, string> = { transport_rate: 'ставка водителя', progressive: 'шкала' };

export function payrollFileName(month: PayrollMonth): string {
  return `Ведомость ${month.company_name}, ${monthLabel(month.month)}.xlsx`;
}

/** `open`: the workbook writer (the server's own; a test compares it with the exceljs one it replaced). */
export async function writePayrollSheet(
  stream: Writable,
  month: PayrollMonth,
  items: AsyncIterable<SheetLoad> | Iterable<SheetLoad>,
  open: (stream: Writable) => WorkbookWriter = createWorkbookWriter,
): Promise<void> {
  const book = open(stream);
  const summary = book.sheet(
    'Ведомость',
    [
      { header: '№', key: 'n', width: 5 },
      { header: 'Водитель', key: 'driver', width: 28 },
      { header: 'Рейсов', key: 'trips', width: 9 },
      { header: 'Доставлено, т', key: 'quantity', width: 14 },
      { header: 'За рейсы, ₽', key: 'loads_amount', width: 14, numFmt: money },
      { header: 'Корректировки, ₽', key: 'adjustments', width: 16, numFmt: money },
      { header: 'К выплате, ₽', key: 'total', width: 14, numFmt: money },
    ],
    { autoFilter: true },
  );
  let n = 0;
  for (const d of month.drivers) {
    n += 1;
    await summary.addRow([n, d.driver_name, d.trips, d.quantity, d.loads_amount, d.adjustments_amount, d.total_amount]);
  }
  const last = n + 1;
  const sum = (col: string, result: number) => sumCell(`SUM(${col}2:${col}${last})`, n === 0 ? 0 : result);
  const trips = month.trips;
  await summary.addRow([
    null,
    `Итого за ${monthLabel(month.month)}${month.status === 'closed' ? ' (месяц закрыт)' : ' (месяц открыт)'}`,
    sum('C', trips),
    sum('D', month.total_quantity),
    sum('E', month.loads_amount),
    sum('F', month.adjustments_amount),
    sum('G', month.total_amount),
  ]);
  await summary.finish();

  const loads = book.sheet(
    'Рейсы',
    [
      { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
      { header: 'Водитель', key: 'driver', width: 26 },
      { header: '№ задачи', key: 'task', width: 10 },
      { header: '№ отчёта', key: 'report', width: 10 },
      { header: 'Груз', key: 'cargo', width: 26 },
      { header: 'Талон', key: 'ticket', width: 14 },
      { header: 'Рейсов', key: 'trips', width: 8 },
      { header: 'Доставлено', key: 'quantity', width: 12 },
      { header: 'Ставка, ₽', key: 'rate', width: 11, numFmt: money },
      { header: 'Откуда ставка', key: 'source', width: 16 },
      { header: 'Объём месяца', key: 'volume', width: 13 },
      { header: 'Сумма, ₽', key: 'amount', width: 13, numFmt: money },
    ],
    { autoFilter: true },
  );
  for await (const i of items) {
    await loads.addRow([date(i.date), i.driver_name, i.task_id, i.report_id, i.cargo, i.ticket_number, i.trips, i.quantity, i.rate, i.rate_source ? SOURCE[i.rate_source] ?? null : 'нет ставки', i.month_volume, i.amount]);
  }
  const loadRows = month.loads + 1;
  const loadSum = (col: string, result: number) => sumCell(`SUM(${col}2:${col}${loadRows})`, month.loads ? result : 0);
  await loads.addRow([null, 'Итого', null, null, null, null, loadSum('G', trips), loadSum('H', month.total_quantity), null, null, null, loadSum('L', month.loads_amount)]);
  await loads.finish();

  const adjustments = book.sheet('Корректировки', [
    { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
    { header: 'Водитель', key: 'driver', width: 26 },
    { header: 'Сумма, ₽', key: 'amount', width: 13, numFmt: money },
    { header: 'Причина', key: 'reason', width: 40 },
    { header: '№ отчёта', key: 'report', width: 10 },
    { header: 'Кто', key: 'who', width: 22 },
  ]);
  for (const a of month.adjustments) await adjustments.addRow([date(a.date), a.driver_name, a.amount, a.reason, a.report_id, a.created_by_name]);
  for (const a of month.later_adjustments) await adjustments.addRow([date(a.date), a.driver_name, a.amount, `(${inMonthLabel(a.date.slice(0, 7))}) ${a.reason}`, a.report_id, a.created_by_name]);
  await adjustments.finish();
  await book.finish();
}
