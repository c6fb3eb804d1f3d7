/**
 * The customer's link (docs/customer-link.md; contract/calls/customer-links.ts): staff's links and dispute answers,
 * and the public `/c/{token}/…` calls — each opens the link first (404 / 410 / 429, the view recorded), then reads
 * only that customer's trips (server/customer-links/public.ts).
 */
import type { RouteModule } from '../context.ts';
import { customerLinkCalls } from '../../contract/calls/customer-links.ts';
import { notFound } from '../errors.ts';
import { sendImage } from '../reports/photo-file.ts';
import { registerArea } from './define.ts';
import { createLink, guessLimiter, listLinks, openLink, revokeLink } from '../customer-links/links.ts';
import { publicPhoto, publicSignature, publicTrip, publicTrips } from '../customer-links/public.ts';
import { answerDispute, createDispute } from '../customer-links/disputes.ts';

export const customerLinkRoutes: RouteModule = (app, ctx) => {
  const db = ctx.db.kysely;
  const limiter = guessLimiter(ctx.db);

  /** A stored file sent as an image; one lost from storage is a 404. */
  async function sendStored(reply: Parameters<typeof sendImage>[1], file: { storage_key: string; mime: string; filename: string }) {
    const size = await ctx.storage.size(file.storage_key);
    if (size === null) throw notFound('Файл не найден');
    return sendImage(ctx, reply, { ...file, size });
  }

  registerArea(app, ctx, customerLinkCalls, {
    'POST /customer-links/': ({ user, body }) => createLink(db, user, body),
    'GET /customer-links/': ({ user, query }) => listLinks(db, user, query.counterparty_id),
    'DELETE /customer-links/:id': ({ user, params }) => revokeLink(db, user, params.id),
    'POST /customer-links/disputes/:id/answer': ({ user, params, body }) => answerDispute(db, user, params.id, body.answer),

    'GET /c/:token/trips': async ({ params, query, request }) => {
      const link = await openLink(db, limiter, params.token, request, 'Список рейсов');
      return publicTrips(db, link, params.token, query);
    },
    'GET /c/:token/trips/:report_id': async ({ params, request }) => {
      const link = await openLink(db, limiter, params.token, request, `Рейс №${params.report_id}`);
      return publicTrip(db, link, params.token, params.report_id);
    },
    'GET /c/:token/photos/:id': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Фото №${params.id}`);
      const photo = await publicPhoto(db, link, params.id);
      return sendStored(reply, { storage_key: photo.storage_key, mime: photo.mime, filename: `photo-${photo.id}` });
    },
    'GET /c/:token/signatures/:id': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Подпись №${params.id}`);
      const signature = await publicSignature(db, link, params.id);
      return sendStored(reply, { storage_key: signature.storage_key, mime: 'image/png', filename: `signature-${signature.id}.png` });
    },
    'POST /c/:token/trips/:report_id/dispute': async ({ params, body, request }) => {
      const link = await openLink(db, limiter, params.token, request, `Спор по рейсу №${params.report_id}`);
      const trip = await publicTrip(db, link, params.token, params.report_id);
      return createDispute(db, link, trip.id, body.reason, request.ip);
    },
  });
};
