/**
 * Reports (docs/product.md §7): the outbox's idempotent multipart POST, edits, deletes, photos,
 * and daily hours. Multipart parsing is registered here only, in this module's own scope.
 */
import fastifyMultipart from '@fastify/multipart';
import type { RouteModule } from '../context.ts';
import { reportCreateSchema, reportUpdateFormSchema, reportUpdateSchema } from '../../contract/driver.ts';
import { badRequest, notFound, parse } from '../errors.ts';
import { readReportForm, multipartLimits } from '../reports/form.ts';
import { discardUploads } from '../reports/photos.ts';
import { assertDriverMayChange, assertSeesAssociation, associationScope, disputedReportsOf, loadReport, loadReports, reportFor } from '../reports/load.ts';
import { approveClean, listReports, reviewReport } from '../reports/review.ts';
import { reportFilingCalls, reportReviewCalls } from '../../contract/calls/reports.ts';
import { registerArea } from './define.ts';
import { createReport, deletePhoto, deleteReport, photoTotals, updateReport } from '../reports/write.ts';
import { listDailyHours, upsertDailyHours } from '../reports/daily-hours.ts';
import { photoFor, sendImage } from '../reports/photo-file.ts';
import { loadReportView } from '../reports/view.ts';
import { noteHistoryTask } from '../audit/history.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function idempotencyKey(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !UUID.test(key.trim())) throw badRequest('Idempotency-Key: обязательный заголовок, ожидается UUID');
  return key.trim().toLowerCase();
}

export const reportRoutes: RouteModule = async (app, ctx) => {
  registerArea(app, ctx, reportReviewCalls, {
    'GET /reports/': ({ user, query }) => listReports(ctx.db, user, query),
    'POST /reports/:id/review': ({ user, params, body }) => reviewReport(ctx.db, user, params.id, body),
    'POST /reports/review/approve-clean': ({ user, body }) => approveClean(ctx.db, user, body),
  });

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: multipartLimits });

    registerArea(scope, ctx, reportFilingCalls, {
      'POST /reports/': async ({ user, request, setStatus }) => {
        const key = idempotencyKey(request.headers);
        const form = await readReportForm(request, () => ctx.storage.uploadPath());
        try {
          const input = parse(reportCreateSchema, form.fields);
          const { report, created, taskId } = await createReport(ctx, user, key, input, form.photos);
          if (taskId !== null) noteHistoryTask(request, taskId);
          if (!created) setStatus(200);
          return report;
        } finally {
          // Stored photos were moved into storage; a refused or replayed upload's files go.
          await discardUploads(form.photos);
        }
      },

      'PUT /reports/:id': async ({ user, params, request }) => {
        const report = await reportFor(ctx.db.kysely, user, params.id);
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
      },

      'DELETE /reports/:id': async ({ user, params }) => {
        const report = await reportFor(ctx.db.kysely, user, params.id);
        assertDriverMayChange(user, report);
        await deleteReport(ctx, report);
        return null;
      },

      'DELETE /reports/:id/photo': async ({ user, params, query }) => {
        const report = await reportFor(ctx.db.kysely, user, params.id);
        assertDriverMayChange(user, report);
        if (!(await deletePhoto(ctx, report.id, query.photo_id))) throw notFound('Фото не найдено в этом отчёте');
        return null;
      },

      'GET /reports/:id': async ({ user, params }) => {
        const report = await reportFor(ctx.db.kysely, user, params.id);
        return loadReportView(ctx.db.kysely, report.id);
      },

      'GET /reports/:id/photos': async ({ user, params, query }) => {
        const report = await reportFor(ctx.db.kysely, user, params.id);
        const { photos } = await loadReport(ctx.db.kysely, report.id);
        return { photos: query.mode === 'single' ? photos.slice(0, 1) : photos };
      },

      'GET /reports/photos/:photoId': async ({ user, params, reply }) => {
        const photo = await photoFor(ctx, user, params.photoId);
        const ext = photo.mime === 'image/png' ? 'png' : photo.mime === 'image/webp' ? 'webp' : 'jpg';
        return sendImage(ctx, reply, { ...photo, filename: `photo-${photo.id}.${ext}` });
      },

      'GET /reports/association/:id': async ({ user, params }) => {
        assertSeesAssociation(user, await associationScope(ctx.db.kysely, params.id));
        return loadReports(ctx.db.kysely, { associationId: params.id });
      },

      'GET /reports/disputed/': ({ user }) => disputedReportsOf(ctx.db.kysely, user.id),

      'POST /reports/daily_hours/': ({ user, body }) => upsertDailyHours(ctx.db, user, body),

      'GET /reports/daily_hours/': ({ user, query }) => listDailyHours(ctx.db, user, query.start_date, query.end_date),
    });
  });
};
