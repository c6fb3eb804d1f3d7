/**
 * The handlers of a trip's papers (contract/calls/papers.ts; docs/documents.md): the facts read once
 * (server/papers/gather.ts) with the trip's timeline as GET /reports/{id} answers it, mapped to each renderer.
 */
import type { RouteModule } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { paperCalls, type ReportDocuments } from '../../contract/calls/papers.ts';
import { ROLE_LABELS } from '../../contract/roles.ts';
import { registerArea } from './define.ts';
import { reportFor } from '../reports/load.ts';
import { sendPdf, tripPapers } from '../papers/render.ts';
import { etrnFacts, waybillNumber } from '../papers/map.ts';
import { BUILDERS } from '../etrn/titles.ts';
import { missingFacts, TITLE_NAMES } from '../etrn/missing.ts';
import { ETRN_TITLES, type EtrnTitle } from '../etrn/facts.ts';
import { contentDisposition } from '../exports/workbook.ts';
import { conflict } from '../errors.ts';

const WHOSE: Record<EtrnTitle, { name: string; whose: string }> = {
  t1: { name: 'Т1 — сведения грузоотправителя (черновик)', whose: 'подписывает грузоотправитель' },
  t2: { name: 'Т2 — приём груза перевозчиком', whose: 'подписывает перевозчик' },
  t4: { name: 'Т4 — выдача груза перевозчиком', whose: 'подписывает перевозчик' },
};

export const paperRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  const papers = tripPapers(ctx);

  /** The trip the caller may see, its base facts and its timeline. */
  async function trip(user: AuthUser, id: number) {
    const report = await reportFor(db.kysely, user, id);
    return papers.trip(report.id);
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
