/** The handlers of the progressive-rate calls (contract/calls/progressive-rates.ts). Another company's ladder or band is 404. */
import type { RouteModule } from '../context.ts';
import type { RateBand } from '../../contract/wages.ts';
import { progressiveRateCalls } from '../../contract/calls/progressive-rates.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import { badRequest, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { bandLabel, byMin, ladderProblem, withEdit, type LadderBand } from '../../contract/ladder.ts';

const COLUMNS = ['id', 'company_id', 'min_quantity', 'max_quantity', 'rate', 'created_at'] as const;

export async function companyLadder(db: Db, companyId: number): Promise<RateBand[]> {
  const rows = await db.kysely.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', companyId).execute();
  return rows.sort(byMin);
}

async function companyInScope(db: Db, user: AuthUser, companyId: number): Promise<number> {
  const company = await db.kysely.selectFrom('companies').select('id').where('id', '=', companyId).executeTakeFirst();
  if (!company) throw notFound('Компания не найдена');
  assertStaffSeesCompany(user, company.id, 'Компания не найдена');
  return company.id;
}

async function bandInScope(db: Db, user: AuthUser, id: number): Promise<RateBand> {
  const band = await db.kysely.selectFrom('progressive_rates').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!band) throw notFound('Полоса ставок не найдена');
  assertStaffSeesCompany(user, band.company_id, 'Полоса ставок не найдена');
  return band;
}

function assertLadder(bands: readonly LadderBand[]): void {
  const problem = ladderProblem(bands);
  if (problem) throw badRequest(problem);
}

export const progressiveRateRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, progressiveRateCalls, {
    'GET /progressive_rates/company/:id': async ({ user, params }) => companyLadder(db, await companyInScope(db, user, params.id)),

    'POST /progressive_rates/company/:id': async ({ user, params, body: band }) => {
      const companyId = await companyInScope(db, user, params.id);
      return db.kysely.transaction().execute(async (trx) => {
        const current = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', companyId).execute();
        assertLadder([...current, band]);
        return trx
          .insertInto('progressive_rates')
          .values({ company_id: companyId, ...band, created_at: nowIso() })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
    },

    'PUT /progressive_rates/:id': async ({ user, params, body: change }) => {
      const band = await bandInScope(db, user, params.id);
      return db.kysely.transaction().execute(async (trx) => {
        const current = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', band.company_id).execute();
        const next = withEdit(current, band.id, change);
        assertLadder(next);
        for (const after of next) {
          const before = current.find((b) => b.id === after.id);
          if (!before || (before.min_quantity === after.min_quantity && before.max_quantity === after.max_quantity && before.rate === after.rate)) continue;
          await trx
            .updateTable('progressive_rates')
            .set({ min_quantity: after.min_quantity, max_quantity: after.max_quantity, rate: after.rate })
            .where('id', '=', after.id as number)
            .execute();
        }
        const rows = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', band.company_id).execute();
        return rows.sort(byMin);
      });
    },

    'DELETE /progressive_rates/:id': async ({ user, params }) => {
      const band = await bandInScope(db, user, params.id);
      await db.kysely.transaction().execute(async (trx) => {
        const current = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', band.company_id).execute();
        const rest = current.filter((b) => b.id !== band.id);
        const problem = ladderProblem(rest);
        if (problem) throw badRequest(`Полосу ${bandLabel(band)} удалить нельзя: ${lowerFirst(problem)}. Удаляйте полосы сверху или сдвиньте границу соседней`);
        await trx.deleteFrom('progressive_rates').where('id', '=', band.id).execute();
      });
      return null;
    },
  });
};

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
