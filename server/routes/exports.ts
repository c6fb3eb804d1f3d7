/**
 * Exports (docs/product.md §7) and the /table viewer: POST starts a job, GET tells its progress, /download
 * answers the file (200) or nothing yet (204); a signed link opens the file in /table, as a built-in grid or
 * in an OnlyOffice Docs server when one is configured. Design: server/routes/EXPORTS.md; the calls are declared
 * in contract/calls/exports.ts.
 */
import { SignJWT } from 'jose';
import type { RouteModule } from '../context.ts';
import { exportCalls } from '../../contract/calls/exports.ts';
import type { OnlyOfficeConfig } from '../../contract/exports.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { createJob, jobFor, toJob } from '../exports/jobs.ts';
import { startExportRunner } from '../exports/runner.ts';
import { SheetCache, checkTableToken, signTableToken } from '../exports/table.ts';
import { XLSX, contentDisposition } from '../exports/workbook.ts';

export const exportRoutes: RouteModule = (app, ctx) => {
  const runner = startExportRunner(ctx.db, ctx.storage, ctx.config.exportRetentionDays);
  app.addHook('onClose', async () => runner.close());
  const sheets = new SheetCache(ctx.storage);

  /** A done job's stored file, for a valid signed link (the link is the credential: no sign-in needed). */
  async function linkedFile({ file_id, token }: { file_id: number; token: string }) {
    await checkTableToken(ctx.config.jwtSecret, token, file_id);
    const job = await ctx.db.kysely.selectFrom('export_jobs').select(['id', 'status', 'storage_key', 'filename']).where('id', '=', file_id).executeTakeFirst();
    if (!job || job.status !== 'done' || !job.storage_key) throw notFound('Файл выгрузки не найден: он удалён по сроку хранения');
    return { ...job, storage_key: job.storage_key, token };
  }

  registerArea(app, ctx, exportCalls, {
    'POST /tasks/completed/export': async ({ user, body }) => {
      const job = await createJob(ctx.db, user, body);
      runner.kick();
      return job;
    },

    'GET /tasks/completed/export/:id': async ({ user, params }) => toJob(await jobFor(ctx.db, user, params.id)),

    'GET /tasks/completed/export/:id/download': async ({ user, params, reply }) => {
      const job = await jobFor(ctx.db, user, params.id);
      if (job.status !== 'done' || !job.storage_key) return reply.status(204).send();
      const size = await ctx.storage.size(job.storage_key);
      if (size === null) return reply.status(204).send();
      return reply
        .type(XLSX)
        .header('content-length', size)
        .header('content-disposition', contentDisposition(job.filename ?? `export-${job.id}.xlsx`))
        .send(ctx.storage.read(job.storage_key));
    },

    'POST /tasks/completed/export/:id/table-link': async ({ user, params }) => {
      const job = await jobFor(ctx.db, user, params.id);
      if (job.status !== 'done') throw conflict('Выгрузка ещё не готова');
      const { token, expiresAt } = await signTableToken(ctx.config.jwtSecret, job.id);
      return { url: `/table?file_id=${job.id}&token=${encodeURIComponent(token)}`, expires_at: expiresAt.toISOString() };
    },

    'GET /table/rows': async ({ query: q }) => {
      const file = await linkedFile(q);
      const data = await sheets.get(file.storage_key);
      if (q.sort !== undefined && q.sort >= data.columns.length) throw badRequest(`sort: в таблице ${data.columns.length} столбцов`);
      const rows = q.sort === undefined ? data.rows : await sheets.sorted(file.storage_key, q.sort, q.desc === '1');
      return { sheet: data.sheet, title: file.filename ?? data.sheet, columns: data.columns, rows: rows.slice(q.offset, q.offset + q.limit), total: data.rows.length, offset: q.offset, footer: data.footer };
    },

    'GET /table/file': async ({ query, reply }) => {
      const file = await linkedFile(query);
      return reply.type(XLSX).header('content-disposition', contentDisposition(file.filename ?? 'export.xlsx')).send(ctx.storage.read(file.storage_key));
    },

    'GET /onlyoffice/config': async ({ query, request }) => {
      const file = await linkedFile(query);
      const origin = `${request.protocol}://${request.host}`;
      const config: OnlyOfficeConfig['config'] = {
        document: {
          fileType: 'xlsx',
          key: `export-${file.id}`,
          title: file.filename ?? `export-${file.id}.xlsx`,
          url: `${origin}/api/table/file?file_id=${file.id}&token=${encodeURIComponent(file.token)}`,
          permissions: { edit: false, download: true, print: true, comment: false, review: false },
        },
        documentType: 'cell',
        editorConfig: { mode: 'view', lang: 'ru', customization: { compactHeader: true } },
      };
      if (ctx.config.onlyofficeJwtSecret) {
        config.token = await new SignJWT(config).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(ctx.config.onlyofficeJwtSecret));
      }
      return { server_url: ctx.config.onlyofficeUrl ?? null, config };
    },
  });
};
