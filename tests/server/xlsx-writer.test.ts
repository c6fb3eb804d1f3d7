/**
 * The server's own streaming xlsx writer (server/exports/xlsx.ts, issue 35) against the exceljs writer it replaced
 * (tests/fixtures/exceljs-workbook.ts): the same payroll month written by both reads back the same — every cell's
 * value, number format and boldness, the totals' formulas and results, the column widths, the frozen header and the
 * autofilter — with exceljs's reader and with the streaming reader the /table screen uses. And it lets the event
 * loop turn while a month of lines is written.
 */
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import type { Adjustment, PayrollMonth } from '../../contract/money.ts';
import { writePayrollSheet, type SheetLoad } from '../../server/payroll/sheet.ts';
import { createWorkbookWriter, type WorkbookWriter } from '../../server/exports/workbook.ts';
import { columnLetter, ROWS_PER_TURN, xmlText } from '../../server/exports/xlsx.ts';
import { readSheet } from '../../server/exports/table.ts';
import type { FileStorage } from '../../server/files/storage.ts';
import { exceljsWorkbookWriter } from '../fixtures/exceljs-workbook.ts';

const drivers = ['Иван Петров', 'Пётр «Быстрый» Сидоров', ' Анна & Co <ИП> '];

function adjustment(id: number, driver: string, amount: number, reason: string, date = '2026-10-31'): Adjustment {
  return { id, company_id: 1, driver_id: id, driver_name: driver, date, amount, reason, report_id: id % 2 ? 100 + id : null, created_by: 1, created_by_name: 'Админ Админов', created_at: '2026-10-31T10:00:00Z' } as unknown as Adjustment;
}

/** A closed month of three drivers and `loads` loads, with the texts a writer must escape. */
function month(loads: number): { month: PayrollMonth; items: SheetLoad[] } {
  const items: SheetLoad[] = Array.from({ length: loads }, (_, i) => ({
    report_id: 1000 + i,
    association_id: 500 + (i % 3),
    task_id: 40 + (i % 7),
    date: `2026-10-${String(1 + (i % 31)).padStart(2, '0')}`,
    cargo: i % 5 === 0 ? 'Щебень 5–20 "гранит" <М1200>' : 'Песок',
    unit: 'т',
    trips: 1 + (i % 3 === 0 ? 2 : 0),
    ticket_number: i % 4 === 0 ? null : `МН${String(i).padStart(7, '0')}`,
    quantity: 20 + (i % 10) / 10,
    rate: i % 6 === 0 ? null : 450.5,
    rate_source: i % 6 === 0 ? null : i % 2 ? 'progressive' : 'transport_rate',
    month_volume: 1234.5,
    amount: i % 6 === 0 ? 0 : Math.round((20 + (i % 10) / 10) * 450.5 * 100) / 100,
    frozen: true,
    driver_name: drivers[i % 3] as string,
  }));
  const sum = (f: (l: SheetLoad) => number) => Math.round(items.reduce((s, l) => s + f(l), 0) * 100) / 100;
  const m = {
    company_id: 1,
    company_name: 'ООО «Рейс»',
    month: '2026-10',
    status: 'closed',
    closed_at: '2026-11-01T09:00:00Z',
    closed_by_name: 'Админ Админов',
    drivers: drivers.map((name, i) => {
      const own = items.filter((l) => l.driver_name === name);
      const loadsAmount = Math.round(own.reduce((s, l) => s + l.amount, 0) * 100) / 100;
      const adjustments = i === 1 ? -250.25 : 0;
      return { driver_id: i + 1, driver_name: name, loads: own.length, trips: own.reduce((s, l) => s + l.trips, 0), quantity: Math.round(own.reduce((s, l) => s + l.quantity, 0) * 1000) / 1000, loads_amount: loadsAmount, adjustments_amount: adjustments, total_amount: Math.round((loadsAmount + adjustments) * 100) / 100 };
    }),
    loads: items.length,
    trips: items.reduce((s, l) => s + l.trips, 0),
    adjustments: [adjustment(2, drivers[1] as string, -250.25, 'штраф за простой; «опоздание» > 2 ч')],
    later_adjustments: [adjustment(3, drivers[2] as string, 100, 'доплата', '2026-11-05')],
    pending: { loads: 0, quantity: 0, items: [] },
    total_quantity: Math.round(items.reduce((s, l) => s + l.quantity, 0) * 1000) / 1000,
    loads_amount: sum((l) => l.amount),
    adjustments_amount: -250.25,
    total_amount: Math.round((sum((l) => l.amount) - 250.25) * 100) / 100,
    history: [],
    ahead: null,
  } as unknown as PayrollMonth;
  return { month: m, items };
}

async function written(write: (stream: Writable) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await write(out);
  return Buffer.concat(chunks);
}

const payrollFile = (loads: number, open?: (stream: Writable) => WorkbookWriter) => {
  const { month: m, items } = month(loads);
  return written((out) => writePayrollSheet(out, m, items, open));
};

