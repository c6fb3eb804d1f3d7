/** The task calls on the route table (contract/calls/tasks.ts): suggestions, templates, «Повторять», Excel import. */
import type { FastifyRequest } from 'fastify';
import type { RouteModule } from '../context.ts';
import { taskEntryCalls } from '../../contract/calls/tasks.ts';
import { registerArea, type CallOptions } from './define.ts';
import { staffCompany } from '../tasks/scope.ts';
import { suggestions } from './task-suggestions.ts';
import { commitImport, deleteTemplate, listTemplates, previewImport, repeatTask, saveTemplate } from '../tasks/entry.ts';
import { buildImportTemplate } from '../tasks/import-xlsx.ts';
import { ImportSlots, ImportThreads, type ImportSlot } from '../tasks/import-runner.ts';
import { currentUser } from '../auth/guard.ts';
import { badRequest } from '../errors.ts';
import { XLSX, contentDisposition } from '../exports/workbook.ts';

/** An import call's JSON as bytes (`rawJsonBody`); no body, or an empty one, is refused as Fastify refuses one. */
function rawBody(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw badRequest('Пустое тело запроса');
  return request.body;
}

export const taskEntryRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  // Excel files are read in worker threads, a few at once (server/tasks/import-runner.ts).
  const reader = { slots: new ImportSlots(ctx.config.importsPerProcess, ctx.config.importsPerCompany), threads: new ImportThreads() };
  app.addHook('onClose', async () => reader.threads.close());
  // An import's slot is taken before its body is read: with none free the call is refused (429/503, Retry-After)
  // and its megabytes are never parsed; the body itself is parsed in the thread (import-thread.ts).
  const slots = new WeakMap<FastifyRequest, ImportSlot>();
  const importCall: CallOptions = {
    beforeBody: (request) => void slots.set(request, reader.slots.take(currentUser(request).company_id)),
    afterAnswer: (request) => slots.get(request)?.release(),
    rawJsonBody: true,
  };
  const slotOf = (request: FastifyRequest): ImportSlot => {
    const slot = slots.get(request);
    if (!slot) throw new Error('import call without its slot');
    return slot;
  };
  registerArea(app, ctx, taskEntryCalls, {
    'GET /tasks/suggestions': async ({ user, query }) => suggestions(db, user, query),
    'GET /tasks/templates': async ({ user, query }) => listTemplates(db, (await staffCompany(db, user, query.company_id)).id),
    'POST /tasks/templates': async ({ user, body }) => saveTemplate(db, user, (await staffCompany(db, user, body.company_id)).id, body.name, body.fields),
    'DELETE /tasks/templates/:id': async ({ user, params }) => {
      await deleteTemplate(db, user, params.id);
      return null;
    },
    'POST /tasks/repeat': async ({ user, body }) => repeatTask(db, user, (await staffCompany(db, user, body.task.company_id)).id, body.task, body.dates),
    'GET /tasks/import/template': async ({ reply }) => {
      const file = await buildImportTemplate();
      await reply
        .header('content-type', XLSX)
        .header('content-disposition', contentDisposition('Шаблон задач.xlsx'))
        .send(file);
      return null as unknown as Blob;
    },
    'POST /tasks/import/preview': async ({ user, request }) => previewImport(db, reader, slotOf(request), user, rawBody(request)),
    'POST /tasks/import': async ({ user, request }) => commitImport(db, reader, slotOf(request), user, rawBody(request)),
  }, { 'POST /tasks/import/preview': importCall, 'POST /tasks/import': importCall });
};
