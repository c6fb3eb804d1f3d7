/**
 * The handlers of a trip's papers (contract/calls/papers.ts; docs/documents.md): the facts read once
 * (server/papers/gather.ts) with the trip's timeline as GET /reports/{id} answers it, mapped to each renderer.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { RouteModule } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { paperCalls, WAYBILL_BATCH_MAX, type ReportDocuments } from '../../contract/calls/papers.ts';
import { ROLE_LABELS } from '../../contract/roles.ts';
import { registerArea } from './define.ts';
import { reportFor } from '../reports/load.ts';
import { tripFacts } from '../trips/facts.ts';
import { gatherTrip, type TripBase } from '../papers/gather.ts';
import { etrnFacts, paperWaybillFacts, podFacts, waybillNumber } from '../papers/map.ts';
import { renderPod } from '../pdf/pod.ts';
import { renderWaybill, renderWaybills } from '../pdf/waybill.ts';
import { BUILDERS } from '../etrn/titles.ts';
import { missingFacts, TITLE_NAMES } from '../etrn/missing.ts';
import { ETRN_TITLES, type EtrnTitle } from '../etrn/facts.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { conflict, notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { listCompany } from '../registers/common.ts';

const WHOSE: Record<EtrnTitle, { name: string; whose: string }> = {
  t1: { name: 'Т1 — сведения грузоотправителя (черновик)', whose: 'подписывает грузоотправитель' },
  t2: { name: 'Т2 — приём груза перевозчиком', whose: 'подписывает перевозчик' },
  t4: { name: 'Т4 — выдача груза перевозчиком', whose: 'подписывает перевозчик' },
};

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export const paperRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  /** The trip the caller may see, its base facts and its timeline. */
  async function trip(user: AuthUser, id: number) {
    const report = await reportFor(db.kysely, user, id);
    const [base, facts] = await Promise.all([gatherTrip(db, report.id), tripFacts(db.kysely, report.id)]);
    return { base, facts };
  }

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

  /** Many trips' waybills in one PDF, in the order given; `none` when there is no trip, 409 past the batch's cap. */
  async function batch(reply: FastifyReply, ids: number[], none: string, fileName: string) {
    if (ids.length === 0) throw notFound(none);
    if (ids.length > WAYBILL_BATCH_MAX) throw conflict(`Рейсов слишком много для одного файла (${ids.length}, не больше ${WAYBILL_BATCH_MAX}): скачайте накладные по задачам`);
    const list = [];
    for (const id of ids) {
      const [base, facts] = await Promise.all([gatherTrip(db, id), tripFacts(db.kysely, id)]);
      list.push(paperWaybillFacts(base, facts, await signatureOf(facts.acceptance.signature_url)));
    }
    await reply.type('application/pdf').header('content-disposition', contentDisposition(fileName)).send(await renderWaybills(list));
    return null as unknown as Blob;
  }

  const signer = (user: AuthUser) => ({ name: user.name, position: ROLE_LABELS[user.role] ?? 'Сотрудник' });

  registerArea(app, ctx, paperCalls, {
    'GET /reports/:id/documents': async ({ user, params }): Promise<ReportDocuments> => {
      const { base, facts } = await trip(user, params.id);
      const etrn = etrnFacts(base, facts, signer(user));
      return {
        report_id: base.report.id,
        waybill_number: waybillNumber(base),
        titles: ETRN_TITLES.map((title) => {
          const missing = missingFacts(title, etrn);
          return { title, ...WHOSE[title], ready: missing.length === 0, missing };
        }),
      };
    },

    'GET /reports/:id/pod.pdf': async ({ user, params, reply }) => {
      const { base, facts } = await trip(user, params.id);
      const pdf = await renderPod(podFacts(base, facts, await photosOf(base), await signatureOf(facts.acceptance.signature_url), new Date().toISOString()));
      await reply.type('application/pdf').header('content-disposition', contentDisposition(`Доставка, рейс ${base.report.id}.pdf`)).send(pdf);
      return null as unknown as Blob;
    },

    'GET /reports/:id/waybill.pdf': async ({ user, params, reply }) => {
      const { base, facts } = await trip(user, params.id);
      const pdf = await renderWaybill(paperWaybillFacts(base, facts, await signatureOf(facts.acceptance.signature_url)));
      await reply.type('application/pdf').header('content-disposition', contentDisposition(`ТН № ${waybillNumber(base)}.pdf`)).send(pdf);
      return null as unknown as Blob;
    },

    'GET /tasks/:id/waybills.pdf': async ({ user, params, reply }) => {
      const task = await db.kysely.selectFrom('tasks').select(['id', 'company_id']).where('id', '=', params.id).executeTakeFirst();
      if (!task) throw notFound('Задача не найдена');
      assertStaffSeesCompany(user, task.company_id, 'Задача не найдена');
      const trips = await db.kysely
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .select('r.id')
        .where('td.task_id', '=', task.id)
        .orderBy('r.id')
        .execute();
      return batch(reply, trips.map((t) => t.id), 'У задачи ещё нет рейсов: накладных нет', `ТН по задаче № ${task.id}.pdf`);
    },

    'GET /reports/waybills.pdf': async ({ user, query, reply }) => {
      const companyId = await listCompany(db, user, query.company_id);
      const trips = await db.kysely
        .selectFrom('reports as r')
        .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
        .innerJoin('tasks as t', 't.id', 'td.task_id')
        .select('r.id')
        .where('t.company_id', '=', companyId)
        .where('t.date', '=', query.date)
        .orderBy('t.id')
        .orderBy('r.id')
        .execute();
      const day = query.date.split('-').reverse().join('.');
      return batch(reply, trips.map((t) => t.id), `За ${day} рейсов нет: накладных нет`, `ТН за ${day}.pdf`);
    },

    'GET /reports/:id/etrn/:file': async ({ user, params, reply }) => {
      const { base, facts } = await trip(user, params.id);
      const title = params.file.slice(0, 2) as EtrnTitle;
      const etrn = etrnFacts(base, facts, signer(user));
      const missing = missingFacts(title, etrn);
      // Nothing is made half-filled: the answer names every missing fact.
      if (missing.length > 0) throw conflict(`Не хватает сведений для ${TITLE_NAMES[title]}: ${missing.map((m) => m.text).join('; ')}`);
      const file = BUILDERS[title](etrn);
      await reply.type('application/xml; charset=windows-1251').header('content-disposition', contentDisposition(`${file.fileName}.xml`)).send(file.bytes);
      return null as unknown as Blob;
    },
  });
};
