/**
 * The Excel import under load (issue 30 item 21; docs/task-entry.md «Нагрузка»): a file of a few MB holding a
 * great many numbers passed every guard and was read by exceljs on the request thread — the whole server stalled
 * for seconds and its memory grew by hundreds of MB per file. Now the cells and columns exceljs would build are
 * capped before it runs, the file is read in a worker thread that ends when idle, and only a few files are read at
 * once: one more is refused with 429 (the company's own) or 503 (the process's) and Retry-After.
 */
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { columnName, inlineCell, rawXlsx } from '../fixtures/xlsx.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { ImportThreads, IMPORT_RETRY_AFTER_SECONDS, COMPANY_BUSY, SERVER_BUSY } from '../../server/tasks/import-runner.ts';
import { IMPORT_MAX_COLUMNS } from '../../server/tasks/import-xlsx.ts';
import { preflight, type PreflightStats } from '../../server/tasks/xlsx-preflight.ts';
import type { ImportPreview } from '../../contract/calls/tasks.ts';

const HEAD = ['дата', 'груз', 'место погрузки', 'место выгрузки', 'объём'];

const text = inlineCell;
const num = (ref: string, value: number) => `<c r="${ref}"><v>${value}</v></c>`;
const letters = columnName;

/** A task row: the five required columns, then `extra` columns of numbers. */
function rowXml(r: number, extra: number): string {
  const cells = [text(`A${r}`, '25.11.2026'), text(`B${r}`, 'Песок'), text(`C${r}`, 'Карьер'), text(`D${r}`, 'Объект'), num(`E${r}`, 10 + (r % 50))];
  for (let c = 6; c <= 5 + extra; c++) cells.push(num(`${letters(c)}${r}`, r * c));
  return `<row r="${r}">${cells.join('')}</row>`;
}

/** The header and `rows` task rows with `extra` number columns beside them, as a sheet's rows. */
function sheetXml(rows: number, extra = 0): string {
  const header = `<row r="1">${HEAD.map((h, i) => text(`${letters(i + 1)}1`, h)).join('')}</row>`;
  return header + Array.from({ length: rows }, (_, i) => rowXml(i + 2, extra)).join('');
}

/** The .xlsx of those sheets, base64 for the API. */
const xlsx = async (...sheets: string[]): Promise<string> => (await rawXlsx(sheets)).toString('base64');

