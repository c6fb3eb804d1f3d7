/**
 * Wages (docs/product.md §7): a driver's earnings, a company's figures, a manager's salary — each for an optional period,
 * as JSON or, with `?format=xlsx`, as the breakdown in a streamed workbook. Also the list of managers' salaries
 * and the manager's rate. The rules and who sees what: WAGES.md beside this file; the calls are declared in
 * contract/calls/wages.ts.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { RouteModule } from '../context.ts';
import { wageCalls } from '../../contract/calls/wages.ts';
import { rateSourceText } from '../../contract/words.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { XLSX, contentDisposition, createSheetWriter, filePeriod, type ExportCell, type SheetColumn } from '../exports/workbook.ts';
import { companyWageSheet, driverWages, managerWageRows, managerWages, type Period, type StaffRow } from '../wages/compute.ts';
import { companyStatistics } from '../wages/statistics.ts';
import { companyLoads } from '../wages/company-loads.ts';
import { assertStaffSeesCompany, isDriver } from '../tasks/scope.ts';

function periodLabel(p: Period): string {
  return filePeriod(p.start_date, p.end_date);
}

const dateCell = (iso: string): Date => new Date(`${iso}T00:00:00Z`);

/** Streams one sheet as an attachment: rows are written while the client reads; settles once it is sent. */
async function sendSheet(reply: FastifyReply, filename: string, sheetName: string, columns: readonly SheetColumn[], rows: readonly ExportCell[][]): Promise<void> {
  const stream = new PassThrough();
  const sheet = createSheetWriter(stream, sheetName, columns);
  void (async () => {
    try {
      for (const row of rows) await sheet.addRow(row);
      await sheet.finish();
    } catch (error) {
      stream.destroy(error as Error);
    }
  })();
  await reply.type(XLSX).header('content-disposition', contentDisposition(filename)).send(stream);
}

const money = '#,##0.00';

function staffQuery(db: Db) {
  return db.kysely
    .selectFrom('users as u')
    .leftJoin('companies as c', 'c.id', 'u.company_id')
    .select(['u.id', 'u.name', 'u.role', 'u.company_id', 'c.name as company_name'])
    .where('u.role', 'in', ['manager', 'admin']);
}

/**
 * Whose salary the caller may see: a manager their own; an admin the managers and admins of their company;
 * the super-admin everyone. Another company's manager is 404; a colleague's salary is 403 for a manager.
 */
async function visibleManager(db: Db, user: AuthUser, id: number): Promise<StaffRow> {
  const manager = await staffQuery(db).where('u.id', '=', id).executeTakeFirst();
  if (!manager) throw notFound('Менеджер не найден');
  if (user.role === 'super-admin') return manager;
  assertStaffSeesCompany(user, manager.company_id ?? -1, 'Менеджер не найден');
  if (user.role === 'manager' && manager.id !== user.id) throw forbidden('Менеджер видит только свою зарплату');
  return manager;
}

