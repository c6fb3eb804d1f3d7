/** The task calls on the route table (contract/calls/tasks.ts): suggestions, templates, «Повторять», Excel import. */
import type { RouteModule } from '../context.ts';
import { taskEntryCalls } from '../../contract/calls/tasks.ts';
import { registerArea } from './define.ts';
import { staffCompany } from '../tasks/scope.ts';
import { suggestions } from './task-suggestions.ts';
import { commitImport, deleteTemplate, listTemplates, previewImport, repeatTask, saveTemplate } from '../tasks/entry.ts';
import { buildImportTemplate } from '../tasks/import-xlsx.ts';
import { ImportSlots, ImportThreads } from '../tasks/import-runner.ts';
import { XLSX, contentDisposition } from '../exports/workbook.ts';

export const taskEntryRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  // Excel files are read in worker threads, a few at once (server/tasks/import-runner.ts).
  const reader = { slots: new ImportSlots(ctx.config.importsPerProcess, ctx.config.importsPerCompany), threads: new ImportThreads() };
  app.addHook('onClose', async () => reader.threads.close());
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
    'POST /tasks/import/preview': async ({ user, body }) => previewImport(db, reader, (await staffCompany(db, user, body.company_id)).id, body.file_name, body.file),
    'POST /tasks/import': async ({ user, body }) => commitImport(db, reader, user, (await staffCompany(db, user, body.company_id)).id, body.file_name, body.file),
  });
};
