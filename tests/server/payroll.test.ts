/**
 * The payroll (WAGES.md «Расчёт с водителями») on both databases: a month closed with its figures stored; every
 * change that would move them refused with the month named; adjustments that move the next month by exactly their
 * amount; reopening by the super-admin with a reason; scale versions by start date; and one reconciliation — the
 * driver's statistics, the company's, /payroll and its sheet agree to the kopeck, the drivers summing to the company.
 */
import ExcelJS from 'exceljs';
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, makeUser, withAccessToken, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { closeAndWait } from '../fixtures/payroll-close.ts';
import { localToday } from '../../server/tasks/scope.ts';
import { nowIso } from '../../server/db/connect.ts';
import { pendingLoads } from '../../server/payroll/pending.ts';
import { storedSheetLoads } from '../../server/payroll/payroll.ts';
import { INTERRUPTED, STALE_MS } from '../../server/payroll/close-jobs.ts';
import { confirmedOf, monthRange, type Adjustment, type CompanyWages, type DriverPayrollMonth, type DriverWages, type PayrollClose, type PayrollItems, type PayrollMonth, type WageItem } from '../../contract/money.ts';
import type { RateBand } from '../../contract/wages.ts';

describe.each(backends)('payroll ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  let pendingReport: number;
  let approvedReport: number;
  let octoberTask: number;

  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser | undefined, body?: unknown) =>
    s.app.inject({ method, url: `/api${url}`, headers: user?.auth ?? {}, ...(body === undefined ? {} : { payload: body as object }) });
  const json = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SignedInUser, body?: unknown): Promise<T> => {
    const res = await send(method, url, user, body);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as T;
  };

  /** Closes a month as the screen does: with the figures the admin saw (GET /payroll/) as confirmed. */
  const closeMonth = async (user: SignedInUser, month: string) => {
    const seen = await json<PayrollMonth>('GET', `/payroll/?month=${month}`, p.admin);
    return closeAndWait(s.app, user.auth, { month, confirmed: confirmedOf(seen) });
  };
  const close = async (month: string): Promise<PayrollMonth> => {
    const res = await closeMonth(p.admin, month);
    if (res.statusCode !== 200) throw new Error(`close ${month}: ${res.statusCode} ${res.body}`);
    return json<PayrollMonth>('GET', `/payroll/?month=${month}`, p.admin);
  };

  beforeEach(async () => {
    p = await makePeople(s);
    // The scale: 0–100 т → 450 ₽, from 100 т → 480 ₽ (the first version, before any load).
    for (const [min, max, rate] of [[0, 100, 450], [100, null, 480]] as const) {
      await s.db.kysely.insertInto('progressive_rates').values({ company_id: p.company, min_quantity: min, max_quantity: max, rate, created_at: nowIso() }).execute();
    }
    const job = async (date: string, driverId: number, transportRate: number | null, quantities: number[], review: 'approved' | 'pending' = 'approved') => {
      const task = await createTask(s, p.company, { date, rate: 600 });
      const association = await addDriver(s, task, driverId, { transport_rate: transportRate });
      const ids: number[] = [];
      for (const q of quantities) ids.push(await addLoad(s, association, q, { review, ticket: `T-${q}` }));
      return { task, association, ids };
    };
    // October: driver 1 on the scale, 3 × 40 т = 120 т → the 480 ₽ band for all of them; driver 2 at 500 ₽ own rate.
    const oct = await job('2026-10-05', p.driver.id, null, [40, 40, 40]);
    octoberTask = oct.task;
    approvedReport = oct.ids[0] as number;
    await job('2026-10-06', p.driver2.id, 500, [30.5]);
    // A load still waiting for review in October.
    pendingReport = (await job('2026-10-07', p.driver.id, null, [25], 'pending')).ids[0] as number;
    // September: outside.
    await job('2026-09-30', p.driver.id, null, [90]);
  });

  const october = 'month=2026-10';

  // PostgreSQL reads the month's waiting loads by another plan than SQLite (payroll.ts monthUnapproved): the same
  // loads, counted, summed and listed in the same order, open and closed.
  it("lists a month's waiting loads — pending and disputed, its own tasks only — by date then report, open and closed", async () => {
    const later = await createTask(s, p.company, { date: '2026-10-20', rate: 600 });
    const laterPart = await addDriver(s, later, p.driver2.id, {});
    const waiting = [await addLoad(s, laterPart, 7, { review: 'pending' }), await addLoad(s, laterPart, 8.25, { review: 'disputed' })];
    await addLoad(s, laterPart, 9, { review: 'approved' });
    const earlier = await createTask(s, p.company, { date: '2026-10-02', rate: 600 });
    const first = await addLoad(s, await addDriver(s, earlier, p.driver2.id, {}), 3, { review: 'disputed' });
    // Not October's, or not the company's: never listed.
    await addLoad(s, await addDriver(s, await createTask(s, p.company, { date: '2026-11-01', rate: 600 }), p.driver.id, {}), 11, { review: 'pending' });
    await addLoad(s, await addDriver(s, await createTask(s, p.otherCompany, { date: '2026-10-10', rate: 600 }), p.otherDriver.id, {}), 13, { review: 'pending' });
    const expected = { loads: 4, quantity: 43.25, items: [first, pendingReport, ...waiting] };
    const pendingOf = (m: PayrollMonth) => ({ loads: m.pending.loads, quantity: m.pending.quantity, items: m.pending.items.map((i) => i.report_id) });
    expect(pendingOf(await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin))).toEqual(expected);
    await close('2026-10');
    expect(pendingOf(await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin))).toEqual(expected);
  });

  it('shows a month: each driver’s approved loads, pay and total; pending loads apart', async () => {
    const m = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect(m).toMatchObject({ status: 'open', month: '2026-10', total_quantity: 150.5, loads_amount: 120 * 480 + 30.5 * 500, adjustments_amount: 0 });
    expect(m.drivers.map((d) => [d.driver_name, d.loads, d.quantity, d.total_amount])).toEqual([
      ['Иван Петров', 3, 120, 57600],
      ['Сергей Смирнов', 1, 30.5, 15250],
    ]);
    expect(m.pending).toMatchObject({ loads: 1, quantity: 25 });
    expect(m.pending.items[0]?.report_id).toBe(pendingReport);
    // /reports/{id} says the same: the approved load's pay, and what the pending one would be paid (at 145 т: 480 ₽).
    expect((await json<{ pay: object }>('GET', `/reports/${approvedReport}`, p.manager)).pay).toEqual({ delivered: 40, rate: 480, source: 'progressive', month_volume: 120, amount: 19200, estimate: false, frozen: false });
    expect((await json<{ pay: object }>('GET', `/reports/${pendingReport}`, p.manager)).pay).toMatchObject({ delivered: 25, rate: 480, amount: 12000, estimate: true });
    // The super-admin names the company; another company's staff do not see it.
    expect((await send('GET', `/payroll/?${october}`, p.superAdmin)).json().detail).toBe('company_id: укажите компанию');
    expect((await send('GET', `/payroll/?${october}&company_id=${p.company}`, p.superAdmin)).statusCode).toBe(200);
    expect((await send('GET', `/payroll/?${october}&company_id=${p.company}`, p.otherManager)).statusCode).toBe(404);
    expect((await send('GET', `/payroll/?month=2026-13`, p.admin)).statusCode).toBe(400);
    expect((await send('GET', `/payroll/?${october}`, p.driver)).statusCode).toBe(403);
  });

  it('closes a month: figures stored and frozen; every change that would move them is refused naming the month', async () => {
    expect((await closeMonth(p.manager, '2026-10')).statusCode).toBe(403);
    expect((await closeMonth(p.admin, '2099-01')).statusCode).toBe(400);
    const closed = await close('2026-10');
    expect(closed).toMatchObject({ status: 'closed', total_amount: 57600 + 15250 });
    expect(closed.history.map((h) => h.action)).toEqual(['close']);
    expect((await closeMonth(p.admin, '2026-10')).json().detail).toBe('Октябрь 2026 закрыт уже');

    const refused = async (res: { statusCode: number; json: () => { detail: string } }, start: string) => {
      expect(res.statusCode).toBe(409);
      expect(res.json().detail).toMatch(new RegExp(`^${start}: октябрь 2026 закрыт`));
    };
    await refused(await send('POST', `/reports/${approvedReport}/review`, p.manager, { action: 'reopen' }), 'Рейс нельзя перепроверить');
    await refused(await send('PUT', `/reports/${approvedReport}`, p.manager, { quantity: 41 }), 'Отчёт нельзя изменить');
    await refused(await send('DELETE', `/reports/${approvedReport}`, p.manager), 'Отчёт нельзя удалить');
    await refused(await send('DELETE', `/reports/${approvedReport}/photo?photo_id=1`, p.manager), 'Фото нельзя удалить');
    // The screens are told so (they offer none of it): the stored load is closed, the one left pending is not.
    expect((await json<{ closed: boolean }>('GET', `/reports/${approvedReport}`, p.manager)).closed).toBe(true);
    expect((await json<{ closed: boolean }[]>('GET', `/reports/association/${(await json<{ association_id: number }>('GET', `/reports/${approvedReport}`, p.manager)).association_id}`, p.driver)).every((r) => r.closed)).toBe(true);
    expect((await json<{ closed: boolean }>('GET', `/reports/${pendingReport}`, p.manager)).closed).toBe(false);
    await refused(await send('PUT', `/tasks/${octoberTask}/`, p.manager, { rate: 700 }), 'Цену задачи нельзя изменить');
    await refused(await send('PUT', `/tasks/${octoberTask}/drivers/${p.driver.id}/?transport_rate=470`, p.manager), 'Ставку и количество водителя нельзя изменить');
    await refused(await send('PUT', `/tasks/${octoberTask}/drivers/${p.driver.id}/quantity/`, p.manager, { transport_rate: 470 }), 'Ставку и количество водителя нельзя изменить');
    await refused(await send('DELETE', `/tasks/${octoberTask}/drivers/${p.driver.id}/`, p.manager), 'Водителя нельзя снять с задачи');
    // The scale cannot change inside it…
    const [band] = await json<RateBand[]>('GET', `/progressive_rates/company/${p.company}`, p.admin);
    const scale = await send('PUT', `/progressive_rates/${band?.id}`, p.admin, { rate: 999, valid_from: '2026-10-15' });
    expect(scale.statusCode).toBe(409);
    expect(scale.json().detail).toBe('Шкалу нельзя изменить с 15.10.2026: октябрь 2026 закрыт (расчёт с водителями). Изменение возможно с 01.11.2026');
    // …and even a band rewritten behind the API's back does not move a closed month: its lines are stored.
    await s.db.kysely.updateTable('progressive_rates').set({ rate: 1 }).where('company_id', '=', p.company).execute();
    const after = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    const afterItems = await json<PayrollItems>('GET', `/payroll/items?${october}&driver_id=${p.driver.id}`, p.admin);
    expect([after.total_amount, after.drivers.find((d) => d.driver_id === p.driver.id)?.loads_amount, afterItems.status, afterItems.items.every((i) => i.frozen)]).toEqual([57600 + 15250, 57600, 'closed', true]);
    const driverView = await json<DriverWages>('GET', `/wages/driver/${p.driver.id}?start_date=2026-10-01&end_date=2026-10-31`, p.driver);
    expect(driverView.total_amount).toBe(57600);
  });

  it('an adjustment moves the next open month by exactly its amount and shows in both months', async () => {
    await close('2026-10');
    const before = await json<PayrollMonth>('GET', '/payroll/?month=2026-11', p.admin);
    const dated = await send('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver.id, date: '2026-10-20', amount: 100, reason: 'недоплата' });
    expect(dated.statusCode).toBe(409);
    expect(dated.json().detail).toMatch(/^Корректировку нельзя провести этим днём: октябрь 2026 закрыт/);
    expect((await send('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver.id, date: '2026-11-02', amount: 0, reason: 'ноль' })).statusCode).toBe(400);
    // Zero once rounded to kopecks is zero too (the check runs on the kopecks, not on the float).
    const tiny = await send('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver.id, date: '2026-11-02', amount: 4e-9, reason: 'ноль копеек' });
    expect([tiny.statusCode, tiny.json().detail]).toEqual([400, 'amount: Сумма не может быть нулевой']);
    expect((await send('POST', '/payroll/adjustments', p.admin, { driver_id: p.otherDriver.id, date: '2026-11-02', amount: 5, reason: 'чужой' })).json().detail).toBe('driver_id: водитель не найден в компании');
    expect((await send('POST', '/payroll/adjustments', p.manager, { driver_id: p.driver.id, date: '2026-11-02', amount: 5, reason: 'менеджер' })).statusCode).toBe(403);
    const made = await send('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver.id, date: '2026-11-02', amount: 12000.55, reason: 'Рейс 07.10 принят после закрытия', report_id: pendingReport });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ amount: 12000.55, concerns_month: '2026-10', report_id: pendingReport });
    const after = await json<PayrollMonth>('GET', '/payroll/?month=2026-11', p.admin);
    expect(Math.round((after.total_amount - before.total_amount) * 100)).toBe(1200055);
    const oct = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect(oct.total_amount).toBe(57600 + 15250);
    expect(oct.later_adjustments.map((a) => a.amount)).toEqual([12000.55]);
    const novemberWages = await json<DriverWages>('GET', `/wages/driver/${p.driver.id}?start_date=2026-11-01&end_date=2026-11-30`, p.driver);
    expect([novemberWages.adjustments_amount, novemberWages.total_amount]).toEqual([12000.55, 12000.55]);
  });

  it('reopens a month only as the super-admin with a reason, kept in the history', async () => {
    await close('2026-10');
    expect((await send('POST', '/payroll/reopen', p.admin, { company_id: p.company, month: '2026-10', reason: 'ошибка в ставке' })).statusCode).toBe(403);
    expect((await send('POST', '/payroll/reopen', p.superAdmin, { company_id: p.company, month: '2026-10', reason: '' })).json().detail).toMatch(/^reason:/);
    const reopened = await json<PayrollMonth>('POST', '/payroll/reopen', p.superAdmin, { company_id: p.company, month: '2026-10', reason: 'ошибка в ставке' });
    expect(reopened.status).toBe('open');
    expect(reopened.history.map((h) => [h.action, h.reason])).toEqual([
      ['reopen', 'ошибка в ставке'],
      ['close', null],
    ]);
    expect((await send('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'approve' })).statusCode).toBe(200);
    // 145 т now: still the 480 ₽ band.
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).total_amount).toBe(145 * 480 + 15250);
    const again = await close('2026-10');
    expect(again.history.map((h) => h.action)).toEqual(['close', 'reopen', 'close']);
  });

  it('a scale change from a future date leaves the month as it was; from a day inside it, only loads from that day', async () => {
    const [band] = await json<RateBand[]>('GET', `/progressive_rates/company/${p.company}`, p.admin);
    const top = (await json<RateBand[]>('GET', `/progressive_rates/company/${p.company}`, p.admin)).find((b) => b.max_quantity === null) as RateBand;
    const impact = await json<{ loads: number; quantity: number; drivers: number }>('GET', `/progressive_rates/company/${p.company}/impact?valid_from=2026-10-06`, p.admin);
    // From 06.10 on the scale: nothing approved (the 07.10 load is pending; driver 2 has an own rate).
    expect(impact).toMatchObject({ loads: 0, quantity: 0, drivers: 0 });
    const future = await json<RateBand[]>('PUT', `/progressive_rates/${top.id}`, p.admin, { rate: 490, valid_from: '2026-12-01' });
    expect(future.every((b) => b.valid_from === '2026-12-01')).toBe(true);
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).total_amount).toBe(57600 + 15250);
    // From 05.10 (the day of driver 1's loads): they move to 500 ₽; the September load keeps the first version.
    await json('PUT', `/progressive_rates/${top.id}`, p.admin, { rate: 500, valid_from: '2026-10-05' });
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).total_amount).toBe(120 * 500 + 15250);
    const september = await json<DriverWages>('GET', `/wages/driver/${p.driver.id}?start_date=2026-09-01&end_date=2026-09-30`, p.admin);
    expect(september.items.map((i) => i.rate)).toEqual([450]);
    // Three versions now, each a whole ladder; the December one copied the version in force then (with 490).
    const all = await json<RateBand[]>('GET', `/progressive_rates/company/${p.company}`, p.admin);
    expect([...new Set(all.map((b) => b.valid_from))]).toEqual(['2000-01-01', '2026-10-05', '2026-12-01']);
    expect(all.filter((b) => b.valid_from === '2026-12-01').map((b) => b.rate)).toEqual([450, 490]);
    expect((await send('PUT', `/progressive_rates/${band?.id}`, p.admin, { rate: 1, valid_from: '1999-01-01' })).statusCode).toBe(400);
  });

  it('the sheet: «Рейсов» counts trips on both sheets, every total carries its value (a zero one too), decimals with a comma', async () => {
    // November: two reports on the scale, one of them for three trips, 62,5 + 20,4 т.
    const task = await createTask(s, p.company, { date: '2026-11-03', rate: 600 });
    const association = await addDriver(s, task, p.driver.id, { transport_rate: null });
    const three = await addLoad(s, association, 62.5, { ticket: 'N-1' });
    await s.db.kysely.updateTable('reports').set({ trips: 3 }).where('id', '=', three).execute();
    await addLoad(s, association, 20.4, { ticket: 'N-2' });
    const month = await json<PayrollMonth>('GET', '/payroll/?month=2026-11', p.admin);
    expect(month.drivers.map((d) => [d.driver_name, d.loads, d.trips])).toEqual([['Иван Петров', 2, 4]]);

    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await send('GET', `/payroll/${p.company}/2026-11/sheet`, p.admin)).rawPayload as unknown as ArrayBuffer);
    const summary = book.getWorksheet('Ведомость') as ExcelJS.Worksheet;
    const loads = book.getWorksheet('Рейсы') as ExcelJS.Worksheet;
    expect([summary.getCell('C1').value, loads.getCell('G1').value]).toEqual(['Рейсов', 'Рейсов']);
    const value = (cell: ExcelJS.CellValue) => (typeof cell === 'object' && cell !== null && 'formula' in cell ? cell.result : cell);
    // One workbook, one count: the driver's 4 trips on the summary, its total, and the loads sheet's total.
    expect(summary.getCell('C2').value).toBe(4);
    expect(value(summary.getCell('C3').value)).toBe(4);
    expect(value(loads.getCell('G4').value)).toBe(4);
    // Every total of the summary has its value for a reader that does not recalculate — the zero adjustments too.
    expect(['C3', 'D3', 'E3', 'F3', 'G3'].map((c) => value(summary.getCell(c).value))).toEqual([4, 82.9, month.loads_amount, 0, month.total_amount]);

    // The driver's own xlsx says where the rate came from with a decimal comma.
    const wageBook = new ExcelJS.Workbook();
    await wageBook.xlsx.load((await send('GET', `/wages/driver/${p.driver.id}?start_date=2026-11-01&end_date=2026-11-30&format=xlsx`, p.admin)).rawPayload as unknown as ArrayBuffer);
    const wageSheet = wageBook.worksheets[0] as ExcelJS.Worksheet;
    const sourceColumn = (wageSheet.getRow(1).values as unknown[]).indexOf('Откуда ставка');
    expect(wageSheet.getRow(2).getCell(sourceColumn).value).toBe('по шкале при 82,9 т за месяц');
  });

  it('the sheet reads a closed month’s stored lines in pages, the next read while one is written: every line once, in order', async () => {
    await close('2026-10');
    const names = new Map([[p.driver.id, 'Первый'], [p.driver2.id, 'Второй']]);
    const stored = await s.db.kysely.selectFrom('payroll_lines').select(['report_id', 'driver_id']).where('company_id', '=', p.company).where('month', '=', '2026-10').orderBy('id').execute();
    expect(stored).toHaveLength(4);
    const want = stored.map((l) => [l.report_id, names.get(l.driver_id)]);
    // Pages of one, of two, of exactly all four (an empty page after), of more than all.
    for (const size of [1, 2, 4, 5]) {
      const read: unknown[][] = [];
      for await (const load of storedSheetLoads(s.db.kysely, p.company, '2026-10', names, size)) read.push([load.report_id, load.driver_name]);
      expect(read, `pages of ${size}`).toEqual(want);
    }
  });

  it('reconciles: driver statistics, company statistics, /payroll and its sheet agree to the kopeck', async () => {
    await json('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver2.id, date: '2026-10-31', amount: -250.25, reason: 'штраф за простой' });
    const period = 'start_date=2026-10-01&end_date=2026-10-31';
    const company = await json<CompanyWages>('GET', `/wages/company/${p.company}?${period}`, p.manager);
    const month = await close('2026-10');
    expect([company.total_quantity, company.total_amount]).toEqual([month.total_quantity, month.total_amount]);
    let kop = 0;
    for (const d of month.drivers) {
      const own = await json<DriverWages>('GET', `/wages/driver/${d.driver_id}?${period}`, p.manager);
      const inCompany = company.drivers.find((c) => c.driver_id === d.driver_id);
      expect([own.total_quantity, own.total_amount]).toEqual([d.quantity, d.total_amount]);
      expect([inCompany?.total_quantity, inCompany?.total_amount]).toEqual([d.quantity, d.total_amount]);
      kop += Math.round(d.total_amount * 100);
    }
    expect(kop).toBe(Math.round(month.total_amount * 100));

    const res = await send('GET', `/payroll/${p.company}/2026-10/sheet`, p.admin);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Ведомость') as ExcelJS.Worksheet;
    const rows = month.drivers.map((_, i) => sheet.getRow(i + 2));
    expect(rows.map((r) => [r.getCell(2).value, r.getCell(4).value, r.getCell(7).value])).toEqual(month.drivers.map((d) => [d.driver_name, d.quantity, d.total_amount]));
    const total = sheet.getRow(month.drivers.length + 2).getCell(7).value as { formula: string; result: number };
    expect(total).toMatchObject({ formula: `SUM(G2:G${month.drivers.length + 1})`, result: month.total_amount });
    const loads = book.getWorksheet('Рейсы') as ExcelJS.Worksheet;
    expect(loads.rowCount).toBe(month.loads + 2);
    expect((await send('GET', `/payroll/${p.company}/2026-10/sheet`, p.otherManager)).statusCode).toBe(404);
    expect((await send('GET', `/payroll/${p.company}/октябрь/sheet`, p.admin)).statusCode).toBe(400);

    // The company's wage xlsx and the completed-tasks export say the same money.
    const wageFile = await send('GET', `/wages/company/${p.company}?${period}&format=xlsx`, p.admin);
    const wageBook = new ExcelJS.Workbook();
    await wageBook.xlsx.load(wageFile.rawPayload as unknown as ArrayBuffer);
    const wageSheet = wageBook.worksheets[0] as ExcelJS.Worksheet;
    const wageCol = (wageSheet.getRow(1).values as unknown[]).indexOf('Водителю, ₽');
    expect(wageSheet.getRow(wageSheet.rowCount).getCell(wageCol).value).toBe(month.total_amount);
    const job = (await send('POST', '/tasks/completed/export', p.admin, { status: 'all', date_from: '2026-10-01', date_to: '2026-10-31' })).json() as { id: number };
    let done: { status: string } = { status: 'queued' };
    for (let i = 0; i < 100 && done.status !== 'done' && done.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      done = (await send('GET', `/tasks/completed/export/${job.id}`, p.admin)).json() as { status: string };
    }
    expect(done.status).toBe('done');
    const exportBook = new ExcelJS.Workbook();
    await exportBook.xlsx.load((await send('GET', `/tasks/completed/export/${job.id}/download`, p.admin)).rawPayload as unknown as ArrayBuffer);
    const exportSheet = exportBook.worksheets[0] as ExcelJS.Worksheet;
    const header = exportSheet.getRow(1).values as unknown[];
    const totals = exportSheet.getRow(exportSheet.rowCount);
    // The export counts loads (the adjustment is the payroll's, not a task's).
    expect((totals.getCell(header.indexOf('Водителю, ₽')).value as { result: number }).result).toBe(month.loads_amount);
    expect((totals.getCell(header.indexOf('Принято, т')).value as { result: number }).result).toBe(month.total_quantity);

    // The driver sees their own closed month with its lines; not another driver's.
    const mine = await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.driver2);
    expect(mine.map((m) => [m.month, m.loads, m.total_amount])).toEqual([['2026-10', 1, 15250 - 250.25]]);
    expect((await send('GET', `/payroll/driver/${p.driver2.id}`, p.driver)).statusCode).toBe(403);
  });

  it('a driver’s closed month is read as stored, and only by his company’s staff: a driver who moved keeps it there', async () => {
    await close('2026-10');
    // Behind the API's back the approved loads lose their approval: the closed month is what was stored.
    await s.db.kysely.updateTable('reports').set({ review_status: 'pending' }).where('driver_id', '=', p.driver2.id).execute();
    const stored = await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.admin);
    // The month's per-driver totals are the ones its close stored, not the reports' state now.
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).drivers.find((d) => d.driver_id === p.driver2.id)).toMatchObject({ loads: 1, loads_amount: 15250 });
    expect(stored.map((m) => [m.company_id, m.month, m.loads, m.total_amount])).toEqual([[p.company, '2026-10', 1, 15250]]);
    const lines = `/payroll/driver/${p.driver2.id}/${p.company}/2026-10`;
    expect((await json<WageItem[]>('GET', lines, p.admin)).map((i) => [i.rate, i.amount, i.frozen])).toEqual([[500, 15250, true]]);
    expect((await json<WageItem[]>('GET', lines, p.driver2)).length).toBe(1);
    expect((await send('GET', lines, p.driver)).statusCode).toBe(403);
    expect((await send('GET', `/payroll/driver/${p.driver2.id}/${p.company}/2026-11`, p.driver2)).statusCode).toBe(404);
    // The super-admin moves the driver to the other company: its staff see none of the first company's months.
    await json('PUT', `/users/${p.driver2.id}/`, p.superAdmin, { company_id: p.otherCompany });
    expect(await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.otherManager)).toEqual([]);
    expect((await send('GET', lines, p.otherManager)).statusCode).toBe(404);
    expect((await json<WageItem[]>('GET', lines, p.manager)).length).toBe(1);
    // His old company still reads its own month; he reads his own; the super-admin every company's.
    expect((await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.manager)).map((m) => m.company_id)).toEqual([p.company]);
    expect((await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.driver2)).map((m) => m.company_id)).toEqual([p.company]);
    expect((await json<DriverPayrollMonth[]>('GET', `/payroll/driver/${p.driver2.id}`, p.superAdmin)).length).toBe(1);
    // A driver of another company with no month here is not found.
    expect((await send('GET', `/payroll/driver/${p.otherDriver.id}`, p.manager)).statusCode).toBe(404);
  });

  it('closes only the figures the admin confirmed: a month that moved meanwhile is 409 naming what changed, nothing stored', async () => {
    const seen = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect((await send('POST', '/payroll/close', p.admin, { month: '2026-10' })).json().detail).toBe('confirmed: обязательное поле');
    // Meanwhile the pending load is approved (the review in another tab): 145 т, still the 480 ₽ band.
    await json('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'approve' });
    const stale = await closeAndWait(s.app, p.admin.auth, { month: '2026-10', confirmed: confirmedOf(seen) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail.replace(/\u00a0/g, ' ')).toBe(
      'Данные месяца изменились: к выплате: 84 850 ₽ вместо 72 850 ₽, принято отчётов: 5 вместо 4, ждут проверки отчётов: 0 вместо 1. Проверьте цифры и закройте месяц снова',
    );
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).status).toBe('open');
    // With the figures on screen now, it closes.
    expect((await close('2026-10')).total_amount).toBe(84850);
  });

  it('a load left out of a closed month is paid in the next open month, marked late; it can be reviewed, edited, deleted', async () => {
    const today = localToday();
    const thisMonth = today.slice(0, 7);
    await close('2026-10');
    // The driver's task card says where a trip filed now is paid.
    const [task] = (await json<{ items: { driver_pay: { paid_in?: string } }[] }>('GET', `/tasks/bulk?ids=${octoberTask}`, p.driver)).items;
    expect(task?.driver_pay.paid_in).toBe(thisMonth);
    // The open month shows the late load among those waiting for review, marked.
    const before = await json<PayrollMonth>('GET', `/payroll/?month=${thisMonth}`, p.admin);
    expect(before.pending.items.filter((i) => i.late).map((i) => i.report_id)).toEqual([pendingReport]);
    // Approved (approve-clean takes it too), it is paid in this month: 25 т at October's band (145 т → 480 ₽).
    expect((await json<{ approved: number }>('POST', '/reports/review/approve-clean', p.manager, { date_from: '2026-10-01', date_to: '2026-10-31' })).approved).toBe(1);
    const paid = await json<PayrollMonth>('GET', `/payroll/?month=${thisMonth}`, p.admin);
    const late = paid.adjustments.filter((a) => a.late);
    expect(late.map((a) => [a.report_id, a.amount, a.concerns_month, a.date, a.created_by_name])).toEqual([[pendingReport, 12000, '2026-10', today, null]]);
    expect(late[0]?.reason).toBe(`Рейс после закрытия месяца (октябрь 2026): задача №${(await json<{ task: { id: number } }>('GET', `/reports/${pendingReport}`, p.manager)).task.id}, 25 т`);
    expect(Math.round((paid.total_amount - before.total_amount) * 100)).toBe(1200000);
    expect(paid.pending.items.some((i) => i.late)).toBe(false);
    // October stays as stored; it lists the payment among the later adjustments.
    const october2 = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect([october2.total_amount, october2.later_adjustments.map((a) => a.report_id)]).toEqual([72850, [pendingReport]]);
    // Edited, it is repriced; disputed, unpaid; approved again, paid; deleted, gone.
    await json('PUT', `/reports/${pendingReport}`, p.manager, { quantity: 20 });
    const lateOf = async () => (await json<Adjustment[]>('GET', `/payroll/adjustments?month=${thisMonth}`, p.admin)).filter((a) => a.late).map((a) => a.amount);
    expect(await lateOf()).toEqual([9600]);
    await json('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'dispute', comment: 'не тот талон' });
    expect(await lateOf()).toEqual([]);
    await json('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'approve' });
    expect(await lateOf()).toEqual([9600]);
    expect((await send('DELETE', `/reports/${pendingReport}`, p.manager)).statusCode).toBe(204);
    expect(await lateOf()).toEqual([]);
  });

  // A carrier's years left 7 510 loads waiting in closed months: the open month read them all as rows for a page of
  // 200 (most of its GET /payroll/ at full size). They are counted and summed in SQL, and only the page is read.
  it('counts and sums the late loads still waiting in SQL, and reads as rows only as many as the page shows', async () => {
    const thisMonth = localToday().slice(0, 7);
    await close('2026-10');
    const company = p.company;
    const whole = await pendingLoads(s.db.kysely, s.db.dialect, company, thisMonth, 200);
    expect(whole.items.map((i) => i.report_id)).toContain(pendingReport);
    // No page: the same count and volume, no row; a page of one: the late load first.
    const none = await pendingLoads(s.db.kysely, s.db.dialect, company, thisMonth, 0);
    expect([none.loads, none.quantity, none.items]).toEqual([whole.loads, whole.quantity, []]);
    const one = await pendingLoads(s.db.kysely, s.db.dialect, company, thisMonth, 1);
    expect([one.loads, one.quantity, one.items.map((i) => i.report_id)]).toEqual([whole.loads, whole.quantity, [pendingReport]]);
    // Read in runs of report ids (a run per id here: the runs' counts added, their first rows merged in order).
    const byRuns = await pendingLoads(s.db.kysely, s.db.dialect, company, thisMonth, 200, 1);
    expect([byRuns.loads, byRuns.quantity, byRuns.items.map((i) => i.report_id)]).toEqual([whole.loads, whole.quantity, whole.items.map((i) => i.report_id)]);
    // The screen's figures are the same ones.
    const screen = await json<PayrollMonth>('GET', `/payroll/?month=${thisMonth}`, p.admin);
    expect([screen.pending.loads, screen.pending.quantity]).toEqual([whole.loads, whole.quantity]);
    // Reopened, October's waiting load is October's own again, not a late one of this month.
    expect((await send('POST', '/payroll/reopen', p.superAdmin, { company_id: p.company, month: '2026-10', reason: 'проверка' })).statusCode).toBe(200);
    const reopened = await pendingLoads(s.db.kysely, s.db.dialect, company, thisMonth, 200);
    expect(reopened.items.map((i) => i.report_id)).not.toContain(pendingReport);
    expect(reopened.loads).toBe(whole.loads - 1);
  });

  it('a late load paid in a month closed since is paid once: its month reopened and closed again leaves it out and names where it was paid', async () => {
    const today = localToday();
    const thisMonth = today.slice(0, 7);
    const reopen = (month: string) => json<PayrollMonth>('POST', '/payroll/reopen', p.superAdmin, { company_id: p.company, month, reason: 'ошибка в талоне' });
    const monthOfCompany = (month: string) => json<PayrollMonth>('GET', `/payroll/?month=${month}`, p.admin);
    const driverTotal = async () => (await json<DriverWages>('GET', `/wages/driver/${p.driver.id}?start_date=2026-10-01&end_date=${monthRange(thisMonth).end}`, p.driver)).total_amount;
    await close('2026-10');
    // Approved after October's close: paid in this month (25 т × 480 ₽), and this month is closed with it.
    await json('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'approve' });
    expect((await close(thisMonth)).adjustments.filter((a) => a.late).map((a) => [a.report_id, a.amount])).toEqual([[pendingReport, 12000]]);
    expect(await driverTotal()).toBe(57600 + 12000);
    // October reopened: the load stays paid where it was, out of October's figures, listed as paid in this month.
    const reopened = await reopen('2026-10');
    const octoberItems = (await json<PayrollItems>('GET', `/payroll/items?month=2026-10&driver_id=${p.driver.id}`, p.admin)).items;
    expect([reopened.total_amount, octoberItems.some((i) => i.report_id === pendingReport)]).toEqual([72850, false]);
    expect(reopened.later_adjustments.map((a) => [a.report_id, a.late, a.date, a.amount])).toEqual([[pendingReport, true, today, 12000]]);
    expect(await driverTotal()).toBe(57600 + 12000);
    // The closed month that paid it keeps it: no change is offered or accepted.
    const edit = await send('PUT', `/reports/${pendingReport}`, p.manager, { quantity: 20 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().detail).toMatch(/^Отчёт нельзя изменить: рейс оплачен в расчёте за \S+ \d{4}, месяц закрыт/);
    expect((await json<{ closed: boolean }>('GET', `/reports/${pendingReport}`, p.manager)).closed).toBe(true);
    // October closed again stores the same figures: the load is not paid a second time.
    const again = await close('2026-10');
    expect([again.total_amount, again.loads]).toEqual([72850, 4]);
    expect(await driverTotal()).toBe(57600 + 12000);
    // Only with both months open does the payment go: the load counts in October again, still once.
    await reopen('2026-10');
    await reopen(thisMonth);
    expect((await monthOfCompany(thisMonth)).adjustments.filter((a) => a.late)).toEqual([]);
    expect((await monthOfCompany('2026-10')).total_amount).toBe(72850 + 12000);
    expect(await driverTotal()).toBe(57600 + 12000);
  });

  it('an admin’s adjustment about a load whose author’s account is gone stays his: not marked late, kept on reopen, never repriced', async () => {
    const thisMonth = localToday().slice(0, 7);
    await close('2026-10');
    const made = await json<Adjustment>('POST', '/payroll/adjustments', p.admin, { driver_id: p.driver.id, amount: 500, reason: 'Доплата за простой', report_id: approvedReport });
    // What an author's deleted account leaves elsewhere in the schema (ON DELETE SET NULL): no author.
    await s.db.kysely.updateTable('payroll_adjustments').set({ created_by: null }).where('id', '=', made.id).execute();
    const listed = async () => (await json<Adjustment[]>('GET', `/payroll/adjustments?month=${thisMonth}`, p.admin)).map((a) => [a.id, a.amount, a.late, a.reason]);
    const kept = [[made.id, 500, false, 'Доплата за простой']];
    expect(await listed()).toEqual(kept);
    // Reopening October drops only the system's late payments; the load changed in the open month moves no adjustment.
    await json('POST', '/payroll/reopen', p.superAdmin, { company_id: p.company, month: '2026-10', reason: 'ошибка в талоне' });
    expect(await listed()).toEqual(kept);
    await json('PUT', `/reports/${approvedReport}`, p.manager, { quantity: 41 });
    expect(await listed()).toEqual(kept);
  });

  it('a running month says which days and tasks a close leaves for later; a finished one says nothing', async () => {
    const today = localToday();
    const end = monthRange(today.slice(0, 7)).end;
    const later = today < end ? await createTask(s, p.company, { date: end, rate: 600 }) : null;
    const m = await json<PayrollMonth>('GET', `/payroll/?month=${today.slice(0, 7)}`, p.admin);
    if (later === null) expect(m.ahead).toBeNull();
    else expect(m.ahead).toMatchObject({ from: dayFromToday(1), to: end, count: 1, tasks: [{ id: later, date: end }] });
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).ahead).toBeNull();
  });

  /** October's stored lines, drivers' totals and whether it is closed, straight from the tables. */
  const stored = async (month: string) => ({
    lines: (await s.db.kysely.selectFrom('payroll_lines').select('report_id').where('company_id', '=', p.company).where('month', '=', month).execute()).map((l) => l.report_id),
    drivers: (await s.db.kysely.selectFrom('payroll_drivers').select('driver_id').where('company_id', '=', p.company).where('month', '=', month).execute()).length,
    closed: (await s.db.kysely.selectFrom('payroll_months').select('status').where('company_id', '=', p.company).where('month', '=', month).executeTakeFirst())?.status === 'closed',
  });

  /** A month's approved loads of the company, from the tables. */
  const loadsOf = async (month: string) =>
    (
      await s.db.kysely
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .innerJoin('tasks as t', 't.id', 'td.task_id')
        .select('r.id')
        .where('t.company_id', '=', p.company)
        .where('t.date', '>=', monthRange(month).start)
        .where('t.date', '<=', monthRange(month).end)
        .where('r.review_status', '=', 'approved')
        .execute()
    ).map((r) => r.id);

  it('a close that fails in a later slice of its month leaves it open with nothing stored; closed again, it stores every load', async () => {
    // A load late in October: its day is stored well after the 5th's and 6th's (the close stores three days at a time).
    const late = await createTask(s, p.company, { date: '2026-10-28', rate: 600 });
    const lateLoad = await addLoad(s, await addDriver(s, late, p.driver2.id, { transport_rate: 500 }), 10, { review: 'approved', ticket: 'T-late' });
    // A line already holding that load (another month's, as a damaged database might): the 28th's insert fails.
    const stray = { company_id: p.company, month: '1999-01', report_id: lateLoad, driver_id: p.driver2.id, association_id: 0, task_id: late, date: '1999-01-01', quantity: 1, rate: null, rate_source: null, month_volume: 0, amount_kop: 0, task_rate: null };
    await s.db.kysely.insertInto('payroll_lines').values(stray).execute();
    const failed = await closeMonth(p.admin, '2026-10');
    expect(failed.statusCode).toBe(500);
    // The 5th's and 6th's lines, stored before the failure, went with it: nothing of October is stored.
    expect(await stored('2026-10')).toEqual({ lines: [], drivers: 0, closed: false });
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).status).toBe('open');
    await s.db.kysely.deleteFrom('payroll_lines').where('month', '=', '1999-01').execute();
    const m = await close('2026-10');
    expect(m.loads).toBe(5);
    expect((await stored('2026-10')).lines.sort((a, b) => a - b)).toEqual((await loadsOf('2026-10')).sort((a, b) => a - b));
  });

  it('a load approved while the month closes is in the close, or paid late in the next open month, or the close is refused — never lost', async () => {
    const seen = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    const closing = closeAndWait(s.app, p.admin.auth, { month: '2026-10', confirmed: confirmedOf(seen) });
    // The review lands while the close is under way (the close yields between its slices).
    await new Promise<void>((resolve) => setImmediate(resolve));
    const approving = send('POST', `/reports/${pendingReport}/review`, p.manager, { action: 'approve' });
    const [closed, approved] = await Promise.all([closing, approving]);
    expect(approved.statusCode).toBe(200);
    const after = await stored('2026-10');
    const paidLate = await s.db.kysely.selectFrom('payroll_adjustments').select('id').where('report_id', '=', pendingReport).where('late', '=', 1).execute();
    if (closed.statusCode === 409) {
      expect(after).toEqual({ lines: [], drivers: 0, closed: false });
    } else {
      expect(closed.statusCode).toBe(200);
      expect(after.closed).toBe(true);
      // Stored by the close, or paid late: exactly one of the two.
      expect([after.lines.includes(pendingReport), paidLate.length === 1]).toContain(true);
      expect(after.lines.includes(pendingReport) && paidLate.length > 0).toBe(false);
    }
  });

  it('a close holds no long turn of the event loop: a driver’s call made while it runs is answered before it', async () => {
    const seen = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    const order: string[] = [];
    const started = await send('POST', '/payroll/close', p.admin, { month: '2026-10', confirmed: confirmedOf(seen) });
    expect(started.statusCode).toBe(202);
    const closing = s.app.payrollCloses.idle().then(() => order.push('close done'));
    const reading = send('GET', '/tasks/assigned/', p.driver).then((r) => order.push(`assigned ${r.statusCode}`));
    await Promise.all([closing, reading]);
    // The close stores its month three days at a time (11 slices for October), a turn between: the driver's few
    // statements run in between. SQLite (one thread) is where a close could hold the loop; PostgreSQL answers both.
    if (databaseUrl === undefined) expect(order).toEqual(['assigned 200', 'close done']);
    else expect(order.sort()).toEqual(['assigned 200', 'close done']);
  });

  it('a close is a job: answered at once, shown to every tab while it runs, one at a time, and followed to its end', async () => {
    const seen = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect(seen.closing).toBeNull();
    // Another admin's close of October under way (another tab, another instance): the month says so, and a second is refused.
    const now = new Date().toISOString();
    const other = await s.db.kysely
      .insertInto('payroll_closes')
      .values({ company_id: p.company, month: '2026-10', status: 'running', confirmed: '{}', user_id: p.superAdmin.id, started_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).closing).toMatchObject({ id: Number(other.id), status: 'running', user_name: p.superAdmin.name, month: '2026-10' });
    const second = await send('POST', '/payroll/close', p.admin, { month: '2026-10', confirmed: confirmedOf(seen) });
    expect(second.statusCode).toBe(409);
    expect(second.json().detail).toBe('Октябрь 2026 уже закрывается: дождитесь конца');
    // That close's process died: after STALE_MS it reads as failed, says why, and the month closes again.
    const stale = new Date(Date.now() - STALE_MS - 1_000).toISOString();
    await s.db.kysely.updateTable('payroll_closes').set({ started_at: stale }).where('id', '=', Number(other.id)).execute();
    expect((await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin)).closing).toBeNull();
    expect(await json<PayrollClose>('GET', `/payroll/closes/${other.id}`, p.admin)).toMatchObject({ status: 'failed', error: INTERRUPTED, error_status: 500 });

    const started = await send('POST', '/payroll/close', p.admin, { month: '2026-10', confirmed: confirmedOf(seen) });
    expect(started.statusCode).toBe(202);
    const job = started.json() as PayrollClose;
    expect(job).toMatchObject({ company_id: p.company, month: '2026-10', status: 'running', finished_at: null, error: null, user_name: p.admin.name });
    await s.app.payrollCloses.idle();
    const done = await json<PayrollClose>('GET', `/payroll/closes/${job.id}`, p.admin);
    expect(done).toMatchObject({ status: 'done', error: null, error_status: null });
    expect(done.finished_at! >= done.started_at).toBe(true);
    const closed = await json<PayrollMonth>('GET', `/payroll/?${october}`, p.admin);
    expect(closed).toMatchObject({ status: 'closed', closing: null, total_amount: 57600 + 15250 });
    // The stale row was ended in the table as it was read.
    expect((await s.db.kysely.selectFrom('payroll_closes').select(['status', 'error']).where('id', '=', Number(other.id)).executeTakeFirstOrThrow())).toEqual({ status: 'failed', error: INTERRUPTED });
    // Followed by the company's admins only: a manager is refused by role, another company's admin finds nothing.
    expect((await send('GET', `/payroll/closes/${job.id}`, p.manager)).statusCode).toBe(403);
    expect((await send('GET', `/payroll/closes/${job.id}`, p.superAdmin)).statusCode).toBe(200);
    const otherAdmin = await withAccessToken(s, await makeUser(s, 'admin', p.otherCompany));
    expect((await send('GET', `/payroll/closes/${job.id}`, otherAdmin)).json().detail).toBe('Закрытие месяца не найдено');
    expect((await send('GET', '/payroll/closes/999999', p.admin)).statusCode).toBe(404);
  });
});
