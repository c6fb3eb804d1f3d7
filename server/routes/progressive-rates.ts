/**
 * The handlers of the progressive-rate calls (contract/calls/progressive-rates.ts). Another company's ladder or
 * band is 404. The scale has versions by start date (server/routes/WAGES.md): every change names the date it is in
 * force from (`valid_from`, default the first day of the current open month) and lands in the version starting
 * that day — copied from the version in force then when none starts there — so loads before that day keep their
 * rate. A date inside a closed month is refused (409); the band an edit names is found in the target version by its
 * boundaries.
 */
import { sql, type Kysely } from 'kysely';
import type { RouteModule } from '../context.ts';
import type { RateBand, ScaleImpact } from '../../contract/wages.ts';
import { progressiveRateCalls } from '../../contract/calls/progressive-rates.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { registerArea } from './define.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { bandLabel, byMin, ladderProblem, withEdit, type LadderBand } from '../../contract/ladder.ts';
import { monthOf, monthRange } from '../../contract/money.ts';
import { closedText, currentOpenMonth, firstOpenDay, latestClosed } from '../payroll/months.ts';
import { versionAt } from '../wages/pay.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';

type Q = Kysely<Database>;
const COLUMNS = ['id', 'company_id', 'min_quantity', 'max_quantity', 'rate', 'created_at', 'valid_from'] as const;
const byVersion = (a: RateBand, b: RateBand): number => a.valid_from.localeCompare(b.valid_from) || byMin(a, b);
const dateText = (iso: string): string => iso.split('-').reverse().join('.');

export async function companyLadder(db: Db, companyId: number): Promise<RateBand[]> {
  const rows = await db.kysely.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', companyId).execute();
  return rows.sort(byVersion);
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

/** The date a change takes effect from: the one given, else the first day of the current open month; never in a closed month. */
async function effectiveDate(trx: Q, companyId: number, given: string | undefined): Promise<string> {
  const date = given ?? monthRange(await currentOpenMonth(trx, companyId)).start;
  const closed = await latestClosed(trx, companyId);
  if (closed !== null && monthOf(date) <= closed) {
    const open = await firstOpenDay(trx, companyId);
    throw conflict(`Шкалу нельзя изменить с ${dateText(date)}: ${closedText(closed).toLowerCase()} (расчёт с водителями). Изменение возможно с ${dateText(open as string)}`);
  }
  return date;
}

/**
 * The version starting on `date`, made if needed: a copy of the version in force that day (or empty before the
 * first). Answers its bands.
 */
async function versionFrom(trx: Q, companyId: number, date: string): Promise<RateBand[]> {
  const all = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', companyId).execute();
  const own = all.filter((b) => b.valid_from === date);
  if (own.length > 0) return own.sort(byMin);
  const source = versionAt(all, date);
  if (source.length === 0) return [];
  const now = nowIso();
  const copied = await trx
    .insertInto('progressive_rates')
    .values(source.map((b) => ({ company_id: companyId, min_quantity: b.min_quantity, max_quantity: b.max_quantity, rate: b.rate, created_at: now, valid_from: date })))
    .returning(COLUMNS)
    .execute();
  return copied.sort(byMin);
}

/** The band of `version` at the same boundaries as `band` (the one the user picked, maybe in another version). */
function sameBand(version: readonly RateBand[], band: RateBand, date: string): RateBand {
  const hit = version.find((b) => b.min_quantity === band.min_quantity && b.max_quantity === band.max_quantity);
  if (!hit) throw conflict(`В версии шкалы с ${dateText(date)} нет полосы ${bandLabel(band)}: обновите страницу`);
  return hit;
}

async function versionBands(trx: Q, companyId: number, date: string): Promise<RateBand[]> {
  const rows = await trx.selectFrom('progressive_rates').select(COLUMNS).where('company_id', '=', companyId).where('valid_from', '=', date).execute();
  return rows.sort(byMin);
}

/** A band's date: given, or the default; a change may not start before the band's own version. */
async function changeDate(trx: Q, band: RateBand, given: string | undefined): Promise<string> {
  const date = await effectiveDate(trx, band.company_id, given);
  if (date < band.valid_from) throw badRequest(`valid_from: раньше начала версии полосы (с ${dateText(band.valid_from)})`);
  return date;
}

async function impact(db: Db, companyId: number, given: string | undefined): Promise<ScaleImpact> {
  const validFrom = given ?? monthRange(await currentOpenMonth(db.kysely, companyId)).start;
  const next = await db.kysely
    .selectFrom('progressive_rates')
    .select('valid_from')
    .where('company_id', '=', companyId)
    .where('valid_from', '>', validFrom)
    .orderBy('valid_from')
    .limit(1)
    .executeTakeFirst();
  const until = next?.valid_from ?? null;
  const row = await db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select([sql<number>`count(*)`.as('loads'), sql<number>`coalesce(sum(${sql.raw(DELIVERED_SQL)}), 0)`.as('quantity'), sql<number>`count(distinct td.driver_id)`.as('drivers')])
    .where('t.company_id', '=', companyId)
    .where('r.review_status', '=', 'approved')
    .where('td.transport_rate', 'is', null)
    .where('t.date', '>=', validFrom)
    .$if(until !== null, (qb) => qb.where('t.date', '<', until as string))
    .executeTakeFirstOrThrow();
  return {
    valid_from: validFrom,
    until,
    loads: Number(row.loads),
    quantity: roundQuantity(Number(row.quantity)),
    drivers: Number(row.drivers),
    first_open_day: await firstOpenDay(db.kysely, companyId),
  };
}

export const progressiveRateRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  registerArea(app, ctx, progressiveRateCalls, {
    'GET /progressive_rates/company/:id': async ({ user, params }) => companyLadder(db, await companyInScope(db, user, params.id)),

    'GET /progressive_rates/company/:id/impact': async ({ user, params, query }) => impact(db, await companyInScope(db, user, params.id), query.valid_from),

    'POST /progressive_rates/company/:id': async ({ user, params, body }) => {
      const companyId = await companyInScope(db, user, params.id);
      const { valid_from: given, ...band } = body;
      return db.kysely.transaction().execute(async (trx) => {
        const date = await effectiveDate(trx, companyId, given);
        const current = await versionFrom(trx, companyId, date);
        assertLadder([...current, band]);
        return trx
          .insertInto('progressive_rates')
          .values({ company_id: companyId, ...band, created_at: nowIso(), valid_from: date })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
    },

    'PUT /progressive_rates/:id': async ({ user, params, body }) => {
      const picked = await bandInScope(db, user, params.id);
      const { valid_from: given, ...change } = body;
      return db.kysely.transaction().execute(async (trx) => {
        const date = await changeDate(trx, picked, given);
        const current = await versionFrom(trx, picked.company_id, date);
        const band = sameBand(current, picked, date);
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
        return versionBands(trx, picked.company_id, date);
      });
    },

    'DELETE /progressive_rates/:id': async ({ user, params, query }) => {
      const picked = await bandInScope(db, user, params.id);
      await db.kysely.transaction().execute(async (trx) => {
        const date = await changeDate(trx, picked, query.valid_from);
        const current = await versionFrom(trx, picked.company_id, date);
        const band = sameBand(current, picked, date);
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