describe.each(backends)('the Excel import under load ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  // Two files at once per process (a 2-core machine's default is one), one per company.
  serveSuite(databaseUrl, (s) => void (server = s), { config: { importsPerProcess: 2, importsPerCompany: 1 }, listen: true });

  const manager = async (): Promise<SignedInUser> => withAccessToken(server, await makeUser(server, 'manager', await makeCompany(server)));
  const preview = (user: SignedInUser, file: string, more: { create_missing?: boolean } = {}) =>
    call<ImportPreview & { detail: string }>(server, 'POST', '/api/tasks/import/preview', { token: user.token, body: { file_name: 'заявки.xlsx', file, ...more } });

  it('the issue’s file — 1 998 rows of numbers far to the right of the task columns — is refused before exceljs, naming the widest column', async () => {
    const res = await preview(await manager(), await xlsx(sheetXml(1998, 55)));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(`на листе с задачами заполнены столбцы до BH (60), можно не больше ${IMPORT_MAX_COLUMNS}: удалите лишние столбцы — импорт читает только столбцы шаблона`);
  }, 60_000);

  it('cells past the cap are refused within the column cap, and on another sheet too', async () => {
    const user = await manager();
    const dense = await preview(user, await xlsx(sheetXml(1600, 20)));
    expect(dense.status).toBe(400);
    expect(dense.body.detail).toMatch(/^в файле больше 40\s000 ячеек: оставьте только лист с задачами и столбцы шаблона$/);
    const elsewhere = await preview(user, await xlsx(sheetXml(1), sheetXml(2000, 20)));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.detail).toMatch(/^в файле больше 40\s000 ячеек/);
    // Within the caps the same columns are read: 2 000 rows (their places new to the company: created with the tick).
    const fine = await preview(user, await xlsx(sheetXml(2000, 4)), { create_missing: true });
    expect(fine.status).toBe(200);
    expect(fine.body.ok).toBe(2000);
  }, 60_000);

  it('a company’s second file at once is refused with 429, the process’s third with 503, both with Retry-After; then they go through', async () => {
    const file = await xlsx(sheetXml(2000));
    const [a, b, c] = [await manager(), await manager(), await manager()];
    const same = await Promise.all([preview(a, file), preview(a, file)]);
    expect(same.map((r) => r.status).sort()).toEqual([200, 429]);
    const refused = same.find((r) => r.status === 429)!;
    expect(refused.body.detail).toBe(COMPANY_BUSY);
    expect(refused.headers['retry-after']).toBe(String(IMPORT_RETRY_AFTER_SECONDS));

    // Two files at once per process: a third company waits its turn.
    const three = await Promise.all([preview(a, file), preview(b, file), preview(c, file)]);
    expect(three.map((r) => r.status).sort()).toEqual([200, 200, 503]);
    const busy = three.find((r) => r.status === 503)!;
    expect(busy.body.detail).toBe(SERVER_BUSY);
    expect(busy.headers['retry-after']).toBe(String(IMPORT_RETRY_AFTER_SECONDS));

    // The slots were given back: one at a time, every file is read.
    for (const user of [a, b, c]) expect((await preview(user, file)).status).toBe(200);
  }, 60_000);

  /** A preview whose headers announce a 6 MB body that is never sent: the server must answer without it, or wait. */
  const withoutBody = (user: SignedInUser) => {
    const req = request(`${server.url}/api/tasks/import/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'content-length': String(6 * 1024 * 1024) },
    });
    const answered = new Promise<{ status: number; retryAfter: string | undefined; detail: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], detail: (JSON.parse(text) as { detail: string }).detail }));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    return { answered, abort: () => req.destroy() };
  };

  it('with no slot free a file is refused before a byte of its body is read; a client that went away gives its slot back', async () => {
    const [a, b, c] = [await manager(), await manager(), await manager()];
    // The company's one slot: of two such calls one waits for its body, the other is refused without it.
    const first = [withoutBody(a), withoutBody(a)];
    const refused = await Promise.race(first.map((p) => p.answered));
    expect(refused).toEqual({ status: 429, retryAfter: String(IMPORT_RETRY_AFTER_SECONDS), detail: COMPANY_BUSY });
    // The process's two slots: a's and one of b's and c's; the other is refused, again without its body.
    const more = [withoutBody(b), withoutBody(c)];
    const busy = await Promise.race(more.map((p) => p.answered));
    expect(busy).toEqual({ status: 503, retryAfter: String(IMPORT_RETRY_AFTER_SECONDS), detail: SERVER_BUSY });
    // A client sending its whole file while the slots are taken reads the refusal cleanly (no reset connection).
    const d = await manager();
    const full = await fetch(`${server.url}/api/tasks/import/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${d.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ file_name: 'заявки.xlsx', file: await xlsx(sheetXml(2000, 20)) }),
    });
    expect(full.status).toBe(503);
    expect(((await full.json()) as { detail: string }).detail).toBe(SERVER_BUSY);
    // The waiting clients go away without sending their bodies: their slots come back.
    for (const p of [...first, ...more]) p.abort();
    await vi.waitFor(async () => expect((await preview(a, await xlsx(sheetXml(3)))).status).toBe(200), { timeout: 10_000 });
    expect((await preview(b, await xlsx(sheetXml(3)))).status).toBe(200);
  }, 60_000);

  it('the body is parsed in the thread: not JSON, a `__proto__` key, a file not in base64 are 400s naming the problem', async () => {
    const user = await manager();
    const raw = (body: string) => call<{ detail: string }>(server, 'POST', '/api/tasks/import/preview', { token: user.token, body, headers: { 'content-type': 'application/json' } });
    expect((await raw('{"file_name": "a.xlsx", "file": ')).body.detail).toBe('Тело запроса — некорректный JSON');
    const poisoned = await raw('{"file_name": "a.xlsx", "file": "UEsDBA==", "__proto__": {"x": 1}}');
    expect(poisoned.status).toBe(400);
    expect(poisoned.body.detail).toBe('__proto__: неизвестное поле');
    const notBase64 = await preview(user, 'не base64!');
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.detail).toBe('file: файл передан повреждённым (ожидается base64)');
  });
});