export const wageRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, wageCalls, {
    'GET /wages/driver/:id': async ({ user, params, query, reply }) => {
      const driverId = params.id;
      const driver = await db.kysely
        .selectFrom('users')
        .select(['id', 'name', 'company_id'])
        .where('id', '=', driverId)
        .where('role', '=', 'driver')
        .executeTakeFirst();
      if (isDriver(user)) {
        if (driverId !== user.id) throw forbidden('Можно смотреть только свой заработок');
      } else {
        if (!driver) throw notFound('Водитель не найден');
        assertStaffSeesCompany(user, driver.company_id ?? -1, 'Водитель не найден');
      }
      const wages = await driverWages(db, driverId, query);
      if (query.format !== 'xlsx') return wages;
      await sendSheet(
        reply,
        `Заработок — ${driver?.name ?? driverId}, ${periodLabel(query)}.xlsx`,
        'Заработок',
        [
          { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
          { header: '№ задачи', key: 'task', width: 10 },
          { header: '№ отчёта', key: 'report', width: 10 },
          { header: 'Груз', key: 'cargo', width: 30 },
          { header: 'Талон', key: 'ticket', width: 14 },
          { header: 'Рейсов', key: 'trips', width: 8 },
          { header: 'Доставлено', key: 'quantity', width: 12 },
          { header: 'Ставка, ₽', key: 'rate', width: 11, numFmt: money },
          { header: 'Откуда ставка', key: 'source', width: 30 },
          { header: 'Сумма, ₽', key: 'amount', width: 13, numFmt: money },
        ],
        [
          ...wages.items.map((i) => [dateCell(i.date), i.task_id, i.report_id, i.cargo, i.ticket_number, i.trips, i.quantity, i.rate, rateSourceText(i), i.amount]),
          ...wages.adjustments.map((a) => [dateCell(a.date), null, a.report_id, `Корректировка: ${a.reason}`, null, null, null, null, null, a.amount]),
          [null, null, null, 'Итого', null, null, wages.total_quantity, null, null, wages.total_amount],
        ],
      );
      return wages;
    },

    'GET /wages/company/:id': async ({ user, params, query, reply }) => {
      const companyId = params.id;
      const company = await db.kysely.selectFrom('companies').select(['id', 'name']).where('id', '=', companyId).executeTakeFirst();
      if (!company) throw notFound('Компания не найдена');
      assertStaffSeesCompany(user, companyId, 'Компания не найдена');
      const wages = await companyStatistics(db, companyId, query);
      if (query.format !== 'xlsx') return wages;
      const sheet = await companyWageSheet(db, companyId, query);
      await sendSheet(
        reply,
        `${company.name}, начисления ${periodLabel(query)}.xlsx`,
        'Начисления',
        [
          { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
          { header: '№ задачи', key: 'task', width: 10 },
          { header: '№ отчёта', key: 'report', width: 10 },
          { header: 'Груз', key: 'cargo', width: 28 },
          { header: 'Водитель', key: 'driver', width: 24 },
          { header: 'Талон', key: 'ticket', width: 14 },
          { header: 'Доставлено', key: 'quantity', width: 12 },
          { header: 'Ставка водителя, ₽', key: 'rate', width: 14, numFmt: money },
          { header: 'Водителю, ₽', key: 'amount', width: 13, numFmt: money },
          { header: 'Цена задачи, ₽', key: 'task_rate', width: 14, numFmt: money },
          { header: 'Выручка, ₽', key: 'revenue', width: 13, numFmt: money },
          { header: 'Маржа, ₽', key: 'margin', width: 13, numFmt: money },
          { header: 'По передаче №', key: 'transfer', width: 13 },
        ],
        [
          ...sheet.items.map((i) => [dateCell(i.date), i.task_id, i.report_id, i.cargo, i.driver_name, i.ticket_number, i.quantity, i.rate, i.amount, i.task_rate, i.revenue, i.margin, i.transfer_id]),
          ...sheet.adjustments.map((a) => [dateCell(a.date), null, a.report_id, `Корректировка: ${a.reason}`, a.driver_name, null, null, null, a.amount, null, null, -a.amount, null]),
          [null, null, null, 'Итого', null, null, wages.total_quantity, null, wages.total_amount, null, wages.revenue, wages.margin, null],
        ],
      );
      return wages;
    },

    'GET /wages/company/:id/loads': async ({ user, params, query: { start_date, end_date, limit, offset } }) => {
      const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', params.id).executeTakeFirst();
      if (!company) throw notFound('Компания не найдена');
      assertStaffSeesCompany(user, company.id, 'Компания не найдена');
      return companyLoads(db, company.id, { start_date, end_date, limit, offset });
    },

    'GET /wages/manager/:id': async ({ user, params, query, reply }) => {
      const manager = await visibleManager(db, user, params.id);
      const wages = await managerWages(db, manager, query);
      if (query.format !== 'xlsx') return wages;
      await sendSheet(
        reply,
        `Зарплата — ${manager.name}, ${periodLabel(query)}.xlsx`,
        'Зарплата',
        [
          { header: 'Дата', key: 'date', width: 12, numFmt: 'dd.mm.yyyy' },
          { header: '№ задачи', key: 'task', width: 10 },
          { header: 'Груз', key: 'cargo', width: 30 },
          { header: 'Выполнено', key: 'quantity', width: 12 },
          { header: 'Ед.', key: 'unit', width: 6 },
          { header: 'Ставка, ₽', key: 'rate', width: 11, numFmt: money },
          { header: 'Сумма, ₽', key: 'amount', width: 13, numFmt: money },
        ],
        [
          ...wages.items.map((i) => [dateCell(i.date), i.task_id, i.cargo, i.completed_quantity, i.unit, wages.rate, i.amount]),
          [null, null, 'Итого', wages.total_quantity, null, wages.rate, wages.total_amount],
        ],
      );
      return wages;
    },

    'GET /wages/managers/': async ({ user, query: { company_id: companyId, ...period } }) => {
      let q = staffQuery(db).where('u.is_active', '=', 1);
      if (user.role === 'manager') q = q.where('u.id', '=', user.id);
      else if (user.role === 'admin') q = q.where('u.company_id', '=', user.company_id ?? -1);
      else if (companyId !== undefined) q = q.where('u.company_id', '=', companyId);
      const managers = await q.orderBy('c.name').orderBy('u.name').orderBy('u.id').execute();
      return managerWageRows(db, managers, period);
    },

    'PUT /wages/manager/:id/rate': async ({ user, params, body: { rate } }) => {
      const manager = await visibleManager(db, user, params.id);
      if (manager.id === user.id) throw forbidden('Свою ставку задаёт суперадминистратор');
      if (rate === null) {
        await db.kysely.deleteFrom('manager_rates').where('manager_id', '=', manager.id).execute();
      } else {
        const now = nowIso();
        await db.kysely
          .insertInto('manager_rates')
          .values({ manager_id: manager.id, rate, updated_by: user.id, updated_at: now })
          .onConflict((oc) => oc.column('manager_id').doUpdateSet({ rate, updated_by: user.id, updated_at: now }))
          .execute();
      }
      return managerWages(db, manager, {});
    },
  });
};
