/**
 * The statement of trips as a workbook (docs/statements.md): the sheet «Реестр рейсов» (one row per approved trip,
 * numbers as numbers, an autofilter on the header, a totals row of SUM formulas), «Итоги» (per day and per cargo,
 * each block closed by a SUM) and «На проверке» (the trips still under review). Written with the export's
 * streaming writer (server/exports/workbook.ts).
 */
import type { Writable } from 'node:stream';
import type { Statement, StatementGroup, StatementTrip } from '../../contract/statements.ts';
import { createWorkbookWriter, sumCell, type ExportCell, type SheetColumn } from '../exports/workbook.ts';
import { roundQuantity } from '../tasks/progress.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import { waybillNumberOf } from '../../contract/waybill.ts';

const MONEY = '#,##0.00';

export const STATEMENT_COLUMNS = [
  { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
  { header: '№ рейса', key: 'report', width: 9 },
  { header: 'Талон', key: 'ticket', width: 14 },
  { header: 'Машина', key: 'vehicle', width: 12 },
  { header: 'Водитель', key: 'driver', width: 24 },
  { header: 'Груз', key: 'cargo', width: 22 },
  { header: 'Погрузка', key: 'loading', width: 26 },
  { header: 'Выгрузка', key: 'unloading', width: 26 },
  { header: 'Ед.', key: 'unit', width: 6 },
  { header: 'Погружено', key: 'loaded', width: 11 },
  { header: 'Выгружено', key: 'unloaded', width: 11 },
  { header: 'Количество', key: 'quantity', width: 12 },
  { header: 'Цена, ₽', key: 'price', width: 11, numFmt: MONEY },
  { header: 'Сумма, ₽', key: 'amount', width: 13, numFmt: MONEY },
  { header: 'Получатель', key: 'receiver', width: 22 },
  { header: 'Подпись', key: 'signed', width: 11 },
  { header: 'Простой, мин', key: 'waiting', width: 11 },
  { header: '№ акта', key: 'invoice', width: 9 },
  { header: 'Простой к оплате, ч', key: 'waiting_hours', width: 12 },
  { header: 'Простой, ₽', key: 'waiting_amount', width: 12, numFmt: MONEY },
  { header: '№ ТН', key: 'waybill', width: 12 },
] as const satisfies readonly SheetColumn[];

const QUANTITY_COL = 'L';
const AMOUNT_COL = 'N';
const WAITING_HOURS_COL = 'S';
const WAITING_COL = 'T';

const signature = (t: StatementTrip) => (t.signed ? 'подписал' : t.refused ? 'отказался' : 'нет');

function tripCells(t: StatementTrip): ExportCell[] {
  return [
    new Date(`${t.date}T00:00:00Z`),
    t.report_id,
    t.ticket_number,
    t.vehicle,
    t.driver,
    t.cargo,
    t.loading_place,
    t.unloading_place,
    t.unit,
    t.loaded,
    t.unloaded,
    t.quantity,
    t.price,
    t.amount,
    t.receiver,
    signature(t),
    t.waiting_min,
    t.invoice?.number ?? null,
    t.waiting?.hours ?? null,
    t.waiting?.amount ?? null,
    waybillNumberOf(t.task_id, t.report_id),
  ];
}

const GROUP_COLUMNS: SheetColumn[] = [
  { header: 'Итог', key: 'key', width: 30 },
  { header: 'Рейсов', key: 'trips', width: 9 },
  { header: 'Количество', key: 'quantity', width: 12 },
  { header: 'Сумма, ₽', key: 'amount', width: 14, numFmt: MONEY },
];

export async function writeStatementWorkbook(stream: Writable, statement: Statement): Promise<void> {
  const book = createWorkbookWriter(stream);
  const trips = book.sheet('Реестр рейсов', STATEMENT_COLUMNS, { autoFilter: true });
  for (const t of statement.trips) await trips.addRow(tripCells(t));
  const last = statement.trips.length + 1;
  const totalsRow: ExportCell[] = STATEMENT_COLUMNS.map(() => null);
  totalsRow[5] = 'Итого';
  totalsRow[1] = statement.total.trips;
  totalsRow[11] = statement.trips.length ? sumCell(`SUM(${QUANTITY_COL}2:${QUANTITY_COL}${last})`, statement.total.quantity) : 0;
  totalsRow[13] = statement.trips.length ? sumCell(`SUM(${AMOUNT_COL}2:${AMOUNT_COL}${last})`, statement.total.carriage) : 0;
  totalsRow[18] = statement.trips.length ? sumCell(`SUM(${WAITING_HOURS_COL}2:${WAITING_HOURS_COL}${last})`, statement.total.waiting_hours) : 0;
  totalsRow[19] = statement.trips.length ? sumCell(`SUM(${WAITING_COL}2:${WAITING_COL}${last})`, statement.total.waiting) : 0;
  await trips.addRow(totalsRow);
  // What the act bills: the carriage and the waiting together.
  const allRow: ExportCell[] = STATEMENT_COLUMNS.map(() => null);
  allRow[5] = 'Всего с простоем';
  allRow[13] = sumCell(`${AMOUNT_COL}${last + 1}+${WAITING_COL}${last + 1}`, statement.total.amount);
  await trips.addRow(allRow);
  await trips.finish();

  const sums = book.sheet('Итоги', GROUP_COLUMNS);
  let row = 1;
  const block = async (title: string, groups: readonly StatementGroup[], label: (g: StatementGroup) => string) => {
    await sums.addRow([title, null, null, null]);
    row += 1;
    const first = row + 1;
    for (const g of groups) {
      await sums.addRow([label(g), g.trips, g.quantity, g.amount]);
      row += 1;
    }
    const kop = groups.reduce((s, g) => s + toKop(g.amount), 0);
    const quantity = roundQuantity(groups.reduce((s, g) => s + g.quantity, 0));
    const trips = groups.reduce((s, g) => s + g.trips, 0);
    const range = (col: string) => `${col}${first}:${col}${row}`;
    await sums.addRow(groups.length ? ['Итого', sumCell(`SUM(${range('B')})`, trips), sumCell(`SUM(${range('C')})`, quantity), sumCell(`SUM(${range('D')})`, fromKop(kop))] : ['Итого', 0, 0, 0]);
    await sums.addRow([null, null, null, null]);
    row += 2;
  };
  await block('По дням', statement.by_day, (g) => g.key.split('-').reverse().join('.'));
  await block('По грузам', statement.by_cargo, (g) => g.key);
  await sums.finish();

  const review = book.sheet('На проверке', STATEMENT_COLUMNS);
  for (const t of statement.under_review) await review.addRow(tripCells(t));
  await review.finish();
  await book.finish();
}
