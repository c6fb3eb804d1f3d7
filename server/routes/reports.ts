/**
 * Reports (SPEC.md section 7, Reports): the outbox's idempotent multipart POST, edits, deletes, photos,
 * and daily hours. Multipart parsing is registered here only, in this module's own scope.
 */
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { ALL_ROLES, DRIVER_ONLY } from '../../contract/roles.ts';
import { dailyHoursSchema, reportCreateSchema, reportUpdateFormSchema, reportUpdateSchema, wagesQuerySchema } from '../../contract/driver.ts';
import { badRequest, idParam, notFound, parse } from '../errors.ts';
import { readReportForm, multipartLimits } from '../reports/form.ts';
import { discardUploads } from '../reports/photos.ts';
import { assertDriverMayChange, assertSeesAssociation, associationScope, loadReport, loadReports, reportFor } from '../reports/load.ts';
import { approveClean, listReports, reviewReport } from '../reports/review.ts';
import { reportCalls } from '../../contract/calls/reports.ts';
import { registerArea } from './define.ts';
import { createReport, deletePhoto, deleteReport, photoTotals, updateReport } from '../reports/write.ts';
import { listDailyHours, upsertDailyHours } from '../reports/daily-hours.ts';
import { photoFor } from '../reports/photo-file.ts';
import { loadReportView } from '../reports/view.ts';
import { currentUser } from '../auth/guard.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const photosQuerySchema = z.object({ mode: z.enum(['single', 'all'], { message: 'ожидается single или all' }).default('single') });
const photoIdQuerySchema = z.object({ photo_id: z.coerce.number({ message: 'ожидается число' }).int().positive() });

function idempotencyKey(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !UUID.test(key.trim())) throw badRequest('Idempotency-Key: обязательный заголовок, ожидается UUID');
  return key.trim().toLowerCase();
}

export const reportRoutes: RouteModule = async (app, ctx) => {
  registerArea(app, ctx, reportCalls, {
    'GET /reports/': ({ user, query }) => listReports(ctx.db, user, query),
    'POST /reports/:id/review': ({ user, params, body }) => reviewReport(ctx.db, user, params.id, body),
    'POST /reports/review/approve-clean': ({ user, body }) => approveClean(ctx.db, user, body),
  });

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: multipartLimits });
    const driver = { preHandler: ctx.guard(DRIVER_ONLY) };
    const anyone = { preHandler: ctx.guard(ALL_ROLES) };

    scope.post('/reports/', driver, async (request, reply) => {
      const user = currentUser(request);
      const key = idempotencyKey(request.headers);
      const form = await readReportForm(request, () => ctx.storage.uploadPath());
      try {
        const input = parse(reportCreateSchema, form.fields);
        const { report, created } = await createReport(ctx, user, key, input, form.photos);
        return reply.status(created ? 201 : 200).send(report);
      } finally {
        // Stored photos were moved into storage; a refused or replayed upload's files go.
        await discardUploads(form.photos);
      }
    });

    scope.put('/reports/:id', anyone, async (request) => {
      const user = currentUser(request);
      const report = await reportFor(ctx.db.kysely, user, idParam(request.params));
      assertDriverMayChange(user, report);
      // A driver's correction answers a dispute: the report waits for review again.
      const corrected = user.role === 'driver' && report.review_status === 'disputed';
      // JSON edits the fields only (numbers as numbers); multipart, all text, may also add photos.
      if (!request.isMultipart()) return updateReport(ctx, report, parse(reportUpdateSchema, request.body), [], corrected);
      const form = await readReportForm(request, () => ctx.storage.uploadPath(), await photoTotals(ctx.db.kysely, report.id));
      try {
        return await updateReport(ctx, report, parse(reportUpdateFormSchema, form.fields), form.photos, corrected);
      } finally {
        await discardUploads(form.photos);
      }
    });

    scope.delete('/reports/:id', anyone, async (request, reply) => {
      const user = currentUser(request);
      const report = await reportFor(ctx.db.kysely, user, idParam(request.params));
      assertDriverMayChange(user, report);
      await deleteReport(ctx, report);
      return reply.status(204).send();
    });

    scope.delete('/reports/:id/photo', anyone, async (request, reply) => {
      const user = currentUser(request);
      const report = await reportFor(ctx.db.kysely, user, idParam(request.params));
      assertDriverMayChange(user, report);
      const { photo_id } = parse(photoIdQuerySchema, request.query);
      if (!(await deletePhoto(ctx, report.id, photo_id))) throw notFound('Фото не найдено в этом отчёте');
      return reply.status(204).send();
    });

    scope.get('/reports/:id', anyone, async (request) => {
      const report = await reportFor(ctx.db.kysely, currentUser(request), idParam(request.params));
      return loadReportView(ctx.db.kysely, report.id);
    });

    scope.get('/reports/:id/photos', anyone, async (request) => {
      const report = await reportFor(ctx.db.kysely, currentUser(request), idParam(request.params));
      const { mode } = parse(photosQuerySchema, request.query);
      const { photos } = await loadReport(ctx.db.kysely, report.id);
      return { photos: mode === 'single' ? photos.slice(0, 1) : photos };
    });

    scope.get('/reports/photos/:photoId', anyone, async (request, reply) => {
      const photo = await photoFor(ctx, currentUser(request), idParam(request.params, 'photoId'));
      const ext = photo.mime === 'image/png' ? 'png' : photo.mime === 'image/webp' ? 'webp' : 'jpg';
      return reply
        .type(photo.mime)
        .header('content-length', photo.size)
        .header('cache-control', 'private, max-age=86400, immutable')
        // A stored file is only ever an image: never sniffed, never run as a page, named when saved.
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
        .header('content-disposition', `inline; filename="photo-${photo.id}.${ext}"`)
        .send(ctx.storage.read(photo.storage_key));
    });

    scope.get('/reports/association/:id', anyone, async (request) => {
      const associationId = idParam(request.params);
      assertSeesAssociation(currentUser(request), await associationScope(ctx.db.kysely, associationId));
      return loadReports(ctx.db.kysely, { associationId });
    });

    scope.post('/reports/daily_hours/', driver, async (request) =>
      upsertDailyHours(ctx.db, currentUser(request), parse(dailyHoursSchema, request.body)),
    );

    scope.get('/reports/daily_hours/', driver, async (request) => {
      const { start_date, end_date } = parse(wagesQuerySchema, request.query);
      return listDailyHours(ctx.db, currentUser(request), start_date, end_date);
    });
  });
};
