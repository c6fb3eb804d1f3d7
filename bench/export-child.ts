/**
 * One export in a process of its own, so its memory is measured alone: `stream` runs the server's export job
 * (exceljs's streaming WorkbookWriter), `workbook` writes the same rows with exceljs's in-memory Workbook.
 * Prints one JSON line: rows, milliseconds, RSS at start and at its peak (sampled every 10 ms).
 */
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { openDb } from '../server/db/connect.ts';
import { DiskStorage } from '../server/files/storage.ts';
import { claim, createJob, runJob } from '../server/exports/jobs.ts';
import { EXPORT_COLUMNS, rowsOfTask } from '../server/exports/workbook.ts';
import { loadTasks } from '../server/tasks/load.ts';
import { staffTaskQuery } from '../server/tasks/queries.ts';
import type { AuthUser } from '../server/auth/guard.ts';

const [file, mode, userJson, outDir] = process.argv.slice(2) as [string, 'stream' | 'workbook', string, string];
const user = JSON.parse(userJson) as AuthUser;
const db = await openDb({ sqliteFile: file });
global.gc?.();
const startRss = process.memoryUsage().rss;
let peakRss = startRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 10);

const started = performance.now();
let rows = 0;
if (mode === 'stream') {
  const job = await createJob(db, user, { status: 'all' });
  await claim(db, job.id);
  await runJob(db, new DiskStorage(outDir), job.id, new AbortController().signal);
  const done = await db.kysely.selectFrom('export_jobs').select(['rows_written', 'status']).where('id', '=', job.id).executeTakeFirstOrThrow();
  if (done.status !== 'done') throw new Error(`export ended ${done.status}`);
  rows = Number(done.rows_written);
} else {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Задачи', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  const ids = (await staffTaskQuery(db, user, { status: 'all' }).select('t.id').orderBy('t.date', 'desc').orderBy('t.id', 'desc').execute()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    for (const task of await loadTasks(db.kysely, ids.slice(i, i + 500))) {
      for (const cells of rowsOfTask(task)) {
        sheet.addRow(cells);
        rows += 1;
      }
    }
  }
  await workbook.xlsx.writeFile(join(outDir, 'baseline.xlsx'));
}
const ms = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await db.close();
process.stdout.write(`${JSON.stringify({ rows, ms, startRss, peakRss })}\n`);
