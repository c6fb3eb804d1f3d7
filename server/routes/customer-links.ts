/**
 * The customer's link (docs/customer-link.md; contract/calls/customer-links.ts): staff's links and dispute answers,
 * and the public `/c/{token}/…` calls — each opens the link first (404 / 410 / 429, the view recorded), then reads
 * only that customer's trips (server/customer-links/public.ts).
 */
import type { RouteModule } from '../context.ts';
import { customerLinkCalls } from '../../contract/calls/customer-links.ts';
import { badRequest, notFound } from '../errors.ts';
import { sendImage } from '../reports/photo-file.ts';
import { registerArea } from './define.ts';
import { createLink, guessLimiter, listLinks, openLink, revokeLink } from '../customer-links/links.ts';
import { publicPhoto, publicSignature, publicTrip, publicTrips } from '../customer-links/public.ts';
import { answerDispute, createDispute } from '../customer-links/disputes.ts';
import { buildStatement, linkCustomer } from '../statements/statement.ts';
import { customerInvoice, customerInvoices, daysBetween } from '../statements/invoices.ts';
import { sendInvoicePaper, sendStatement } from '../statements/send.ts';
import { sendPdf, tripPapers } from '../papers/render.ts';
import { PUBLIC_STATEMENT_MAX_DAYS, type PublicInvoice } from '../../contract/customer-links.ts';

export const customerLinkRoutes: RouteModule = (app, ctx) => {
  const db = ctx.db.kysely;
  const limiter = guessLimiter(ctx.db);
  const papers = tripPapers(ctx);
  const dmy = (iso: string) => iso.split('-').reverse().join('.');

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

    // Downloads: each opens the link (recorded as a view with what was downloaded), then finds only his papers.
    'GET /c/:token/statement': async ({ params, query, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Реестр ${query.format.toUpperCase()} ${dmy(query.from)}–${dmy(query.to)}`);
      if (daysBetween(query.from, query.to) >= PUBLIC_STATEMENT_MAX_DAYS) throw badRequest(`Период: не длиннее ${PUBLIC_STATEMENT_MAX_DAYS} дней`);
      const customer = await linkCustomer(ctx.db, link);
      const { billed: _billed, ...statement } = await buildStatement(ctx.db, customer, query.from, query.to);
      await sendStatement(ctx.db, reply, customer, statement, query.format);
      return null as unknown as Blob;
    },
    'GET /c/:token/invoices': async ({ params, request }) => {
      const link = await openLink(db, limiter, params.token, request, 'Акты и счета');
      const base = `/api/c/${params.token}/invoices`;
      return (await customerInvoices(ctx.db, link.company_id, link.counterparty_id)).map(
        (i): PublicInvoice => ({
          id: i.id,
          number: i.number,
          year: i.year,
          issued_on: i.issued_on,
          from: i.from,
          to: i.to,
          total: i.total,
          state: i.state,
          paid_on: i.paid_on,
          act_url: `${base}/${i.id}/act.pdf`,
          invoice_url: `${base}/${i.id}/invoice.pdf`,
        }),
      );
    },
    'GET /c/:token/invoices/:id/act.pdf': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Акт PDF, код ${params.id}`);
      await sendInvoicePaper(reply, await customerInvoice(ctx.db, link.company_id, link.counterparty_id, params.id), 'act');
      return null as unknown as Blob;
    },
    'GET /c/:token/invoices/:id/invoice.pdf': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Счёт PDF, код ${params.id}`);
      await sendInvoicePaper(reply, await customerInvoice(ctx.db, link.company_id, link.counterparty_id, params.id), 'invoice');
      return null as unknown as Blob;
    },
    'GET /c/:token/trips/:report_id/pod.pdf': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Доставка PDF, рейс №${params.report_id}`);
      const trip = await publicTrip(db, link, params.token, params.report_id);
      const paper = await papers.pod(trip.id);
      await sendPdf(reply, paper.filename, paper.bytes);
      return null as unknown as Blob;
    },
    'GET /c/:token/trips/:report_id/waybill.pdf': async ({ params, request, reply }) => {
      const link = await openLink(db, limiter, params.token, request, `Накладная PDF, рейс №${params.report_id}`);
      const trip = await publicTrip(db, link, params.token, params.report_id);
      const paper = await papers.waybill(trip.id);
      await sendPdf(reply, paper.filename, paper.bytes);
      return null as unknown as Blob;
    },
  });
};
