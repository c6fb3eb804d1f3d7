/**
 * Wages end to end on one fixture whose sums are worked out by hand below: a ladder, transport rates, a
 * transfer from company A to company B done by B's driver, and two managers' salaries; then the xlsx
 * breakdown read back, and who may see and set a manager's salary.
 */
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeUser, makeWorld, type World } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import type { CompanyWageLoads, CompanyWages, DriverWages } from '../../contract/money.ts';
import type { ManagerWageRow, ManagerWages } from '../../contract/wages.ts';

describe.each(backends)('wages figures ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let w: World;
  let driver2: number;
  let transferId: number;
  let carrierTask: number;
  let sourceTask: number;
  const november = 'start_date=2026-11-01&end_date=2026-11-30';

  serveSuite(databaseUrl, async (server) => {
    s = server;
    w = await makeWorld(s);
  });

  beforeAll(async () => {
    const db = s.db.kysely;
    driver2 = (await makeUser(s, 'driver', w.companyA)).id;
    // Company A's ladder: 0–100 т → 450, 100–300 т → 480, from 300 т → 520.
    for (const [min, max, rate] of [[0, 100, 450], [100, 300, 480], [300, null, 520]] as const) {
      await db.insertInto('progressive_rates').values({ company_id: w.companyA, min_quantity: min, max_quantity: max, rate, created_at: nowIso() }).execute();
    }
    const task = async (company: number, date: string, rate: number, createdBy: number, quantity = 120) => {
      const id = await createTask(s, company, { date, rate, status: 'completed', planned_quantity: quantity });
      await db.updateTable('tasks').set({ created_by: createdBy }).where('id', '=', id).execute();
      return id;
    };
    // Each part done is one approved load (the money counts approved loads).
    const done = async (taskId: number, driverId: number, quantity: number, transportRate: number | null) => {
      const association = await addDriver(s, taskId, driverId, { status: 'completed', quantity, transport_rate: transportRate });
      await addLoad(s, association, quantity);
      return association;
    };

    // A's driver: 60 + 70 = 130 т in November at the ladder rate → band 100–300 → 480 ₽.
    await done(await task(w.companyA, '2026-11-03', 600, w.users.manager.id), w.users.driver.id, 60, null);
    await done(await task(w.companyA, '2026-11-10', 600, w.users.manager.id), w.users.driver.id, 70, null);
    // October: outside the period, and would otherwise lift the driver into the top band.
    await done(await task(w.companyA, '2026-10-20', 600, w.users.manager.id), w.users.driver.id, 1000, null);
    // A's second driver: 25 т at their own transport rate 400 ₽, on a task the admin created.
    await done(await task(w.companyA, '2026-11-12', 500, w.users.admin.id), driver2, 25, 400);
    // Taken, no load yet: counts nowhere.
    await addDriver(s, await task(w.companyA, '2026-11-20', 600, w.users.manager.id), w.users.driver.id, { status: 'accepted', quantity: 40 });

    // A hands 50 т of a task to B; B accepted; B's driver did the 50 т at 350 ₽ on B's carrier task (rate 550 ₽).
    sourceTask = await createTask(s, w.companyA, { date: '2026-11-15', rate: 600, planned_quantity: 80 });
    await db.updateTable('tasks').set({ created_by: w.users.manager.id }).where('id', '=', sourceTask).execute();
    carrierTask = await task(w.companyB, '2026-11-15', 550, w.users.managerB.id, 50);
    await done(carrierTask, w.users.driverB.id, 50, 350);
    const transfer = await db
      .insertInto('transfers')
      .values({
        task_id: sourceTask,
        from_company_id: w.companyA,
        to_company_id: w.companyB,
        quantity: 50,
        status: 'accepted',
        comment: null,
        created_by: w.users.manager.id,
        created_at: nowIso(),
        decided_at: nowIso(),
        carrier_task_id: carrierTask,
        decline_reason: null,
        decided_by: w.users.managerB.id,
        updated_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    transferId = transfer.id;
  });

  it('a driver: 60 × 480 + 70 × 480 = 62 400 ₽ for 130 т (the ladder read at the month’s 130 т)', async () => {
    const res = await call<DriverWages>(s, 'GET', `/api/wages/driver/${w.users.driver.id}?${november}`, { token: w.tokens.driver });
    expect(res.body.total_quantity).toBe(130);
    expect(res.body.total_amount).toBe(62400);
    expect(res.body.items.map((i) => [i.quantity, i.rate, i.rate_source, i.amount])).toEqual([
      [60, 480, 'progressive', 28800],
      [70, 480, 'progressive', 33600],
    ]);
  });

  it('company A: drivers 62 400 + 10 000 = 72 400 ₽ for 155 т; revenue 130 × 600 + 25 × 500 = 90 500 ₽; 50 т handed to B, all done', async () => {
    const res = await call<CompanyWages>(s, 'GET', `/api/wages/company/${w.companyA}?${november}`, { token: w.tokens.admin });
    expect(res.status).toBe(200);
    const a = res.body;
    expect([a.total_quantity, a.total_amount, a.revenue]).toEqual([155, 72400, 90500]);
    expect(a.drivers.map((d) => [d.driver_id, d.total_quantity, d.total_amount]).sort((x, y) => x[0]! - y[0]!)).toEqual(
      [
        [w.users.driver.id, 130, 62400],
        [driver2, 25, 10000],
      ].sort((x, y) => x[0]! - y[0]!),
    );
    expect([a.loads, a.tasks]).toEqual([3, 3]);
    // The loads one page at a time: the pages add up to the figures.
    const first = (await call<CompanyWageLoads>(s, 'GET', `/api/wages/company/${w.companyA}/loads?${november}&limit=2`, { token: w.tokens.admin })).body;
    const second = (await call<CompanyWageLoads>(s, 'GET', `/api/wages/company/${w.companyA}/loads?${november}&limit=2&offset=2`, { token: w.tokens.admin })).body;
    expect([first.count, first.results.length, second.results.length]).toEqual([3, 2, 1]);
    expect([...first.results, ...second.results].reduce((sum, i) => sum + i.amount, 0)).toBe(a.total_amount);
    expect((await call(s, 'GET', `/api/wages/company/${w.companyA}/loads?limit=500`, { token: w.tokens.admin })).status).toBe(400);
    expect((await call(s, 'GET', `/api/wages/company/${w.companyA}/loads`, { token: w.tokens.managerB })).status).toBe(404);
    expect(a.for_other_companies).toEqual([]);
    expect(a.transferred_out).toEqual([
      expect.objectContaining({ transfer_id: transferId, company_id: w.companyB, task_id: sourceTask, carrier_task_id: carrierTask, quantity: 50, completed_quantity: 50 }),
    ]);
  });

  it('company B: its driver 50 × 350 = 17 500 ₽, revenue 50 × 550 = 27 500 ₽, all of it done for company A', async () => {
    const b = (await call<CompanyWages>(s, 'GET', `/api/wages/company/${w.companyB}?${november}`, { token: w.tokens.managerB })).body;
    expect([b.total_quantity, b.total_amount, b.revenue]).toEqual([50, 17500, 27500]);
    const bLoads = (await call<CompanyWageLoads>(s, 'GET', `/api/wages/company/${w.companyB}/loads?${november}`, { token: w.tokens.managerB })).body;
    expect(bLoads.results[0]?.transfer_id).toBe(transferId);
    expect(b.for_other_companies).toEqual([
      expect.objectContaining({ transfer_id: transferId, company_id: w.companyA, carrier_task_id: carrierTask, completed_quantity: 50, drivers_amount: 17500, revenue: 27500 }),
    ]);
    expect((await call(s, 'GET', `/api/wages/company/${w.companyB}?${november}`, { token: w.tokens.manager })).status).toBe(404);
  });

  it('managers: A’s manager at 10 ₽/т × (60 + 70) т = 1 300 ₽; B’s at 12 ₽/т × 50 т = 600 ₽; no rate → 0 and said so', async () => {
    const before = (await call<ManagerWages>(s, 'GET', `/api/wages/manager/${w.users.manager.id}?${november}`, { token: w.tokens.manager })).body;
    expect([before.rate, before.total_quantity, before.total_amount]).toEqual([null, 130, 0]);

    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.manager.id}/rate`, { token: w.tokens.manager, body: { rate: 10 } })).status).toBe(403);
    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.manager.id}/rate`, { token: w.tokens.adminB, body: { rate: 10 } })).status).toBe(404);
    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.admin.id}/rate`, { token: w.tokens.admin, body: { rate: 10 } })).body.detail).toBe(
      'Свою ставку задаёт суперадминистратор',
    );
    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.manager.id}/rate`, { token: w.tokens.admin, body: { rate: -1 } })).status).toBe(400);
    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.manager.id}/rate`, { token: w.tokens.admin, body: { rate: 10 } })).status).toBe(200);
    expect((await call(s, 'PUT', `/api/wages/manager/${w.users.managerB.id}/rate`, { token: w.tokens.super, body: { rate: 12 } })).status).toBe(200);

    const a = (await call<ManagerWages>(s, 'GET', `/api/wages/manager/${w.users.manager.id}?${november}`, { token: w.tokens.manager })).body;
    expect([a.rate, a.total_quantity, a.total_amount]).toEqual([10, 130, 1300]);
    expect(a.items.map((i) => [i.completed_quantity, i.amount])).toEqual([
      [60, 600],
      [70, 700],
    ]);
    const b = (await call<ManagerWages>(s, 'GET', `/api/wages/manager/${w.users.managerB.id}?${november}`, { token: w.tokens.adminB })).body;
    expect([b.rate, b.total_quantity, b.total_amount]).toEqual([12, 50, 600]);

    // Who sees whose: a manager only themself, an admin their company's, the super-admin all.
    const colleague = await makeUser(s, 'manager', w.companyA);
    expect((await call(s, 'GET', `/api/wages/manager/${colleague.id}`, { token: w.tokens.manager })).status).toBe(403);
    expect((await call(s, 'GET', `/api/wages/manager/${w.users.managerB.id}`, { token: w.tokens.manager })).status).toBe(404);
    expect((await call(s, 'GET', `/api/wages/manager/${w.users.driver.id}`, { token: w.tokens.admin })).status).toBe(404);
    const mine = (await call<ManagerWageRow[]>(s, 'GET', `/api/wages/managers/?${november}`, { token: w.tokens.manager })).body;
    expect(mine.map((r) => r.manager_id)).toEqual([w.users.manager.id]);
    const company = (await call<ManagerWageRow[]>(s, 'GET', `/api/wages/managers/?${november}`, { token: w.tokens.admin })).body;
    expect(company.map((r) => r.manager_id).sort()).toEqual([w.users.manager.id, w.users.admin.id, colleague.id].sort());
    expect(company.find((r) => r.manager_id === w.users.manager.id)?.total_amount).toBe(1300);
    const all = (await call<ManagerWageRow[]>(s, 'GET', `/api/wages/managers/?company_id=${w.companyB}&${november}`, { token: w.tokens.super })).body;
    expect(all.map((r) => r.manager_id).sort()).toEqual([w.users.managerB.id, w.users.adminB.id].sort());
  });

  it('exports each breakdown as xlsx whose rows add up to the total', async () => {
    const res = await s.app.inject({ method: 'GET', url: `/api/wages/company/${w.companyA}?${november}&format=xlsx`, headers: { authorization: `Bearer ${w.tokens.admin}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain("filename*=UTF-8''");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(5).value).toBe('Водитель');
    const amounts: number[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(4).value !== 'Итого') amounts.push(Number(row.getCell(9).value));
    });
    expect(amounts.reduce((a, b) => a + b, 0)).toBe(72400);
    const total = sheet.getRow(sheet.rowCount);
    expect([total.getCell(4).value, total.getCell(9).value, total.getCell(11).value, total.getCell(12).value]).toEqual(['Итого', 72400, 90500, 90500 - 72400]);

    for (const url of [`/api/wages/driver/${w.users.driver.id}`, `/api/wages/manager/${w.users.manager.id}`]) {
      const file = await s.app.inject({ method: 'GET', url: `${url}?${november}&format=xlsx`, headers: { authorization: `Bearer ${w.tokens.admin}` } });
      expect(file.statusCode, url).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      expect(wb.worksheets[0]?.rowCount, url).toBe(4);
    }
    expect((await call(s, 'GET', `/api/wages/driver/${w.users.driver.id}?format=pdf`, { token: w.tokens.admin })).status).toBe(400);
  });
});
