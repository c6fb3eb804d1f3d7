import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { closeAndWait } from '../fixtures/payroll-close.ts';
import { confirmedOf, type PayrollMonth } from '../../contract/money.ts';
import type { Page, Task } from '../../contract/entities.ts';
import type { ExportJob, TableLink, TableRows } from '../../contract/exports.ts';
import { claim, claimNext, failInterrupted, INTERRUPTED, runJob, STALE_MS, sweepExpired } from '../../server/exports/jobs.ts';
import { signTableToken } from '../../server/exports/table.ts';
import { createWorkbookWriter, ROWS_PER_TURN } from '../../server/exports/workbook.ts';
import { PassThrough } from 'node:stream';
import { DiskStorage } from '../../server/files/storage.ts';
import { waitFor } from '../e2e/harness/wait.ts';
import { makeCounterparty, makePlace } from '../fixtures/registers.ts';

describe.each(backends)('exports and /table ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;

  serveSuite(databaseUrl, (s) => {
    server = s;
  });
  beforeEach(async () => {
    p = await makePeople(server);
  });

  const call = (method: 'GET' | 'POST', url: string, user?: SignedInUser, payload?: object) =>
    server.app.inject({ method, url: `/api${url}`, headers: user?.auth ?? {}, ...(payload ? { payload } : {}) });

  async function finished(id: number, user: SignedInUser): Promise<ExportJob> {
    return waitFor(async () => {
      const job = (await call('GET', `/tasks/completed/export/${id}`, user)).json() as ExportJob;
      return job.status === 'done' || job.status === 'failed' ? job : null;
    }, { message: `export ${id} finishes` });
  }

  async function seedTasks() {
    const a = await createTask(server, p.company, { status: 'completed', date: '2026-11-02', cargo: 'Щебень 20–40' });
    const b = await createTask(server, p.company, { status: 'completed', date: '2026-11-01', cargo: 'Песок' });
    const first = await addDriver(server, a, p.driver.id, { quantity: 22.5, status: 'completed' });
    await addDriver(server, a, p.driver2.id, { quantity: 10, status: 'completed' });
    // The first driver's two trips: ticket numbers and review states reach the export.
    const at = new Date().toISOString();
    const trip = (ticket: string, quantity: number, review: 'approved' | 'pending') => ({ association_id: first, driver_id: p.driver.id, quantity, total_loading_quantity: null, total_unloading_quantity: null, loading_is_buyer: 0, unloading_is_buyer: 0, idempotency_key: null, completed_at: at, created_at: at, updated_at: at, ticket_number: ticket, review_status: review });
    await server.db.kysely.insertInto('reports').values([trip('Т-1', 12.5, 'approved'), trip('Т-2', 10, 'pending')]).execute();
    await createTask(server, p.otherCompany, { status: 'completed', date: '2026-11-03', cargo: 'Чужой груз' });
    return { a, b };
  }

  it('writes one row per association with numbers as numbers, money from the approved loads, a totals row and the period in the file name', async () => {
    const { a, b } = await seedTasks();
    const started = await call('POST', '/tasks/completed/export', p.manager, { status: 'completed', date_from: '2026-11-01', date_to: '2026-11-30' });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'queued', rows_written: 0 });
    const job = await finished(started.json().id, p.manager);
    expect(job).toMatchObject({ status: 'done', rows_written: 3, rows_total: 3, error: null });
    // Russian, as the template and the payroll sheet are named (issue 30 item 20), with a transliterated fallback.
    expect(job.filename).toBe('Задачи, 01.11.2026–30.11.2026.xlsx');

    const file = await call('GET', `/tasks/completed/export/${job.id}/download`, p.manager);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Zadachi, 01.11.2026-30.11.2026.xlsx"; filename*=UTF-8''${encodeURIComponent('Задачи, 01.11.2026–30.11.2026.xlsx')}`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('№ задачи');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const rows = [2, 3, 4].map((n) => sheet.getRow(n));
    const column = (header: string) => (sheet.getRow(1).values as unknown[]).indexOf(header);
    expect(rows.map((r) => r.getCell(1).value)).toEqual([a, a, b]);
    expect(rows[0]!.getCell(2).value).toEqual(new Date('2026-11-02T00:00:00Z'));
    expect(rows.map((r) => r.getCell(column('Количество')).value)).toEqual([22.5, 10, null]);
    expect(typeof rows[0]!.getCell(column('№ назначения')).value).toBe('number');
    // Money: the approved 12,5 т at the driver's 350 ₽ against the task's 350 ₽ price; the pending 10 т not yet.
    expect(['Цена задачи, ₽', 'Ставка водителя, ₽', 'Откуда ставка', 'Принято, т', 'Водителю, ₽', 'Выручка, ₽', 'Маржа, ₽'].map((h) => rows[0]!.getCell(column(h)).value)).toEqual([350, 350, 'ставка водителя', 12.5, 4375, 4375, 0]);
    expect(rows[0]!.getCell(column('Госномер')).value).toBe(null);
    const total = sheet.getRow(5);
    expect(total.getCell(column('Груз')).value).toBe('Итого');
    expect(total.getCell(column('Количество')).value).toMatchObject({ formula: expect.stringMatching(/^SUM\([A-Z]+2:[A-Z]+4\)$/), result: 32.5 });
    expect(total.getCell(column('Водителю, ₽')).value).toMatchObject({ result: 4375 });
    expect(rows[0]!.getCell(column('Рейсов')).value).toBe(2);
    expect(rows[0]!.getCell(column('Доставлено')).value).toBe(22.5);
    expect(rows[0]!.getCell(column('Номер талона')).value).toBe('Т-1, Т-2');
    expect(rows[0]!.getCell(column('Проверка')).value).toBe('подтверждено 1, ждёт проверки 1');
    expect(rows[1]!.getCell(column('Проверка')).value).toBe('—');
    const list = (await call('GET', '/tasks/completed/?date_from=2026-11-01&date_to=2026-11-30', p.manager)).json() as Page<Task>;
    expect([...new Set(rows.map((r) => r.getCell(1).value))]).toEqual(list.items.map((t) => t.id));
  });

  it('a closed month’s money is read as its close stored it: the same figures as before the close, the rate marked as closed', async () => {
    for (const [min, max, rate] of [[0, 100, 450], [100, null, 480]] as const) {
      await server.db.kysely.insertInto('progressive_rates').values({ company_id: p.company, min_quantity: min, max_quantity: max, rate, created_at: new Date().toISOString() }).execute();
    }
    // October: one assignment at the driver's own rate, one on the scale (60,25 + 45,5 т: the 480 ₽ band), one with nothing approved.
    const own = await addDriver(server, await createTask(server, p.company, { status: 'completed', date: '2026-10-05', cargo: 'Щебень', rate: 612.5 }), p.driver.id, { transport_rate: 401.3, status: 'completed' });
    const task = await createTask(server, p.company, { status: 'completed', date: '2026-10-06', cargo: 'Песок', rate: 533.33 });
    const scale = await addDriver(server, task, p.driver2.id, { transport_rate: null, status: 'completed' });
    await addDriver(server, task, p.driver.id, { status: 'completed' });
    for (const [association, quantities] of [[own, [20.125, 19.875, 7.333]], [scale, [60.25, 45.5]]] as const) {
      for (const q of quantities) await addLoad(server, association, q, { review: 'approved' });
    }
    const MONEY = ['№ назначения', 'Ставка водителя, ₽', 'Откуда ставка', 'Принято, т', 'Водителю, ₽', 'Выручка, ₽', 'Маржа, ₽'];
    const exported = async (): Promise<unknown[][]> => {
      const started = await call('POST', '/tasks/completed/export', p.manager, { status: 'all', date_from: '2026-10-01', date_to: '2026-10-31' });
      const job = await finished(started.json().id, p.manager);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load((await call('GET', `/tasks/completed/export/${job.id}/download`, p.manager)).rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0]!;
      const header = sheet.getRow(1).values as unknown[];
      return Array.from({ length: job.rows_written }, (_, i) => MONEY.map((h) => sheet.getRow(i + 2).getCell(header.indexOf(h)).value));
    };
    const open = await exported();
    expect(open.find((r) => r[0] === own)).toEqual([own, 401.3, 'ставка водителя', 47.333, 18994.73, 28991.46, 9996.73]);
    expect(open.find((r) => r[0] === scale)?.slice(1, 4)).toEqual([480, 'по шкале при 105,75 т за месяц', 105.75]);
    const seen = (await call('GET', '/payroll/?month=2026-10', p.admin)).json() as PayrollMonth;
    expect((await closeAndWait(server.app, p.admin.auth, { month: '2026-10', confirmed: confirmedOf(seen) })).statusCode).toBe(200);
    const closed = await exported();
    // A row with loads paid says its month is closed; the assignment with none shows its own rate as before.
    expect(closed).toEqual(open.map((r) => (typeof r[3] === 'number' && r[3] > 0 ? [...r.slice(0, 2), `${String(r[2])}, месяц закрыт`, ...r.slice(3)] : r)));
    expect(closed.filter((r) => String(r[2]).endsWith(', месяц закрыт'))).toHaveLength(2);
  });

  it('answers 204 before the file exists, 404 to another company, and checks roles and input', async () => {
    const early = await server.db.kysely.insertInto('export_jobs').values({ user_id: p.manager.id, company_id: p.company, status: 'queued', params: '{}', created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    // Taken by a runner and still writing: no file yet.
    await server.db.kysely.updateTable('export_jobs').set({ status: 'running' }).where('id', '=', early.id).execute();
    expect((await call('GET', `/tasks/completed/export/${early.id}/download`, p.manager)).statusCode).toBe(204);
    expect((await call('GET', `/tasks/completed/export/${early.id}`, p.admin)).statusCode).toBe(200);
    expect((await call('GET', `/tasks/completed/export/${early.id}`, p.superAdmin)).statusCode).toBe(200);
    expect((await call('GET', `/tasks/completed/export/${early.id}`, p.otherManager)).statusCode).toBe(404);
    expect((await call('GET', `/tasks/completed/export/${early.id}/download`, p.otherManager)).statusCode).toBe(404);
    expect((await call('POST', `/tasks/completed/export/${early.id}/table-link`, p.manager)).statusCode).toBe(409);
    expect((await call('POST', '/tasks/completed/export', p.driver, {})).statusCode).toBe(403);
    expect((await call('POST', '/tasks/completed/export', undefined, {})).statusCode).toBe(401);
    expect((await call('GET', `/tasks/completed/export/${early.id}`)).statusCode).toBe(401);
    const bad = await call('POST', '/tasks/completed/export', p.manager, { date_from: '2026-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/^date_from/);
    const unknown = await call('POST', '/tasks/completed/export', p.manager, { limit: 5 });
    expect(unknown.statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/export/abc', p.manager)).statusCode).toBe(400);
    expect((await call('GET', '/tasks/completed/export/999999', p.manager)).statusCode).toBe(404);
  });

  it('a job is claimed once; a running job whose process stopped beating ends failed with a Russian reason', async () => {
    const row = await server.db.kysely.insertInto('export_jobs').values({ user_id: p.manager.id, company_id: p.company, status: 'queued', params: '{}', created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    const claims = await Promise.all([claim(server.db, row.id), claim(server.db, row.id), claim(server.db, row.id)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimNext(server.db)).toBeNull();
    // Just claimed, so alive (another instance's job): left running.
    await failInterrupted(server.db);
    expect((await call('GET', `/tasks/completed/export/${row.id}`, p.manager)).json()).toMatchObject({ status: 'running' });
    // A minute without a heartbeat: its process died.
    expect(await failInterrupted(server.db, Date.now() + STALE_MS + 1_000)).toBeGreaterThanOrEqual(1);
    const job = (await call('GET', `/tasks/completed/export/${row.id}`, p.manager)).json() as ExportJob;
    expect(job).toMatchObject({ status: 'failed', error: INTERRUPTED });
  });

  it('carries the customer’s name and ИНН and the places’ addresses where the task links them, in the file and in /table', async () => {
    // A 12-digit ИНН with a leading zero: an identifier, kept as text.
    const customer = await makeCounterparty(server, p.company, { name: 'ИП Гранитов', inn: '012345678901', roles: ['customer'] });
    const from = await makePlace(server, p.company, { name: 'Карьер «Экспорт»', address: 'Московская обл., г. Люберцы, ул. Карьерная, 1' });
    const to = await makePlace(server, p.company, { name: 'Объект «Экспорт»', address: null });
    const linked = await createTask(server, p.company, { status: 'completed', date: '2026-10-05', cargo: 'Связанный', loading_place: 'Карьер «Экспорт»', unloading_place: 'Объект «Экспорт»' });
    await server.db.kysely.updateTable('tasks').set({ customer_id: customer, loading_place_id: from, unloading_place_id: to }).where('id', '=', linked).execute();
    await addDriver(server, linked, p.driver.id, { quantity: 5, status: 'completed' });
    await createTask(server, p.company, { status: 'completed', date: '2026-10-04', cargo: 'Без ссылок' });

    const started = (await call('POST', '/tasks/completed/export', p.manager, { date_from: '2026-10-01', date_to: '2026-10-31' })).json() as ExportJob;
    const job = await finished(started.id, p.manager);
    expect(job.status).toBe('done');
    const file = await call('GET', `/tasks/completed/export/${job.id}/download`, p.manager);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers = sheet.getRow(1).values as unknown[];
    const wanted = ['Груз', 'Место погрузки', 'Адрес погрузки', 'Место выгрузки', 'Адрес выгрузки', 'Заказчик', 'ИНН заказчика'];
    const read = (n: number) => wanted.map((h) => sheet.getRow(n).getCell(headers.indexOf(h)).value);
    const rows = [read(2), read(3)].sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(rows).toEqual([
      ['Без ссылок', 'Карьер «Лесной»', null, 'ЖК «Северный парк», корп. 3', null, null, null],
      ['Связанный', 'Карьер «Экспорт»', 'Московская обл., г. Люберцы, ул. Карьерная, 1', 'Объект «Экспорт»', null, 'ИП Гранитов', '012345678901'],
    ]);

    const { url } = (await call('POST', `/tasks/completed/export/${job.id}/table-link`, p.manager)).json() as TableLink;
    const token = new URL(url, 'http://x').searchParams.get('token') as string;
    const page = (await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(token)}`)).json() as TableRows;
    const row = page.rows.find((r) => r[page.columns.indexOf('Груз')] === 'Связанный');
    expect(['Заказчик', 'ИНН заказчика', 'Адрес погрузки'].map((h) => row?.[page.columns.indexOf(h)])).toEqual(['ИП Гранитов', '012345678901', 'Московская обл., г. Люберцы, ул. Карьерная, 1']);
  });

  it('opens a done export in /table with a signed link that opens only that file, until it expires', async () => {
    await seedTasks();
    const started = (await call('POST', '/tasks/completed/export', p.manager, {})).json() as ExportJob;
    const job = await finished(started.id, p.manager);
    const link = await call('POST', `/tasks/completed/export/${job.id}/table-link`, p.manager);
    expect(link.statusCode).toBe(200);
    const { url } = link.json() as TableLink;
    const params = new URL(url, 'http://x').searchParams;
    const token = params.get('token') as string;
    const rows = await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(token)}&limit=2`);
    expect(rows.statusCode).toBe(200);
    const page = rows.json() as TableRows;
    // Three rows; the totals row apart, pinned below them.
    expect(page).toMatchObject({ total: 3, offset: 0 });
    expect(page.columns[0]).toBe('№ задачи');
    expect(page.rows).toHaveLength(2);
    expect(page.rows[0]?.[1]).toBe('02.11.2026');
    expect(page.footer?.[page.columns.indexOf('Груз')]).toBe('Итого');
    expect(page.footer?.[page.columns.indexOf('Количество')]).toBe(32.5);
    // Sorted by a column on the server, every page agrees: by date ascending, then by quantity descending (empty last).
    const sorted = async (column: string, desc: 0 | 1) =>
      ((await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(token)}&sort=${page.columns.indexOf(column)}&desc=${desc}`)).json() as TableRows).rows;
    expect((await sorted('Дата', 0)).map((r) => r[1])).toEqual(['01.11.2026', '02.11.2026', '02.11.2026']);
    expect((await sorted('Количество', 1)).map((r) => r[page.columns.indexOf('Количество')])).toEqual([22.5, 10, null]);
    expect((await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(token)}&sort=99`)).json().detail).toMatch(/^sort:/);

    const otherJob = (await call('POST', '/tasks/completed/export', p.manager, {})).json() as ExportJob;
    await finished(otherJob.id, p.manager);
    const wrongFile = await call('GET', `/table/rows?file_id=${otherJob.id}&token=${encodeURIComponent(token)}`);
    expect(wrongFile.statusCode).toBe(403);
    const expired = await signTableToken(server.config.jwtSecret, job.id, -10);
    const old = await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(expired.token)}`);
    expect(old.statusCode).toBe(403);
    expect(old.json().detail).toMatch(/устарела/);
    const forged = await call('GET', `/table/rows?file_id=${job.id}&token=${encodeURIComponent(`${token.slice(0, -4)}AAAA`)}`);
    expect(forged.statusCode).toBe(403);
    expect((await call('GET', `/table/rows?file_id=${job.id}`)).statusCode).toBe(400);
    const config = await call('GET', `/onlyoffice/config?file_id=${job.id}&token=${encodeURIComponent(token)}`);
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({ server_url: null, config: { documentType: 'cell', document: { fileType: 'xlsx' }, editorConfig: { mode: 'view' } } });
    const file = await call('GET', `/table/file?file_id=${job.id}&token=${encodeURIComponent(token)}`);
    expect(file.statusCode).toBe(200);
    expect((await call('POST', `/tasks/completed/export/${job.id}/table-link`, p.otherManager)).statusCode).toBe(404);
  });

  it('deletes exports older than the retention period with their files', async () => {
    const started = (await call('POST', '/tasks/completed/export', p.manager, {})).json() as ExportJob;
    await finished(started.id, p.manager);
    const removed = await sweepExpired(server.db, new DiskStorage(join(server.config.dataDir, 'files')), 7, Date.now() + 8 * 24 * 3600 * 1000);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await call('GET', `/tasks/completed/export/${started.id}`, p.manager)).statusCode).toBe(404);
  });

  it('removes files a killed process left half-written once they are old, never a finished file or a fresh one', async () => {
    const storage = new DiskStorage(join(server.config.dataDir, 'files'));
    const kept = await storage.put('photos', new Uint8Array([1, 2, 3]), '.jpg');
    const abandoned = await storage.createStream('exports', '.xlsx');
    abandoned.stream.write('half a workbook');
    await new Promise((resolve) => abandoned.stream.end(resolve));
    const unfinished = join(server.config.dataDir, 'files', `${abandoned.key}.tmp`);
    expect(existsSync(unfinished)).toBe(true);
    // Still being written, as far as anyone can tell (touched just now): left alone.
    expect(await storage.sweepUnfinished(60_000)).toBe(0);
    expect(await storage.sweepUnfinished(60_000, Date.now() + 120_000)).toBe(1);
    expect(existsSync(unfinished)).toBe(false);
    expect(await storage.size(kept)).toBe(3);
  });

  it('an export stopped by a shutdown ends failed with its reason and leaves no file, finished or not', async () => {
    const row = await server.db.kysely.insertInto('export_jobs').values({ user_id: p.manager.id, company_id: p.company, status: 'queued', params: JSON.stringify({ user: { id: p.manager.id, role: 'manager', company_id: p.company } }), created_at: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow();
    expect(await claim(server.db, row.id)).toBe(true);
    const exportsDir = join(server.config.dataDir, 'files', 'exports');
    const before = existsSync(exportsDir) ? readdirSync(exportsDir) : [];
    const stop = new AbortController();
    stop.abort();
    await runJob(server.db, new DiskStorage(join(server.config.dataDir, 'files')), row.id, stop.signal);
    const job = (await call('GET', `/tasks/completed/export/${row.id}`, p.manager)).json() as ExportJob;
    expect(job).toMatchObject({ status: 'failed', error: INTERRUPTED });
    expect(existsSync(exportsDir) ? readdirSync(exportsDir) : []).toEqual(before);
  });
});

describe('a streamed sheet', () => {
  it('lets the event loop turn every few hundred rows: a month of lines is not one long turn', async () => {
    const out = new PassThrough();
    out.resume();
    const book = createWorkbookWriter(out);
    const sheet = book.sheet('Рейсы', [{ header: '№', key: 'n', width: 5 }]);
    let written = 0;
    let writtenWhenAnotherRan = -1;
    setImmediate(() => (writtenWhenAnotherRan = written));
    for (let i = 0; i < 4 * ROWS_PER_TURN; i++) {
      await sheet.addRow([i]);
      written += 1;
    }
    await sheet.finish();
    await book.finish();
    expect(writtenWhenAnotherRan).toBeGreaterThan(0);
    expect(writtenWhenAnotherRan).toBeLessThanOrEqual(ROWS_PER_TURN);
  });
});
