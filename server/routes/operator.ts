/** The operator of a company (contract/calls/operator.ts; docs/documents.md «The operator of a company»). */
import type { RouteModule } from '../context.ts';
import { operatorSettingsCalls } from '../../contract/calls/operator.ts';
import { inScope } from '../auth/guard.ts';
import { forbidden, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { apiOf, readOperator, saveOperator } from '../documents/operator-settings.ts';

export const operatorRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;
  const env = ctx.config.diadoc;
  const api = apiOf(ctx.config.diadocApi);

  async function exists(company: number): Promise<void> {
    const row = await db.kysely.selectFrom('companies').select('id').where('id', '=', company).executeTakeFirst();
    if (!row) throw notFound('Компания не найдена');
  }

  registerArea(app, ctx, operatorSettingsCalls, {
    'GET /companies/:id/operator': async ({ user, params }) => {
      await exists(params.id);
      if (!inScope(user, params.id)) throw notFound('Компания не найдена');
      return readOperator(db, params.id, env);
    },
    'PUT /companies/:id/operator': async ({ user, params, body }) => {
      await exists(params.id);
      if (!inScope(user, params.id)) throw forbidden('Можно изменять только свою компанию');
      return saveOperator(db, params.id, body, env, api, user.id, new Date().toISOString());
    },
  });
};
