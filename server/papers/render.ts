/**
 * A trip's papers rendered (docs/documents.md): the proof of delivery and the paper waybill as PDF bytes with their
 * file names, from the facts read once (gather.ts) and the trip's timeline. Who may ask is the caller's business:
 * staff through /reports/{id}/… (server/routes/papers.ts), the customer through his link (routes/customer-links.ts).
 */
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../exports/workbook.ts';
import type { AppContext } from '../context.ts';
import type { TripBase } from './gather.ts';
import { tripOf } from './title.ts';
import { paperWaybillFacts, podFacts, waybillNumber } from './map.ts';
import { renderPod } from '../pdf/pod.ts';
import { renderWaybill, renderWaybills } from '../pdf/waybill.ts';

export async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** PDF bytes sent as a download named `filename`. */
export async function sendPdf(reply: FastifyReply, filename: string, bytes: Buffer): Promise<void> {
  await reply.type('application/pdf').header('content-disposition', contentDisposition(filename)).send(bytes);
}

export interface RenderedPaper {
  filename: string;
  bytes: Buffer;
}

export function tripPapers(ctx: Pick<AppContext, 'db' | 'storage'>) {
  const { db } = ctx;

  /** The trip's base facts, its timeline and its chain (server/papers/title.ts). */
  const trip = (reportId: number) => tripOf(db, reportId);

  /** The receiver's signature image of the trip, when there is one on file. */
  async function signatureOf(signatureUrl: string | null): Promise<Buffer | null> {
    const id = Number(/\/acceptance\/(\d+)\/signature$/.exec(signatureUrl ?? '')?.[1]);
    if (!Number.isInteger(id) || id <= 0) return null;
    const row = await db.kysely.selectFrom('trip_acceptances').select('signature_key').where('id', '=', id).executeTakeFirst();
    if (!row?.signature_key) return null;
    try {
      return await bytesOf(ctx.storage.read(row.signature_key));
    } catch {
      return null;
    }
  }

  async function photosOf(base: TripBase) {
    const photos = [];
    for (const [i, key] of base.report.photo_keys.entries()) {
      try {
        photos.push({ data: await bytesOf(ctx.storage.read(key)), caption: `Фото ${i + 1}` });
      } catch {
        // A photo let go by the retention rule (or lost) leaves the paper without it, not the paper undone.
      }
    }
    return photos;
  }

  return {
    trip,
    /** The proof of delivery of a trip the caller may see. */
    async pod(reportId: number): Promise<RenderedPaper> {
      const { base, facts } = await trip(reportId);
      const bytes = await renderPod(podFacts(base, facts, await photosOf(base), await signatureOf(facts.acceptance.signature_url), new Date().toISOString()));
      return { filename: `Доставка, рейс ${base.report.id}.pdf`, bytes };
    },
    /** The paper transport waybill of a trip the caller may see. */
    async waybill(reportId: number): Promise<RenderedPaper> {
      const { base, facts } = await trip(reportId);
      const bytes = await renderWaybill(paperWaybillFacts(base, facts, await signatureOf(facts.acceptance.signature_url)));
      return { filename: `ТН № ${waybillNumber(base)}.pdf`, bytes };
    },
    /** Many trips' paper waybills in one PDF, in the order given (each waybill counts its own sheets). */
    async waybills(reportIds: readonly number[]): Promise<Buffer> {
      const list = [];
      for (const id of reportIds) {
        const { base, facts } = await trip(id);
        list.push(paperWaybillFacts(base, facts, await signatureOf(facts.acceptance.signature_url)));
      }
      return renderWaybills(list);
    },
  };
}
