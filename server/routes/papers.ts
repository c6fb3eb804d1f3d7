/**
 * The handlers of a trip's papers (contract/calls/papers.ts; docs/documents.md): the facts read once
 * (server/papers/gather.ts) with the trip's timeline as GET /reports/{id} answers it, mapped to each renderer; the
 * other parties' titles received (POST /etrn/incoming: multipart or the XML as the body, parsed in this module's
 * scope), whose file ids the carrier's Т2 and Т4 cite.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { RouteModule } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { paperCalls, WAYBILL_BATCH_MAX, type ReportDocuments } from '../../contract/calls/papers.ts';
import { registerArea } from './define.ts';
import { reportFor } from '../reports/load.ts';
import { sendPdf, tripPapers } from '../papers/render.ts';
import { makeTitle, signerOf, tripOf } from '../papers/title.ts';
import { etrnFacts, waybillNumber } from '../papers/map.ts';
import { missingFacts } from '../etrn/missing.ts';
import { ETRN_TITLES, type EtrnTitle } from '../etrn/facts.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { badRequest, conflict, HttpError, notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { listCompany } from '../registers/common.ts';
import { inScope } from '../auth/guard.ts';
import { nowIso } from '../db/connect.ts';
import { IncomingRefused } from '../etrn/incoming.ts';
import { ValidatorUnavailable } from '../etrn/read.ts';
import { encodeCp1251 } from '../etrn/xml.ts';
import { incomingRow, receivedFor } from '../papers/incoming.ts';
import { readIncomingBody } from '../papers/incoming-body.ts';
import { exchangeOfTrip } from '../documents/store.ts';
import { receiveTitle } from '../papers/receive.ts';
import { CONFIRM_STEPS } from '../../contract/trips.ts';

const WHOSE: Record<EtrnTitle, { name: string; whose: string }> = {
  t1: { name: 'Т1 — сведения грузоотправителя (черновик)', whose: 'подписывает грузоотправитель' },
  t2: { name: 'Т2 — приём груза перевозчиком', whose: 'подписывает перевозчик' },
  t4: { name: 'Т4 — выдача груза перевозчиком', whose: 'подписывает перевозчик' },
};

/** The XML of a received title comes as the body itself in one of these types (read as bytes in this scope). */
const XML_TYPES = ['application/xml', 'text/xml', 'application/octet-stream'];

export const paperRoutes: RouteModule = async (app, ctx) => {
  const { db } = ctx;

  /** The trip the caller may see, its base facts, its timeline and what the received titles give the chain. */
  async function trip(user: AuthUser, id: number) {
    const report = await reportFor(db.kysely, user, id);
    return tripOf(db, report.id);
  }

  const papers = tripPapers(ctx);

  /** Many trips' waybills in one PDF, in the order given; `none` when there is no trip, 409 past the batch's cap. */
  async function batch(reply: FastifyReply, ids: number[], none: string, fileName: string) {
    if (ids.length === 0) throw notFound(none);
    if (ids.length > WAYBILL_BATCH_MAX) throw conflict(`Рейсов слишком много для одного файла (${ids.length}, не больше ${WAYBILL_BATCH_MAX}): скачайте накладные по задачам`);
    await sendPdf(reply, fileName, await papers.waybills(ids));
    return null as unknown as Blob;
  }

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart);
    scope.addContentTypeParser(XML_TYPES, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    registerArea(scope, ctx, paperCalls, {
      'GET /reports/:id/documents': async ({ user, params }): Promise<ReportDocuments> => {
        const { base, facts, chain, confirmed } = await trip(user, params.id);
        const etrn = etrnFacts(base, facts, signerOf(user), chain, confirmed);
        const exchange = await exchangeOfTrip(db, base.report.id);
        return {
          report_id: base.report.id,
          waybill_number: waybillNumber(base),
          titles: ETRN_TITLES.map((title) => {
            const missing = missingFacts(title, etrn);
            return { title, ...WHOSE[title], ready: missing.length === 0, missing, exchange: exchange.get(title) ?? null };
          }),
          received: await receivedFor(db, base.report.id, base.task.id),
          driver_confirmed: CONFIRM_STEPS.flatMap((step) => confirmed[step] ?? []),
        };
      },

      'GET /reports/:id/pod.pdf': async ({ user, params, reply }) => {
        const paper = await papers.pod((await reportFor(db.kysely, user, params.id)).id);
        await sendPdf(reply, paper.filename, paper.bytes);
        return null as unknown as Blob;
      },

      'GET /reports/:id/waybill.pdf': async ({ user, params, reply }) => {
        const paper = await papers.waybill((await reportFor(db.kysely, user, params.id)).id);
        await sendPdf(reply, paper.filename, paper.bytes);
        return null as unknown as Blob;
      },

      'GET /reports/:id/etrn/:file': async ({ user, params, reply }) => {
        const report = await reportFor(db.kysely, user, params.id);
        // Nothing is made half-filled: the answer names every missing fact.
        const { file } = await makeTitle(db, user, report.id, params.file.slice(0, 2) as EtrnTitle);
        await reply.type('application/xml; charset=windows-1251').header('content-disposition', contentDisposition(`${file.fileName}.xml`)).send(file.bytes);
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

      'POST /etrn/incoming': async ({ user, query, request, setStatus }) => {
        const body = await readIncomingBody(request, query);
        let stored;
        try {
          stored = await receiveTitle(db, user.role === 'super-admin' ? null : user.company_id, body, signerOf(user), user.id, nowIso());
        } catch (error) {
          if (error instanceof IncomingRefused) throw badRequest(error.message);
          if (error instanceof ValidatorUnavailable) throw new HttpError(503, 'Проверка титулов по схеме недоступна: на сервере не установлен xmllint (пакет libxml2-utils)');
          throw error;
        }
        if (!stored.created) setStatus(200);
        return stored.title;
      },

      'GET /etrn/incoming/:id': async ({ user, params, reply }) => {
        const row = await incomingRow(db, params.id);
        if (!row || !inScope(user, row.company_id)) throw notFound('Полученный титул не найден');
        const bytes = row.encoding === 'windows-1251' ? encodeCp1251(row.xml) : Buffer.from(row.xml, 'utf8');
        await reply.type(`application/xml; charset=${row.encoding}`).header('content-disposition', contentDisposition(row.file_name)).send(bytes);
        return null as unknown as Blob;
      },
    });
  });
};
