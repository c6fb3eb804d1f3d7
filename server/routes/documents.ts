/**
 * The exchange's calls (contract/calls/documents.ts; docs/documents.md «The exchange»): the «Документы» list, a
 * title's moves, its frozen file, and the operator adapter's two doors — a day's zip and the answers uploaded.
 */
import type { RouteModule } from '../context.ts';
import { documentCalls } from '../../contract/calls/documents.ts';
import { registerArea } from './define.ts';
import { annul, companyFor, createDocument, frozenFile, listDocuments, loadDocument, markReady, markReadyMany } from '../documents/store.ts';
import { applyAnswers, exportDay } from '../documents/exchange.ts';
import { filesAdapter } from '../documents/files-adapter.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { encodeCp1251 } from '../etrn/xml.ts';
import { conflict } from '../errors.ts';
import { startOperatorJob } from '../documents/operator-job.ts';
import { apiOf, diadocOf } from '../documents/operator-settings.ts';
import type { DocumentExchange, OperatorRun } from '../../contract/documents.ts';

export const documentRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  // The files adapter for every company but those whose operator is Диадок's API (their saved setting, or the
  // environment's company: server/documents/operator-settings.ts); those a job serves, each with its own box.
  const adapter = filesAdapter;
  const env = ctx.config.diadoc;
  const api = apiOf(ctx.config.diadocApi);
  const job = startOperatorJob(db, env, { timer: ctx.config.operatorJob !== false, api });
  app.addHook('onClose', async () => job.close());

  async function exchangeOf(company: number | null): Promise<DocumentExchange> {
    const diadoc = company === null ? null : await diadocOf(db, company, env, api);
    if (company === null || !diadoc) return { adapter: 'files', box_id: null, last_run: null };
    const run = await db.kysely.selectFrom('etrn_operator_runs').select('result').where('company_id', '=', company).executeTakeFirst();
    return { adapter: 'diadoc', box_id: diadoc.boxId, last_run: run ? (JSON.parse(run.result) as OperatorRun) : null };
  }

  registerArea(app, ctx, documentCalls, {
    'GET /documents/': async ({ user, query }) => ({ ...(await listDocuments(db, user, query)), exchange: await exchangeOf(await companyFor(db, user, query.company_id)) }),
    'POST /documents/': ({ user, body }) => createDocument(db, user, body),
    'GET /documents/export': async ({ user, query, reply }) => {
      const company = await companyFor(db, user, query.company_id);
      if (company !== null && (await diadocOf(db, company, env, api))) {
        throw conflict('Документы компании отправляет Диадок по API (фоновая задача): выгрузка файлов для неё выключена');
      }
      const day = await exportDay(db, user, adapter, query);
      if (day.receipt.kind !== 'file') throw new Error('the files adapter answers a file');
      await reply
        .type('application/zip')
        .header('content-disposition', contentDisposition(day.receipt.name))
        .header('x-documents-sent', String(day.sent))
        .header('x-documents-resent', String(day.resent))
        .send(Buffer.from(day.receipt.bytes));
      return null as unknown as Blob;
    },
    'POST /documents/answers': ({ user, body }) =>
      applyAnswers(db, user, adapter, { company_id: body.company_id, files: body.files.map((f) => ({ name: f.name, bytes: Buffer.from(f.data, 'base64') })) }),
    'POST /documents/ready': ({ user, body }) => markReadyMany(db, user, body.ids),
    'POST /documents/:id/ready': ({ user, params }) => markReady(db, user, params.id),
    'POST /documents/:id/annul': ({ user, params, body }) => annul(db, user, params.id, body.reason),
    'GET /documents/:id/file.xml': async ({ user, params, reply }) => {
      await loadDocument(db, user, params.id);
      const file = await frozenFile(db, user, params.id);
      await reply.type('application/xml; charset=windows-1251').header('content-disposition', contentDisposition(`${file.fileName}.xml`)).send(encodeCp1251(file.xml));
      return null as unknown as Blob;
    },
  });
};
