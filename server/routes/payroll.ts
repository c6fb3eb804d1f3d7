/** The handlers of the payroll calls (contract/calls/payroll.ts); the rules in WAGES.md «Расчёт с водителями». */
import { PassThrough } from 'node:stream';
import type { RouteModule } from '../context.ts';
import { payrollCalls } from '../../contract/calls/payroll.ts';
import { forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { assertStaffSeesCompany, isDriver, isSuperAdmin, staffCompany } from '../tasks/scope.ts';
import { XLSX, contentDisposition } from '../exports/workbook.ts';
import { addAdjustment, driverClosedMonths, payrollItems, payrollMonth, payrollSheet, storedItems } from '../payroll/payroll.ts';
import { reopenMonth } from '../payroll/close.ts';
import { payrollFileName } from '../payroll/sheet.ts';
import { isClosed } from '../payroll/months.ts';
import { listAdjustments } from '../payroll/adjustments.ts';
import { monthRange } from '../../contract/money.ts';

export const payrollRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, payrollCalls, {
    'GET /payroll/': async ({ user, query }) => payrollMonth(db, await staffCompany(db, user, query.company_id), query.month),

    'GET /payroll/items': async ({ user, query }) => {
      const company = await staffCompany(db, user, query.company_id);
      return payrollItems(db, company.id, query.month, query.driver_id);
    },

    // A job (payroll/close-jobs.ts): answered at once, followed by GET /payroll/closes/{id}.
    'POST /payroll/close': async ({ user, body }) => ctx.payrollCloses.start(user, await staffCompany(db, user, body.company_id), body.month, body.confirmed),

    'GET /payroll/closes/:id': async ({ user, params }) => ctx.payrollCloses.get(params.id, isSuperAdmin(user) ? null : (user.company_id ?? -1)),

    'POST /payroll/reopen': async ({ user, body }) => {
      const company = await staffCompany(db, user, body.company_id);
      await reopenMonth(db, user, company, body.month, body.reason);
      return payrollMonth(db, company, body.month);
    },

    'GET /payroll/:company_id/:month/sheet': async ({ user, params, reply }) => {
      const { month, write } = await payrollSheet(db, await staffCompany(db, user, params.company_id), params.month);
      const stream = new PassThrough();
      write(stream).catch((error: unknown) => stream.destroy(error as Error));
      return reply.type(XLSX).header('content-disposition', contentDisposition(payrollFileName(month))).send(stream);
    },

    'GET /payroll/adjustments': async ({ user, query }) => {
      const company = await staffCompany(db, user, query.company_id);
      return listAdjustments(db.kysely, { companyId: company.id, ...(query.driver_id ? { driverId: query.driver_id } : {}), ...(query.month ? { start_date: monthRange(query.month).start, end_date: monthRange(query.month).end } : {}) });
    },

    'POST /payroll/adjustments': async ({ user, body }) => addAdjustment(db, user, await staffCompany(db, user, body.company_id), body),

    'GET /payroll/driver/:id': async ({ user, params }) => {
      if (isDriver(user)) {
        if (params.id !== user.id) throw forbidden('Можно смотреть только свои расчёты');
        return driverClosedMonths(db, params.id);
      }
      const driver = await db.kysely.selectFrom('users').select(['company_id']).where('id', '=', params.id).where('role', '=', 'driver').executeTakeFirst();
      if (!driver) throw notFound('Водитель не найден');
      if (isSuperAdmin(user)) return driverClosedMonths(db, params.id);
      // Staff read their own company's months only: a driver who moved keeps his old company's months there.
      const months = await driverClosedMonths(db, params.id, user.company_id ?? -1);
      if (months.length === 0) assertStaffSeesCompany(user, driver.company_id ?? -1, 'Водитель не найден');
      return months;
    },

    'GET /payroll/driver/:id/:company_id/:month': async ({ user, params }) => {
      if (isDriver(user) && params.id !== user.id) throw forbidden('Можно смотреть только свои расчёты');
      // Staff read their own company's months only (as the list above).
      if (!isDriver(user) && !isSuperAdmin(user) && params.company_id !== user.company_id) throw notFound('Водитель не найден');
      if (!(await isClosed(db.kysely, params.company_id, params.month))) throw notFound('Месяц не закрыт: начисления за него — в расчёте с водителями');
      return storedItems(db.kysely, params.company_id, params.month, params.id);
    },
  });
};
