/** The handlers of the photo-retention setting (contract/calls/retention.ts) and the daily run it drives. */
import type { RouteModule } from '../context.ts';
import { retentionCalls, type PhotoRetention, type PhotoRetentionRun } from '../../contract/calls/retention.ts';
import { inScope } from '../auth/guard.ts';
import { forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { parseRule, startRetentionJob } from '../reports/retention-job.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';

export const retentionRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const job = startRetentionJob(db, ctx.config.dataDir, { timer: ctx.config.photoRetentionJob !== false });
  app.addHook('onClose', async () => job.close());

  async function read(companyId: number): Promise<PhotoRetention> {
    const row = await db.kysely.selectFrom('companies').select(['id', 'photo_retention', 'photo_retention_last']).where('id', '=', companyId).executeTakeFirst();
    if (!row) throw notFound('Компания не найдена');
    return { rule: parseRule(row.photo_retention), last_run: row.photo_retention_last ? (JSON.parse(row.photo_retention_last) as PhotoRetentionRun) : null };
  }

  registerArea(app, ctx, retentionCalls, {
    'GET /companies/:id/photo-retention': async ({ user, params }) => {
      const answer = await read(params.id);
      assertStaffSeesCompany(user, params.id, 'Компания не найдена');
      return answer;
    },
    'PUT /companies/:id/photo-retention': async ({ user, params, body }) => {
      await read(params.id);
      if (!inScope(user, params.id)) throw forbidden('Можно изменять только свою компанию');
      // A new rule runs at the next daily pass (the same day too: the day's claim is cleared).
      await db.kysely
        .updateTable('companies')
        .set({ photo_retention: body.rule ? JSON.stringify(body.rule) : null, photo_retention_ran_on: null })
        .where('id', '=', params.id)
        .execute();
      return read(params.id);
    },
  });
};
