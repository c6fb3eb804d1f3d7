/**
 * A trip's ЭТрН title made from the database now: the facts gathered once (gather.ts) with the trip's timeline, mapped
 * (map.ts) and built (server/etrn/titles.ts). Served by GET /reports/{id}/etrn/{title}.xml and frozen by
 * POST /documents/{id}/ready. Nothing is made half-filled: while a fact is missing the answer is a 409 naming every one.
 */
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { ROLE_LABELS } from '../../contract/roles.ts';
import { tripFacts } from '../trips/facts.ts';
import { companyTripSettings } from '../trips/settings.ts';
import { driverConfirmationsOf, type DriverConfirmations } from '../trips/confirmations.ts';
import { gatherTrip, type TripBase } from './gather.ts';
import { chainFor } from './incoming.ts';
import { etrnFacts } from './map.ts';
import { BUILDERS, type EtrnFile } from '../etrn/titles.ts';
import { missingFacts, TITLE_NAMES } from '../etrn/missing.ts';
import type { EtrnTitle } from '../etrn/facts.ts';
import { conflict } from '../errors.ts';

/** The carrier's signer of a title: the staff member who prepares it (status 1, an employee). */
export const signerOf = (user: AuthUser) => ({ name: user.name, position: ROLE_LABELS[user.role] ?? 'Сотрудник' });

/**
 * The trip's base facts, timeline and chain (the received Т1/Т3 its Т2/Т4 cite; server/papers/incoming.ts) and the
 * driver's ПЭП confirmations — read only when his company asks for them (`driver_confirms`), so without the setting
 * the titles are as before. The caller has been checked to see the report.
 */
export async function tripOf(db: Db, reportId: number) {
  const [base, facts, chain] = await Promise.all([gatherTrip(db, reportId), tripFacts(db.kysely, reportId), chainFor(db, reportId)]);
  const settings = await companyTripSettings(db.kysely, base.task.company_id);
  const confirmed: DriverConfirmations = settings.driver_confirms ? await driverConfirmationsOf(db.kysely, reportId) : {};
  return { base, facts, chain, confirmed };
}

/** The title made now, or a 409 naming every missing fact. */
export async function makeTitle(db: Db, user: AuthUser, reportId: number, title: EtrnTitle): Promise<{ file: EtrnFile; base: TripBase }> {
  const { base, facts, chain, confirmed } = await tripOf(db, reportId);
  const etrn = etrnFacts(base, facts, signerOf(user), chain, confirmed);
  const missing = missingFacts(title, etrn);
  if (missing.length > 0) throw conflict(`Не хватает сведений для ${TITLE_NAMES[title]}: ${missing.map((m) => m.text).join('; ')}`);
  return { file: BUILDERS[title](etrn), base };
}
