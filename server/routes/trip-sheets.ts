/** The handlers of the trip-sheet calls (contract/calls/trip-sheets.ts, docs/trip-sheets.md). */
import type { RouteModule } from '../context.ts';
import { tripSheetCalls } from '../../contract/calls/trip-sheets.ts';
import { registerArea } from './define.ts';
import { listCompany } from '../registers/common.ts';
import { assertStaffSeesCompany, localToday } from '../tasks/scope.ts';
import { notFound } from '../errors.ts';
import { createSheet, driverSheet, importChecks, listSheets, loadSheet, NO_SHEET, odometerPhotoKey, recordOdometer, removeSheet, sheetCompany, updateSheet } from '../trip-sheets/sheets.ts';
import fastifyMultipart from '@fastify/multipart';
import { multipartLimits } from '../reports/form.ts';
import { removeFiles, storePhotos } from '../reports/photos.ts';
import { odometerSchema } from '../../contract/trip-sheets.ts';
import { withBody } from './trips.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { renderTripSheet } from '../pdf/trip-sheet.ts';

const IMAGE_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp' };

export const tripSheetRoutes: RouteModule = async (app, ctx) => {
  // The driver's reading may come as multipart with the dashboard's photo: parsed in this module's scope.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: multipartLimits });
    routes(scope, ctx);
  });
};

const routes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  async function staffSheet(user: Parameters<typeof assertStaffSeesCompany>[0], id: number): Promise<number> {
    const { company_id } = await sheetCompany(db, id);
    assertStaffSeesCompany(user, company_id, NO_SHEET);
    return company_id;
  }

  registerArea(app, ctx, tripSheetCalls, {
    'GET /trip-sheets/': async ({ user, query }) => listSheets(db, await listCompany(db, user, query.company_id), query),
    'POST /trip-sheets/': async ({ user, query, body }) => createSheet(db, await listCompany(db, user, query.company_id), body),
    'POST /trip-sheets/checks': async ({ user, query, body }) => importChecks(db, await listCompany(db, user, query.company_id), body),
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
    'PUT /trip-sheets/:id/odometer/:which': async ({ user, params: { id, which }, request }) => {
      const sheet = await sheetCompany(db, id);
      // Another driver's sheet is as missing as one that does not exist.
      if (sheet.driver_id !== user.id) throw notFound(NO_SHEET);
      return withBody(ctx, request, odometerSchema, 'one', async (body, files) => {
        const [photo] = await storePhotos(ctx.storage, files.photos);
        try {
          const { sheet: answer, photoKept } = await recordOdometer(db, id, which, body, photo?.key ?? null);
          if (photo && !photoKept) await removeFiles(ctx.storage, [photo.key]);
          return answer;
        } catch (error) {
          if (photo) await removeFiles(ctx.storage, [photo.key]);
          throw error;
        }
      });
    },
    'GET /trip-sheets/:id/odometer/:which/photo': async ({ user, params: { id, which }, reply }) => {
      const sheet = await sheetCompany(db, id);
      if (user.role === 'driver') {
        if (sheet.driver_id !== user.id) throw notFound(NO_SHEET);
      } else assertStaffSeesCompany(user, sheet.company_id, NO_SHEET);
      const key = await odometerPhotoKey(db, id, which);
      const ext = /\.[a-z]+$/.exec(key)?.[0] ?? '.jpg';
      return reply
        .type(IMAGE_TYPES[ext] ?? 'image/jpeg')
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', `inline; filename="odometer-${id}-${which}${ext}"`)
        .send(ctx.storage.read(key));
    },
  });
};
