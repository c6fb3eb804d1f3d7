/**
 * Exports (SPEC §7, Export) and the /table viewer: POST starts a job, GET tells its progress, /download
 * answers the file (200) or nothing yet (204); a signed link opens the file in /table, as a built-in grid or
 * in an OnlyOffice Docs server when one is configured. Design: server/routes/EXPORTS.md.
 */
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { RouteModule } from '../context.ts';
import { STAFF } from '../../contract/roles.ts';
import { exportRequestSchema, tableRowsQuerySchema, type TableLink, type TableRows } from '../../contract/exports.ts';
import { currentUser } from '../auth/guard.ts';
import { badRequest, conflict, idParam, notFound, parse } from '../errors.ts';
import { createJob, jobFor, toJob } from '../exports/jobs.ts';
import { startExportRunner } from '../exports/runner.ts';
import { SheetCache, checkTableToken, signTableToken } from '../exports/table.ts';
import { XLSX, contentDisposition } from '../exports/workbook.ts';

const fileQuerySchema = z.object({
  file_id: z.coerce.number({ message: 'ожидается номер файла' }).int().positive(),
  token: z.string({ message: 'нет ссылки доступа' }).min(10, 'нет ссылки доступа').max(2000),
});


export const exportRoutes: RouteModule = (app, ctx) => {
  const staff = { preHandler: ctx.guard(STAFF) };
  const runner = startExportRunner(ctx.db, ctx.storage, ctx.config.exportRetentionDays);
  app.addHook('onClose', async () => runner.close());
  const sheets = new SheetCache(ctx.storage);

  /** A done job's stored file, for a valid signed link. */
  async function linkedFile(query: unknown) {
    const { file_id, token } = parse(fileQuerySchema, query);
    await checkTableToken(ctx.config.jwtSecret, token, file_id);
    const job = await ctx.db.kysely.selectFrom('export_jobs').select(['id', 'status', 'storage_key', 'filename']).where('id', '=', file_id).executeTakeFirst();
    if (!job || job.status !== 'done' || !job.storage_key) throw notFound('Файл выгрузки не найден: он удалён по сроку хранения');
    return { ...job, storage_key: job.storage_key, token };
  }

  app.post('/tasks/completed/export', staff, async (request, reply) => {
    const job = await createJob(ctx.db, currentUser(request), parse(exportRequestSchema, request.body));
    runner.kick();
    return reply.status(202).send(job);
  });

  app.get('/tasks/completed/export/:id', staff, async (request) => toJob(await jobFor(ctx.db, currentUser(request), idParam(request.params))));

  app.get('/tasks/completed/export/:id/download', staff, async (request, reply) => {
    const job = await jobFor(ctx.db, currentUser(request), idParam(request.params));
    if (job.status !== 'done' || !job.storage_key) return reply.status(204).send();
    const size = await ctx.storage.size(job.storage_key);
    if (size === null) return reply.status(204).send();
    return reply
      .type(XLSX)
      .header('content-length', size)
      .header('content-disposition', contentDisposition(job.filename ?? `export-${job.id}.xlsx`))
      .send(ctx.storage.read(job.storage_key));
  });

  app.post('/tasks/completed/export/:id/table-link', staff, async (request): Promise<TableLink> => {
    const job = await jobFor(ctx.db, currentUser(request), idParam(request.params));
    if (job.status !== 'done') throw conflict('Выгрузка ещё не готова');
    const { token, expiresAt } = await signTableToken(ctx.config.jwtSecret, job.id);
    return { url: `/table?file_id=${job.id}&token=${encodeURIComponent(token)}`, expires_at: expiresAt.toISOString() };
  });

  app.get('/table/rows', async (request): Promise<TableRows> => {
    const q = parse(tableRowsQuerySchema, request.query);
    const file = await linkedFile(request.query);
    const data = await sheets.get(file.storage_key);
    if (q.sort !== undefined && q.sort >= data.columns.length) throw badRequest(`sort: в таблице ${data.columns.length} столбцов`);
    const rows = q.sort === undefined ? data.rows : await sheets.sorted(file.storage_key, q.sort, q.desc === '1');
    return { sheet: data.sheet, title: file.filename ?? data.sheet, columns: data.columns, rows: rows.slice(q.offset, q.offset + q.limit), total: data.rows.length, offset: q.offset, footer: data.footer };
  });

  app.get('/table/file', async (request, reply) => {
    const file = await linkedFile(request.query);
    return reply.type(XLSX).header('content-disposition', contentDisposition(file.filename ?? 'export.xlsx')).send(ctx.storage.read(file.storage_key));
  });

  app.get('/onlyoffice/config', async (request) => {
    const file = await linkedFile(request.query);
    const origin = `${request.protocol}://${request.host}`;
    const config: Record<string, unknown> = {
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
  });
};
