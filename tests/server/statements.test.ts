/**
 * The statement of trips, the act and the invoice (issue 34 §2; docs/statements.md) on both databases: the
 * statement's trips, subtotals and totals to the kopeck, the trips under review apart; the workbook opened with
 * exceljs (numbers as numbers, SUM formulas, an autofilter, totals equal to the JSON); the PDFs read back with
 * `pdftotext` (totals, words, requisites); acts numbered per company per year without gaps, frozen once issued,
 * corrected by a new act, marked paid; refusals in Russian.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { makeCounterparty } from '../fixtures/registers.ts';
import { addHourlyLine, makeTrip, stampWaits } from '../fixtures/statements.ts';
import { waitingKop, type Invoice, type Statement } from '../../contract/statements.ts';
import { localToday } from '../../server/tasks/scope.ts';

let dir: string;
let count = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reis-statements-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PDF's text with its white space made single. */
export function pdfText(pdf: Buffer): string {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const file = join(dir, `${++count}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

/** «150 382,45 руб.» as the papers write money (Intl's no-break space made a plain one, as pdfText does). */
const rub = (n: number) => `${new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} руб.`.replace(/\s/g, ' ');

describe.each(backends)('the statement, the act and the invoice ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });
  beforeEach(async () => {
    p = await makePeople(s);
  });

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser, body?: unknown) =>
    s.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(body === undefined ? {} : { payload: body as object }) });
  const ok = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, user: SignedInUser, body?: unknown): Promise<T> => {
    const res = await send(method, url, user, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };

  /** A customer with its trips in November 2026: two days, two cargoes, one under review, one disputed. */
  async function seed() {
    const customer = await makeCounterparty(s, p.company, { name: 'ООО «Стройзаказ»', inn: '7707083893', kpp: '770701001' });
    const trip = (date: string, quantity: number, over: object = {}) => makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date, quantity, ...over });
    const a = await trip('2026-11-02', 12.345, { rate: 455.55, ticket: 'Т-101' });
    const b = await trip('2026-11-02', 20, { rate: 455.55, unloaded: 19.5, taskId: a.taskId, ticket: 'Т-102' });
    const c = await trip('2026-11-03', 8, { cargo: 'Песок', unit: 'м³', rate: 700, ticket: null });
    await trip('2026-11-03', 5, { rate: 455.55, review: 'pending' });
    await trip('2026-11-04', 7, { rate: 455.55, review: 'disputed' });
    // Outside the period, another customer, another company: never on this statement.
    await trip('2026-10-31', 10);
    await makeTrip(s, { companyId: p.company, customerId: await makeCounterparty(s, p.company), driverId: p.driver.id, date: '2026-11-02', quantity: 10 });
    return { customer, a, b, c };
  }

  it('lists the approved trips with their facts, subtotals per day and cargo, the total to the kopeck, and the trips under review apart', async () => {
    const { customer, a, b, c } = await seed();
    const st = await ok<Statement>('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(st.trips.map((t) => t.report_id)).toEqual([a.reportId, b.reportId, c.reportId]);
    // 12,345 × 455,55 = 5 623,76 (5 623,764…); 19,5 unloaded × 455,55 = 8 883,225 → 8 883,23; 8 × 700 = 5 600.
    expect(st.trips.map((t) => t.amount)).toEqual([5623.76, 8883.23, 5600]);
    expect(st.trips[1]).toMatchObject({ ticket_number: 'Т-102', driver: 'Иван Петров', loaded: 20, unloaded: 19.5, quantity: 19.5, price: 455.55, signed: false, invoice: null });
    expect(st.trips[2]).toMatchObject({ cargo: 'Песок', unit: 'м³', ticket_number: null });
    expect(st.by_day).toEqual([
      { key: '2026-11-02', trips: 2, quantity: 31.845, amount: 14506.99 },
      { key: '2026-11-03', trips: 1, quantity: 8, amount: 5600 },
    ]);
    expect(st.by_cargo.map((g) => g.key)).toEqual(['Щебень гранитный 5–20, т', 'Песок, м³']);
    // No hourly line in the customer's list: no waiting is billed.
    expect(st.total).toEqual({ trips: 3, quantity: 39.845, carriage: 20106.99, waiting: 0, waiting_hours: 0, amount: 20106.99 });
    expect(st.trips.every((t) => t.waiting === null)).toBe(true);
    expect(st.under_review.map((t) => t.review_status)).toEqual(['pending', 'disputed']);
    expect(st.unpriced).toBe(0);
  });

  it('says the trip’s waiting time from its timeline and whether the receiver signed or refused', async () => {
    const customer = await makeCounterparty(s, p.company);
    const signed = await makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date: '2026-11-05', quantity: 10 });
    const refused = await makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date: '2026-11-06', quantity: 10 });
    const db = s.db.kysely;
    const stamp = (report_id: number, step: 'loading_arrived' | 'loading_departed' | 'unloading_arrived' | 'unloading_departed', at: string) =>
      db.insertInto('trip_stamps').values({ report_id, step, at, received_at: at, lat: null, lon: null, accuracy: null, source: 'tap' }).execute();
    await stamp(signed.reportId, 'loading_arrived', '2026-11-05T07:00:00.000Z');
    await stamp(signed.reportId, 'loading_departed', '2026-11-05T07:25:00.000Z');
    await stamp(signed.reportId, 'unloading_arrived', '2026-11-05T08:30:00.000Z');
    await stamp(signed.reportId, 'unloading_departed', '2026-11-05T09:10:00.000Z');
    const accept = async (reportId: number, uid: string, kind: 'signed' | 'refused', receiver: string | null) => {
      await db.updateTable('reports').set({ trip_uid: uid }).where('id', '=', reportId).execute();
      const a = await db
        .insertInto('trip_acceptances')
        .values({ driver_id: p.driver.id, key: uid, scope: 'trip', kind, receiver_name: receiver, receiver_position: null, signature_key: null, strokes: null, refused_reason: kind === 'refused' ? 'Недовес' : null, at: '2026-11-05T09:05:00.000Z', lat: null, lon: null, accuracy: null, created_at: '2026-11-05T09:05:00.000Z' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('trip_acceptance_trips').values({ acceptance_id: a.id, trip_uid: uid }).execute();
    };
    await accept(signed.reportId, `trip-${signed.reportId}`, 'signed', 'Прорабов П. П.');
    await accept(refused.reportId, `trip-${refused.reportId}`, 'refused', null);
    const st = await ok<Statement>('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(st.trips.map((t) => [t.waiting_min, t.receiver, t.signed, t.refused])).toEqual([
      [65, 'Прорабов П. П.', true, false],
      [null, null, false, true],
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await send('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30&format=xlsx`, p.manager)).rawPayload as unknown as ArrayBuffer);
    const row = book.getWorksheet('Реестр рейсов')!.getRow(2);
    expect([row.getCell(15).value, row.getCell(16).value, row.getCell(17).value]).toEqual(['Прорабов П. П.', 'подписал', 65]);
    const text = pdfText((await send('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30&format=pdf`, p.manager)).rawPayload);
    expect(text).toContain('Прорабов П. П., подписал');
    expect(text).toContain('1 ч 05 мин');
    expect(text).toContain('отказался');
  });

  it('refuses another company’s customer (404), a counterparty that is no customer (400), a driver (403), a period upside down (400)', async () => {
    const { customer } = await seed();
    expect((await send('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.otherManager)).statusCode).toBe(404);
    const shipper = await makeCounterparty(s, p.company, { roles: ['shipper'] });
    const notCustomer = await send('GET', `/counterparties/${shipper}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(notCustomer.statusCode).toBe(400);
    expect(notCustomer.json().detail).toMatch(/не заказчик/);
    expect((await send('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.driver)).statusCode).toBe(403);
    const upside = await send('GET', `/counterparties/${customer}/statement?from=2026-11-30&to=2026-11-01`, p.manager);
    expect(upside.statusCode).toBe(400);
    expect(upside.json().detail).toMatch(/Период/);
  });

  it('writes the workbook with numbers as numbers, an autofilter and SUM formulas whose totals equal the JSON', async () => {
    const { customer } = await seed();
    const url = `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`;
    const st = await ok<Statement>('GET', url, p.manager);
    const file = await send('GET', `${url}&format=xlsx`, p.manager);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain('Реестр рейсов — ООО «Стройзаказ», 01.11.2026–30.11.2026.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Реестр рейсов')!;
    expect(sheet.autoFilter).toBeTruthy();
    const header = sheet.getRow(1).values as unknown[];
    const col = (name: string) => header.indexOf(name);
    expect(sheet.getRow(2).getCell(col('Количество')).value).toBe(12.345);
    expect(sheet.getRow(2).getCell(col('Сумма, ₽')).value).toBe(5623.76);
    expect(sheet.getRow(2).getCell(col('Дата')).value).toBeInstanceOf(Date);
    // Each trip names the waybill the customer holds (ТН № task-trip), beside its ticket.
    const first = st.trips[0]!;
    expect(sheet.getRow(2).getCell(col('№ ТН')).value).toBe(`${first.task_id}-${first.report_id}`);
    const totals = sheet.getRow(st.trips.length + 2);
    expect(totals.getCell(col('Груз')).value).toBe('Итого');
    expect(totals.getCell(col('Сумма, ₽')).value).toEqual({ formula: 'SUM(N2:N4)', result: st.total.amount });
    expect(totals.getCell(col('Количество')).value).toEqual({ formula: 'SUM(L2:L4)', result: st.total.quantity });
    // The rows' own sum is the total too (what Excel will recompute).
    const sum = [2, 3, 4].reduce((acc, n) => acc + Math.round(Number(sheet.getRow(n).getCell(col('Сумма, ₽')).value) * 100), 0);
    expect(sum / 100).toBe(st.total.amount);
    const sums = book.getWorksheet('Итоги')!;
    const byDayTotal = sums.getRow(2 + st.by_day.length + 1).getCell(4).value as { formula: string; result: number };
    expect(byDayTotal.result).toBe(st.total.amount);
    expect(book.getWorksheet('На проверке')!.rowCount).toBe(1 + st.under_review.length);
  });

  it('draws the statement as a PDF with its total in figures and words, the customer and the trips under review', async () => {
    const { customer } = await seed();
    const file = await send('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30&format=pdf`, p.manager);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const text = pdfText(file.rawPayload);
    expect(text).toContain('Реестр рейсов');
    expect(text).toContain('ООО «Стройзаказ», ИНН 7707083893');
    expect(text).toContain(`сумма ${rub(20106.99)}`);
    expect(text).toContain('Двадцать тысяч сто шесть рублей 99 копеек');
    expect(text).toContain('Т-101');
    const st = await ok<Statement>('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    for (const t of st.trips) expect(text).toContain(`ТН № ${t.task_id}-${t.report_id}`);
    expect(text).toContain('На проверке (не входят в итог): 2');
  });

  it('issues acts numbered per company per year without gaps, frozen once issued; a refusal takes no number', async () => {
    const { customer } = await seed();
    await s.db.kysely.updateTable('companies').set({ full_name: 'ООО «Перевозчик»', inn: '7736207543', kpp: '773601001', vat_rate: 20 }).where('id', '=', p.company).execute();
    const first = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    expect(first).toMatchObject({ number: 1, year: Number(localToday().slice(0, 4)), state: 'issued', total: 20106.99, vat: 3351.17, vat_rate: 20, trips: 3, age_days: 0, corrects_id: null });
    expect(first.lines).toEqual([
      { kind: 'carriage', free_minutes: null, cargo: 'Щебень гранитный 5–20', loading_place: 'Карьер «Лесной»', unloading_place: 'ЖК «Северный парк»', unit: 'т', trips: 2, quantity: 31.845, price: 455.55, amount: 14506.99 },
      { kind: 'carriage', free_minutes: null, cargo: 'Песок', loading_place: 'Карьер «Лесной»', unloading_place: 'ЖК «Северный парк»', unit: 'м³', trips: 1, quantity: 8, price: 700, amount: 5600 },
    ]);
    // The statement now names the act on each trip.
    const st = await ok<Statement>('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(st.trips.every((t) => t.invoice?.id === first.id)).toBe(true);
    // Nothing left to bill: 409, and no number is spent.
    const again = await send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/Нет принятых рейсов заказчика «ООО «Стройзаказ»»/);
    const other = await makeCounterparty(s, p.company);
    await makeTrip(s, { companyId: p.company, customerId: other, driverId: p.driver2.id, date: '2026-11-05', quantity: 10, rate: 100 });
    const second = await ok<Invoice>('POST', '/invoices/', p.admin, { counterparty_id: other, from: '2026-11-01', to: '2026-11-30' });
    expect(second.number).toBe(2);
    // Another company counts its own.
    const theirs = await makeCounterparty(s, p.otherCompany);
    await makeTrip(s, { companyId: p.otherCompany, customerId: theirs, driverId: p.otherDriver.id, date: '2026-11-05', quantity: 10, rate: 100 });
    expect((await ok<Invoice>('POST', '/invoices/', p.otherManager, { counterparty_id: theirs, from: '2026-11-01', to: '2026-11-30' })).number).toBe(1);
    // Frozen: a new price, a new quantity and a renamed customer do not move the issued act.
    await s.db.kysely.updateTable('tasks').set({ rate: 500 }).where('customer_id', '=', customer).execute();
    await s.db.kysely.updateTable('counterparties').set({ name: 'ООО «Новое имя»' }).where('id', '=', customer).execute();
    const read = await ok<Invoice>('GET', `/invoices/${first.id}`, p.manager);
    expect(read.total).toBe(20106.99);
    expect(read.lines).toEqual(first.lines);
    expect(read.buyer.name).toBe('ООО «Стройзаказ»');
    expect(read.seller).toMatchObject({ full_name: 'ООО «Перевозчик»', inn: '7736207543' });
  });

  it('numbers acts issued at once without gaps or repeats', async () => {
    const customers = await Promise.all(Array.from({ length: 6 }, () => makeCounterparty(s, p.company)));
    for (const customer of customers) await makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date: '2026-11-05', quantity: 1, rate: 100 });
    const issued = await Promise.all(customers.map((customer) => send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' })));
    expect(issued.map((r) => r.statusCode)).toEqual(customers.map(() => 201));
    expect(issued.map((r) => (r.json() as Invoice).number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    // The same customer twice at once: one act, the other refused; no number spent by the refusal.
    const customer = await makeCounterparty(s, p.company);
    await makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date: '2026-11-05', quantity: 1, rate: 100 });
    const twice = await Promise.all([1, 2].map(() => send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' })));
    expect(twice.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await ok<Invoice[]>('GET', '/invoices/', p.manager)).map((i) => i.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('corrects an act by a new one referring to it; the first is «corrected» and cannot be paid', async () => {
    const { customer } = await seed();
    const first = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    await s.db.kysely.updateTable('tasks').set({ rate: 500 }).where('customer_id', '=', customer).where('cargo', '=', 'Песок').execute();
    const narrower = await send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-02', to: '2026-11-30', corrects_id: first.id });
    expect(narrower.statusCode).toBe(400);
    expect(narrower.json().detail).toMatch(/охватывать период акта № 1/);
    const fix = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30', corrects_id: first.id });
    expect(fix).toMatchObject({ number: 2, corrects_id: first.id, total: 18506.99, trips: 3 });
    expect(await ok<Invoice>('GET', `/invoices/${first.id}`, p.manager)).toMatchObject({ state: 'corrected', corrected_by_id: fix.id, age_days: null, total: 20106.99 });
    const paidOld = await send('POST', `/invoices/${first.id}/paid`, p.manager, { date: localToday() });
    expect(paidOld.statusCode).toBe(409);
    const twice = await send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30', corrects_id: first.id });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().detail).toBe('Акт № 1 уже заменён исправленным');
    const act = pdfText((await send('GET', `/invoices/${fix.id}/act.pdf`, p.manager)).rawPayload);
    expect(act).toContain('Исправленный акт');
  });

  it('marks an act paid with a date, lists unpaid ones with their age, refuses a bad date in Russian', async () => {
    const { customer } = await seed();
    const first = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    // An older unpaid act: issued 10 days ago.
    const old = new Date(Date.now() - 10 * 86_400_000);
    const oldDay = localToday(old);
    const other = await makeCounterparty(s, p.company);
    await makeTrip(s, { companyId: p.company, customerId: other, driverId: p.driver.id, date: '2026-11-05', quantity: 1, rate: 100 });
    const second = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: other, from: '2026-11-01', to: '2026-11-30' });
    await s.db.kysely.updateTable('invoices').set({ issued_on: oldDay }).where('id', '=', second.id).execute();
    const unpaid = await ok<Invoice[]>('GET', '/invoices/?state=issued', p.manager);
    expect(unpaid.map((i) => [i.id, i.age_days])).toEqual([
      [first.id, 0],
      [second.id, 10],
    ]);
    expect((await ok<Invoice[]>('GET', `/invoices/?counterparty_id=${customer}`, p.manager)).map((i) => i.id)).toEqual([first.id]);
    expect(await ok<Invoice[]>('GET', '/invoices/', p.otherManager)).toEqual([]);
    expect((await send('GET', `/invoices/?counterparty_id=${customer}`, p.otherManager)).statusCode).toBe(404);

    const early = await send('POST', `/invoices/${second.id}/paid`, p.manager, { date: localToday(new Date(old.getTime() - 86_400_000)) });
    expect(early.statusCode).toBe(400);
    expect(early.json().detail).toMatch(/^Дата оплаты: раньше даты счёта/);
    const future = await send('POST', `/invoices/${second.id}/paid`, p.manager, { date: '2999-01-01' });
    expect(future.json().detail).toBe('Дата оплаты: в будущем');
    const paid = await ok<Invoice>('POST', `/invoices/${second.id}/paid`, p.manager, { date: oldDay });
    expect(paid).toMatchObject({ state: 'paid', paid_on: oldDay, age_days: null });
    expect((await send('POST', `/invoices/${second.id}/paid`, p.manager, { date: oldDay })).statusCode).toBe(409);
    expect((await ok<Invoice[]>('GET', '/invoices/?state=issued', p.manager)).map((i) => i.id)).toEqual([first.id]);
    expect((await send('POST', `/invoices/${second.id}/paid`, p.otherManager, { date: oldDay })).statusCode).toBe(404);
  });

  it('refuses an act while an approved trip has no price, naming its task', async () => {
    const customer = await makeCounterparty(s, p.company);
    const { taskId } = await makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date: '2026-11-05', quantity: 3, rate: null });
    const st = await ok<Statement>('GET', `/counterparties/${customer}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(st).toMatchObject({ unpriced: 1, total: { trips: 1, amount: 0 } });
    const res = await send('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`У рейсов без цены акт не выставить: укажите цену в задачах № ${taskId}`);
    expect(await ok<Invoice[]>('GET', '/invoices/', p.manager)).toEqual([]);
  });

  it('draws the act and the invoice with both parties’ requisites, the lines, VAT by the company’s setting and the total in words', async () => {
    const { customer } = await seed();
    const put = await send('PUT', `/companies/${p.company}`, p.admin, { name: `Перевозчик ${p.company}`, full_name: 'ООО «Перевозчик»', inn: '7736207543', kpp: '773601001', vat_rate: 20 });
    expect(put.statusCode).toBe(200);
    expect(put.json().vat_rate).toBe(20);
    const badVat = await send('PUT', `/companies/${p.company}`, p.admin, { name: `Перевозчик ${p.company}`, vat_rate: 18 });
    expect(badVat.statusCode).toBe(400);
    expect(badVat.json().detail).toMatch(/^Ставка НДС: ожидается одна из 0, 5, 7, 10, 20, 22 %/);
    const invoice = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-11-01', to: '2026-11-30' });
    const act = pdfText((await send('GET', `/invoices/${invoice.id}/act.pdf`, p.manager)).rawPayload);
    const bill = pdfText((await send('GET', `/invoices/${invoice.id}/invoice.pdf`, p.manager)).rawPayload);
    expect(act).toContain(`Акт оказанных услуг № 1 от ${localToday().split('-').reverse().join('.')}`);
    expect(bill).toContain('Счёт на оплату № 1');
    for (const text of [act, bill]) {
      expect(text).toContain('ООО «Перевозчик», ИНН 7736207543, КПП 773601001');
      expect(text).toContain('ООО «Стройзаказ», ИНН 7707083893, КПП 770701001');
      expect(text).toContain(`Итого: ${rub(20106.99)}`);
      expect(text).toContain(`В том числе НДС 20%: ${rub(3351.17)}`);
      expect(text).toContain('Двадцать тысяч сто шесть рублей 99 копеек');
      expect(text).toContain('Перевозка груза «Песок» по маршруту Карьер «Лесной» → ЖК «Северный парк» (рейсов: 1)');
    }
    // «Без НДС» once the company says so — for the next act; the issued one keeps its rate.
    await send('PUT', `/companies/${p.company}`, p.admin, { name: `Перевозчик ${p.company}`, vat_rate: null });
    const other = await makeCounterparty(s, p.company);
    await makeTrip(s, { companyId: p.company, customerId: other, driverId: p.driver.id, date: '2026-11-05', quantity: 1, rate: 150382 });
    const next = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: other, from: '2026-11-01', to: '2026-11-30' });
    const nextText = pdfText((await send('GET', `/invoices/${next.id}/invoice.pdf`, p.manager)).rawPayload);
    expect(nextText).toContain('Без НДС');
    expect(nextText).toContain('Сто пятьдесят тысяч триста восемьдесят два рубля 00 копеек');
    expect(pdfText((await send('GET', `/invoices/${invoice.id}/invoice.pdf`, p.manager)).rawPayload)).toContain('В том числе НДС 20%');
  });

  it('bills the waiting beyond the hourly line’s free period at loading and at unloading, by the minute, rounded half up per trip — on the statement, the workbook, the act and the invoice', async () => {
    const customer = await makeCounterparty(s, p.company, { name: 'ООО «Простой»' });
    await addHourlyLine(s, p.manager.auth, customer, { price: 1000.01, free_minutes: 30, valid_from: '2026-11-01' });
    const trip = (date: string, over: object = {}) => makeTrip(s, { companyId: p.company, customerId: customer, driverId: p.driver.id, date, quantity: 10, rate: 500, ...over });
    // 50 min at loading (20 beyond the free 30) and 45 at unloading (15 beyond): 35 minutes billed.
    const long = await trip('2026-11-05');
    await stampWaits(s, long.reportId, '2026-11-05', { loading: 50, unloading: 45 });
    // Within the free period at both places: nothing billed.
    const short = await trip('2026-11-06');
    await stampWaits(s, short.reportId, '2026-11-06', { loading: 30, unloading: 20 });
    // Without stamps: nothing billed.
    await trip('2026-11-07');
    // Before the hourly line is in force: no line, nothing billed however long the wait.
    const early = await trip('2026-10-31');
    await stampWaits(s, early.reportId, '2026-10-31', { loading: 240, unloading: 240 });
    // Another customer without an hourly line: nothing billed.
    const plain = await makeCounterparty(s, p.company);
    const unpriced = await makeTrip(s, { companyId: p.company, customerId: plain, driverId: p.driver.id, date: '2026-11-05', quantity: 10, rate: 500 });
    await stampWaits(s, unpriced.reportId, '2026-11-05', { loading: 240, unloading: 240 });

    const url = `/counterparties/${customer}/statement?from=2026-10-25&to=2026-11-30`;
    const st = await ok<Statement>('GET', url, p.manager);
    const byId = new Map(st.trips.map((t) => [t.report_id, t]));
    // 35 min × 1000,01 ₽/ч = 583,3391… → 583,34 (half up; floor would say 583,33).
    expect(byId.get(long.reportId)?.waiting).toMatchObject({ free_minutes: 30, price: 1000.01, billed_min: 35, hours: 0.583, amount: 583.34 });
    expect(byId.get(long.reportId)?.waiting_min).toBe(95);
    expect(byId.get(short.reportId)?.waiting).toMatchObject({ billed_min: 0, amount: 0 });
    expect(byId.get(early.reportId)?.waiting).toBeNull();
    expect(st.total).toEqual({ trips: 4, quantity: 40, carriage: 20000, waiting: 583.34, waiting_hours: 0.583, amount: 20583.34 });
    expect(st.by_cargo.find((g) => g.key === 'Простой, час')).toEqual({ key: 'Простой, час', trips: 1, quantity: 0.583, amount: 583.34 });
    expect(st.by_day.reduce((acc, g) => acc + Math.round(g.amount * 100), 0)).toBe(2_058_334);
    expect(st.by_cargo.reduce((acc, g) => acc + Math.round(g.amount * 100), 0)).toBe(2_058_334);
    const other = await ok<Statement>('GET', `/counterparties/${plain}/statement?from=2026-11-01&to=2026-11-30`, p.manager);
    expect(other.trips[0]?.waiting).toBeNull();
    expect(other.total).toMatchObject({ waiting: 0, amount: 5000 });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await send('GET', `${url}&format=xlsx`, p.manager)).rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Реестр рейсов')!;
    const header = sheet.getRow(1).values as unknown[];
    const col = (name: string) => header.indexOf(name);
    const longRow = [2, 3, 4, 5].map((n) => sheet.getRow(n)).find((r) => r.getCell(col('№ рейса')).value === long.reportId)!;
    expect([longRow.getCell(col('Простой к оплате, ч')).value, longRow.getCell(col('Простой, ₽')).value]).toEqual([0.583, 583.34]);
    expect(sheet.getRow(6).getCell(col('Простой, ₽')).value).toEqual({ formula: 'SUM(T2:T5)', result: 583.34 });
    expect(sheet.getRow(7).getCell(col('Сумма, ₽')).value).toEqual({ formula: 'N6+T6', result: 20583.34 });
    const statementPdf = pdfText((await send('GET', `${url}&format=pdf`, p.manager)).rawPayload);
    expect(statementPdf).toContain(`простой сверх нормы: 0,583 ч, ${rub(583.34)}`);
    expect(statementPdf).toContain(`сумма ${rub(20583.34)}`);

    const invoice = await ok<Invoice>('POST', '/invoices/', p.manager, { counterparty_id: customer, from: '2026-10-25', to: '2026-11-30' });
    expect(invoice).toMatchObject({ total: 20583.34, trips: 4 });
    expect(invoice.lines.filter((l) => l.kind === 'waiting')).toEqual([
      { kind: 'waiting', free_minutes: 30, cargo: 'Щебень гранитный 5–20', loading_place: 'Карьер «Лесной»', unloading_place: 'ЖК «Северный парк»', unit: 'час', trips: 1, quantity: 0.583, price: 1000.01, amount: 583.34 },
    ]);
    for (const paper of ['act', 'invoice']) {
      const text = pdfText((await send('GET', `/invoices/${invoice.id}/${paper}.pdf`, p.manager)).rawPayload);
      expect(text).toContain('Простой сверх нормы (30 мин бесплатно на погрузке и на выгрузке)');
      expect(text).toContain(`Итого: ${rub(20583.34)}`);
    }
    // Frozen: a new price of the hour later does not move the act.
    await addHourlyLine(s, p.manager.auth, customer, { price: 2000, free_minutes: 0, valid_from: '2026-11-02' });
    expect((await ok<Invoice>('GET', `/invoices/${invoice.id}`, p.manager)).total).toBe(20583.34);
    const frozen = await s.db.kysely.selectFrom('invoice_trips').select(['waiting_min', 'waiting_kop']).where('report_id', '=', long.reportId).executeTakeFirstOrThrow();
    expect([frozen.waiting_min, Number(frozen.waiting_kop)]).toEqual([35, 58334]);
  });

  it('rounds the billed waiting half up to the kopeck, in whole numbers', () => {
    expect(waitingKop(100_001, 35)).toBe(58_334); // 58 333,92
    expect(waitingKop(1, 30)).toBe(1); // 0,5 up
    expect(waitingKop(1, 29)).toBe(0);
    expect(waitingKop(150_000, 0)).toBe(0);
    expect(waitingKop(150_000, 61)).toBe(152_500);
  });
});
