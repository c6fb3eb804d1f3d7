/** The handlers of the trip-sheet calls (contract/calls/trip-sheets.ts, docs/trip-sheets.md). */
import type { RouteModule } from '../context.ts';
import { tripSheetCalls } from '../../contract/calls/trip-sheets.ts';
import { registerArea } from './define.ts';
import { listCompany } from '../registers/common.ts';
import { assertStaffSeesCompany, localToday } from '../tasks/scope.ts';
import { notFound } from '../errors.ts';
import { createSheet, driverSheet, listSheets, NO_SHEET, recordOdometer, removeSheet, sheetCompany, updateSheet } from '../trip-sheets/sheets.ts';
import { loadSheet } from '../trip-sheets/sheets.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { renderTripSheet } from '../pdf/trip-sheet.ts';

export const tripSheetRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  async function staffSheet(user: Parameters<typeof assertStaffSeesCompany>[0], id: number): Promise<number> {
    const { company_id } = await sheetCompany(db, id);
    assertStaffSeesCompany(user, company_id, NO_SHEET);
    return company_id;
  }

  registerArea(app, ctx, tripSheetCalls, {
    'GET /trip-sheets/': async ({ user, query }) => listSheets(db, await listCompany(db, user, query.company_id), query),
    'POST /trip-sheets/': async ({ user, query, body }) => createSheet(db, await listCompany(db, user, query.company_id), body),
    'PUT /trip-sheets/:id': async ({ user, params: { id }, body }) => updateSheet(db, id, await staffSheet(user, id), body),
    'GET /trip-sheets/:id.pdf': async ({ user, params: { id }, reply }) => {
      const companyId = await staffSheet(user, id);
      const [sheet, company] = await Promise.all([
        loadSheet(db, id),
        db.kysely.selectFrom('companies').select(['name', 'full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone']).where('id', '=', companyId).executeTakeFirstOrThrow(),
      ]);
      const pdf = await renderTripSheet({ company, sheet });
      await reply.type('application/pdf').header('content-disposition', contentDisposition(`Путевой лист № ${sheet.number}.pdf`)).send(pdf);
      return null as unknown as Blob;
    },
    'DELETE /trip-sheets/:id': async ({ user, params: { id } }) => {
      await staffSheet(user, id);
      await removeSheet(db, id);
      return null;
    },
    'GET /trip-sheets/mine': async ({ user, query }) => driverSheet(db, user.id, query.date ?? localToday()),
    'PUT /trip-sheets/:id/odometer/:which': async ({ user, params: { id, which }, body }) => {
      const sheet = await sheetCompany(db, id);
      // Another driver's sheet is as missing as one that does not exist.
      if (sheet.driver_id !== user.id) throw notFound(NO_SHEET);
      await loadSheet(db, id);
      return recordOdometer(db, id, which, body);
    },
  });
};
