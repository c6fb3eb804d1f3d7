/**
 * The per-shift acceptance (docs/trips.md): POST /trips/acceptance, the receiver signing once for the listed trips
 * of the day, idempotent by the phone's key. The trips are named by their ids, so the acceptance may arrive before a
 * trip it lists (the trip's checks read it when the trip comes). A trip of another driver is refused.
 */
import type { AppContext } from '../context.ts';
import type { AuthUser } from '../auth/guard.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { removeFiles, type Photo } from '../reports/photos.ts';
import { scoreReport } from '../reports/score.ts';
import { staffSeesCompany } from '../tasks/scope.ts';
import type { ShiftAcceptanceBody } from '../../contract/trips.ts';
import type { ShiftAcceptanceAnswer } from '../../contract/calls/trips.ts';
import { signatureUrl } from './facts.ts';
import { insertAcceptance } from './steps.ts';

export async function postShiftAcceptance(
  ctx: AppContext,
  user: AuthUser,
  body: ShiftAcceptanceBody,
  signature: Photo | null,
): Promise<{ answer: ShiftAcceptanceAnswer; created: boolean }> {
  if (signature && body.acceptance.kind !== 'signed') throw badRequest('signature: подпись прилагается к приёмке получателем (acceptance.kind = signed)');
  const db = ctx.db.kysely;
  const stored = () => db.selectFrom('trip_acceptances').select(['id', 'signature_key']).where('driver_id', '=', user.id).where('key', '=', body.key).executeTakeFirst();
  const known = await db.selectFrom('reports').select(['id', 'driver_id', 'trip_uid']).where('trip_uid', 'in', body.trip_uids).execute();
  const foreign = known.find((r) => r.driver_id !== user.id);
  if (foreign) throw forbidden(`Рейс ${foreign.trip_uid ?? ''} — рейс другого водителя: приёмка не принята`);
  const answer = (row: { id: number; signature_key: string | null }, replay: boolean): ShiftAcceptanceAnswer => ({
    key: body.key,
    replay,
    report_ids: known.map((r) => r.id).sort((a, b) => a - b),
    signature_url: row.signature_key ? signatureUrl(row.id) : null,
  });

  const earlier = await stored();
  if (earlier) return { answer: answer(earlier, true), created: false };
  const key = signature ? await ctx.storage.putFile('signatures', signature.file, '.png') : null;
  try {
    const id = await db.transaction().execute((trx) =>
      insertAcceptance(trx, { driverId: user.id, key: body.key, scope: 'shift', acceptance: body.acceptance, at: body.at, position: body.position, signatureKey: key, tripUids: body.trip_uids }),
    );
    for (const r of known) await scoreReport(db, r.id);
    return { answer: answer({ id, signature_key: key }, false), created: true };
  } catch (error) {
    if (key) await removeFiles(ctx.storage, [key]);
    const winner = isUniqueViolation(error) ? await stored() : undefined;
    if (winner) return { answer: answer(winner, true), created: false };
    throw error;
  }
}

/** The signature's file for its driver or his company's staff (another's: 404, as for a photo). */
export async function signatureFor(ctx: AppContext, user: AuthUser, acceptanceId: number): Promise<{ id: number; storage_key: string; size: number }> {
  const row = await ctx.db.kysely
    .selectFrom('trip_acceptances as a')
    .innerJoin('users as u', 'u.id', 'a.driver_id')
    .select(['a.id', 'a.driver_id', 'a.signature_key', 'u.company_id'])
    .where('a.id', '=', acceptanceId)
    .executeTakeFirst();
  const sees = row && (user.role === 'driver' ? row.driver_id === user.id : row.company_id !== null && staffSeesCompany(user, row.company_id));
  if (!row || !sees || !row.signature_key) throw notFound('Подпись не найдена');
  const size = await ctx.storage.size(row.signature_key);
  if (size === null) throw notFound('Файл подписи не найден');
  return { id: row.id, storage_key: row.signature_key, size };
}
