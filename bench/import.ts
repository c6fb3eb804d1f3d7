/**
 * «Импорт задач из Excel» (server/tasks/import-xlsx.ts): the preview of a 1 000-row file — the guards, exceljs,
 * every row through the task form's schema and the driver match — against exceljs's plain `workbook.xlsx.load` of
 * the same buffer; and how fast the guards refuse a file of 100 000 rows (against exceljs loading it) and a zip bomb.
 * No server and no browser: the parser is pure.
 */
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { ImportFileError, parseTaskImport, summarizeImport } from '../server/tasks/import-xlsx.ts';
import { seededRandom } from '../tests/fixtures/random.ts';
import { figure, median, round, type Benchmark, type SectionResult } from './support.ts';

const ROWS = 1000;
const RUNS = 15;
const BIG_ROWS = 100_000;
const HEADERS = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём', 'единица', 'ставка', 'водители', 'комментарий'];
const DRIVERS = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, name: `Водитель ${String(i + 1).padStart(2, '0')} Иванович`, phone: `+7 900 000-${String(1000 + i)}` }));

/** A file as a dispatcher would fill it: date cells and text dates, decimal commas, drivers by name and phone. */
async function sampleFile(rows: number, columns = HEADERS.length): Promise<Buffer> {
  const random = seededRandom(7);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Задачи');
  sheet.addRow(HEADERS.slice(0, columns));
  for (let i = 0; i < rows; i++) {
    const day = 1 + (i % 28);
    const driver = DRIVERS[i % DRIVERS.length] as (typeof DRIVERS)[number];
    sheet.addRow(
      [
        i % 2 === 0 ? new Date(Date.UTC(2026, 10, day)) : `${String(day).padStart(2, '0')}.11.2026`,
        `Щебень ${(i % 5) * 10}-${(i % 5) * 10 + 20}`,
        `Карьер ${i % 7}`,
        `Объект ${i % 40}`,
        i % 3 === 0 ? `${1 + Math.round(random() * 4000) / 10}`.replace('.', ',') : 1 + Math.round(random() * 400),
        i % 4 === 0 ? 'м3' : 'т',
        i % 5 === 0 ? '' : 400 + (i % 9) * 10,
        i % 6 === 0 ? `${driver.name}; ${driver.phone}` : driver.name,
        i % 10 === 0 ? 'Въезд со двора, позвонить за час' : '',
      ].slice(0, columns),
    );
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A zip with one entry of `megabytes` zeros (deflated as a stream) next to the parts of a workbook. */
async function zipBomb(megabytes: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const mb = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(mb)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await ended;
  const text = (s: string) => ({ data: deflateRawSync(Buffer.from(s)), size: Buffer.byteLength(s) });
  const entries = [
    { name: '[Content_Types].xml', ...text('<Types/>') },
    { name: 'xl/workbook.xml', ...text('<workbook><sheets><sheet name="a" sheetId="1" r:id="rId1"/></sheets></workbook>') },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.concat(chunks), size: megabytes * 1024 * 1024 },
  ];
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(e.data.length, 20);
    dir.writeUInt32LE(e.size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, e.data);
    central.push(dir, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

async function refused(file: Buffer): Promise<number> {
  return timed(async () => {
    const error = await parseTaskImport(file, { drivers: DRIVERS }).then(
      () => null,
      (e: unknown) => e,
    );
    if (!(error instanceof ImportFileError)) throw new Error(`expected a refusal, got ${String(error)}`);
  });
}

export const importXlsx: Benchmark = {
  id: 'import',
  title: `Task import from Excel: the preview of ${ROWS} rows against exceljs's plain load; the guards' refusals`,
  async run(): Promise<SectionResult> {
    const file = await sampleFile(ROWS);
    const load = async () => {
      await new ExcelJS.Workbook().xlsx.load(file as unknown as ExcelJS.Buffer);
    };
    let summary = { ok: 0, bad: 0 };
    const parse = async () => {
      summary = summarizeImport(await parseTaskImport(file, { drivers: DRIVERS }));
    };
    // Warm both paths (module loads, JIT) before measuring; then alternate, so a busy moment hits both.
    await load();
    await parse();
    if (summary.ok !== ROWS) throw new Error(`expected ${ROWS} valid rows, got ${JSON.stringify(summary)}`);
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await timed(parse));
      base.push(await timed(load));
    }

    const big = await sampleFile(BIG_ROWS, 5);
    const bigRefused = median([await refused(big), await refused(big), await refused(big)]);
    const bigLoad = await timed(async () => {
      await new ExcelJS.Workbook().xlsx.load(big as unknown as ExcelJS.Buffer);
    });
    const bomb = await zipBomb(200);
    const bombRefused = median([await refused(bomb), await refused(bomb), await refused(bomb)]);

    const oursMs = median(ours);
    return {
      ours: 'parseTaskImport: zip guards, exceljs load, header match, every row through taskCreateSchema, drivers matched',
      baseline: "exceljs's `new Workbook().xlsx.load(buffer)` of the same file, nothing else",
      figures: [
        figure(`preview of ${ROWS} rows (median of ${RUNS})`, 'ms', round(oursMs, 0), round(median(base), 0), {
          goal: '1 000 rows preview < 2 s',
          met: oursMs < 2000,
          note: `${round(file.length / 1024, 0)} kB file`,
        }),
        figure(`refuse ${BIG_ROWS} rows (median of 3)`, 'ms', round(bigRefused, 0), round(bigLoad, 0), {
          note: `${round(big.length / 1024 / 1024, 1)} MB file; baseline: exceljs loading it`,
        }),
        figure('refuse a zip bomb of 200 MB (median of 3)', 'ms', round(bombRefused, 1), null, { note: `${round(bomb.length / 1024, 0)} kB file` }),
      ],
      details: { ours, base },
    };
  },
};