/** Everything a reader sees of a workbook: per sheet its layout, and per cell its value, format and boldness. */
async function seen(file: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(file as unknown as ArrayBuffer);
  return book.worksheets.map((sheet) => {
    const cells: unknown[] = [];
    sheet.eachRow({ includeEmpty: true }, (row, number) => {
      row.eachCell({ includeEmpty: false }, (cell) => {
        if (cell.value === null || cell.value === undefined) return;
        cells.push([cell.address, cell.value, cell.numFmt ?? null, cell.font?.bold === true]);
      });
      if (number === 1) cells.push(['row 1 bold', row.font?.bold === true]);
    });
    return {
      name: sheet.name,
      rows: sheet.rowCount,
      widths: sheet.columns.map((c) => c.width),
      views: sheet.views.map((v) => [v.state, (v as { ySplit?: number }).ySplit]),
      autoFilter: sheet.autoFilter ?? null,
      cells,
    };
  });
}

describe('the streamed xlsx writer', () => {
  it('writes a payroll month that reads back exactly as the exceljs writer’s: values, formats, bold header, totals, widths, frozen header, filter', async () => {
    const ours = await payrollFile(300);
    const theirs = await payrollFile(300, exceljsWorkbookWriter);
    const [a, b] = [await seen(ours), await seen(theirs)];
    expect(a.map((s) => s.name)).toEqual(['Ведомость', 'Рейсы', 'Корректировки']);
    // The one difference: exceljs leaves out a column width of 9 (its default), the summary's «Рейсов»; ours
    // writes the width the column declares.
    expect(a[0]?.widths[2]).toBe(9);
    expect(b[0]?.widths[2]).toBeUndefined();
    (b[0] as (typeof b)[number]).widths[2] = 9;
    expect(a).toEqual(b);

    // What the comparison covers, said outright: a money cell, a date, a totals formula with its result, text kept.
    const { month: m } = month(300);
    const loads = a[1] as (typeof a)[number];
    expect(loads.rows).toBe(302);
    expect(loads.cells).toContainEqual(['A2', new Date('2026-10-01T00:00:00Z'), 'dd.mm.yyyy', false]);
    expect(loads.cells).toContainEqual(['L302', { formula: 'SUM(L2:L301)', result: m.loads_amount }, '#,##0.00', false]);
    expect(loads.cells).toContainEqual(['E2', 'Щебень 5–20 "гранит" <М1200>', null, false]);
    expect(loads.cells).toContainEqual(['I1', 'Ставка, ₽', '#,##0.00', true]);
    const summary = a[0] as (typeof a)[number];
    expect(summary.cells).toContainEqual(['B4', ' Анна & Co <ИП> ', null, false]);
    expect(summary.cells).toContainEqual(['G5', { formula: 'SUM(G2:G4)', result: m.total_amount }, '#,##0.00', false]);
    expect(summary.views).toEqual([['frozen', 1]]);
    expect(summary.autoFilter).toBe('A1:G1');
  });

  it('reads back the same through the streaming reader of /table', async () => {
    const storage = (file: Buffer) => ({ read: () => PassThrough.from([file]) }) as unknown as FileStorage;
    const [ours, theirs] = [await payrollFile(300), await payrollFile(300, exceljsWorkbookWriter)];
    const sheet = await readSheet(storage(ours), 'k');
    expect(sheet).toEqual(await readSheet(storage(theirs), 'k'));
    expect(sheet.sheet).toBe('Ведомость');
    expect(sheet.rows).toHaveLength(3);
    expect(sheet.footer).not.toBeNull();
  });

  it('is a zip of well-formed parts: the sheet names, styles and relations Excel and LibreOffice look for', async () => {
    const parts = unzipSync(new Uint8Array(await payrollFile(10)));
    expect(Object.keys(parts).sort()).toEqual(
      ['[Content_Types].xml', '_rels/.rels', 'docProps/core.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml', 'xl/worksheets/sheet3.xml'].sort(),
    );
    const workbook = strFromU8(parts['xl/workbook.xml'] as Uint8Array);
    expect(workbook).toContain('<sheet name="Ведомость" sheetId="1" r:id="rId1"/>');
    const styles = strFromU8(parts['xl/styles.xml'] as Uint8Array);
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="dd.mm.yyyy"/>');
  });

  it('lets the event loop turn every few hundred rows while a month of lines is written', async () => {
    const out = new PassThrough();
    out.resume();
    const book = createWorkbookWriter(out);
    // Small rows: zlib's own backpressure alone would let the loop turn only every few chunks.
    const sheet = book.sheet('Рейсы', [{ header: '№', key: 'n', width: 5 }]);
    let written = 0;
    const seenBetween: number[] = [];
    const tick = () => {
      seenBetween.push(written);
      if (written < 10 * ROWS_PER_TURN) setImmediate(tick);
    };
    setImmediate(tick);
    for (let i = 0; i < 10 * ROWS_PER_TURN; i++) {
      await sheet.addRow([i]);
      written += 1;
    }
    await sheet.finish();
    await book.finish();
    // Another task ran at least once in every ROWS_PER_TURN rows: no stretch of the writing is one long turn.
    const gaps = seenBetween.slice(1).map((n, i) => n - (seenBetween[i] as number));
    expect(seenBetween.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(ROWS_PER_TURN);
  });

  it('escapes markup and drops the characters XML forbids (a control character would make the file unreadable)', () => {
    expect(xmlText('a\u0007<b>&"\tc\n')).toBe('a&lt;b&gt;&amp;&quot;\tc\n');
    expect(xmlText('Песок')).toBe('Песок');
  });

  it('names columns past Z as Excel does', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });
});