describe('the guards stop inflating at the first cap passed', () => {
  it('a sheet of 200 columns stops within its first rows; one of too many cells near the cap — both named, far from the sheet’s end', async () => {
    const wide = await rawXlsx(sheetXml(1998, 195));
    const wideStats: PreflightStats = { inflatedBytes: 0 };
    await expect(preflight(wide, wideStats)).rejects.toThrow(`на листе с задачами заполнены столбцы до GR (200), можно не больше ${IMPORT_MAX_COLUMNS}`);
    const wideSheet = Buffer.byteLength(sheetXml(1998, 195));
    expect(wideSheet).toBeGreaterThan(8 * 1024 * 1024);
    // Something was inflated, and counted: one piece of the sheet (64 kB) and the small parts of the book, not its megabytes.
    expect(wideStats.inflatedBytes).toBeGreaterThan(0);
    expect(wideStats.inflatedBytes).toBeLessThan(200 * 1024);

    const dense = await rawXlsx(sheetXml(2000, 25));
    const denseStats: PreflightStats = { inflatedBytes: 0 };
    await expect(preflight(dense, denseStats)).rejects.toThrow(/^в файле больше 40\s000 ячеек/);
    // 40 000 cells are ~1 330 of the 2 000 rows: stopped there, within a piece, not at the sheet's end.
    const denseSheet = Buffer.byteLength(sheetXml(2000, 25));
    expect(denseStats.inflatedBytes).toBeLessThan(denseSheet * (1350 / 2000) + 200 * 1024);
    expect(denseStats.inflatedBytes).toBeLessThan(denseSheet);
  });
});

describe('the import’s worker thread', () => {
  it('reads the file off the main thread, answers a refusal from there too, and ends once idle', async () => {
    const threads = new ImportThreads({ heapMb: 256, timeoutMs: 60_000, idleMs: 50 });
    const file = Buffer.from(await xlsx(sheetXml(3)), 'base64');
    const run = await threads.read(file, []);
    expect(run.isMainThread).toBe(false);
    expect(run.threadId).toBeGreaterThan(0);
    expect(run.rows.map((r) => r.task?.cargo)).toEqual(['Песок', 'Песок', 'Песок']);
    // The caller keeps its bytes: the thread got a copy.
    expect(file.length).toBeGreaterThan(0);
    await expect(threads.read(Buffer.from('не Excel'), [])).rejects.toThrow(/Файл не похож на Excel/);
    await vi.waitFor(() => expect(threads.alive).toBe(0), { timeout: 5_000 });
  });

  it('a file that outgrows the thread’s heap is refused in Russian, and the thread is gone', async () => {
    // A heap ceiling far below what exceljs needs for 2 000 rows.
    const threads = new ImportThreads({ heapMb: 8, timeoutMs: 60_000, idleMs: 60_000 });
    const file = Buffer.from(await xlsx(sheetXml(2000, 4)), 'base64');
    await expect(threads.read(file, [])).rejects.toThrow(/Файл слишком сложный для импорта/);
    await vi.waitFor(() => expect(threads.alive).toBe(0), { timeout: 5_000 });
  });
});
