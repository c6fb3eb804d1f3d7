/**
 * «Без путевого листа смену не начать» (issue 33 §2; docs/trip-sheets.md «No shift without a sheet»): a company's
 * trip setting. A day's sheet counts for a driver when it names him or his fleet vehicle (users.vehicle_id).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { conflict } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { companyTripSettings } from '../trips/settings.ts';
import { noTripSheetMessage } from '../../contract/trips.ts';

/** Which of `driverIds` have a trip sheet for `date`: one naming the driver, or his fleet vehicle. */
export async function driversWithSheet(db: Kysely<Database>, driverIds: readonly number[], date: string): Promise<Set<number>> {
  if (driverIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', [...new Set(driverIds)])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('trip_sheets as s')
          .select('s.id')
          .where('s.date', '=', date)
          .where((inner) => inner.or([inner('s.driver_id', '=', inner.ref('u.id')), inner('s.vehicle_id', '=', inner.ref('u.vehicle_id'))])),
      ),
    )
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * A new trip's first step: refused (409, in Russian) when the driver's company requires a sheet and the step's day —
 * the server's calendar day of the time the phone stamped, so a step made offline yesterday is judged by yesterday —
 * has none for him. Steps of a trip already begun are never refused by it.
 */
export async function assertSheetForNewTrip(db: Kysely<Database>, driver: { id: number; company_id: number | null }, at: string): Promise<void> {
  if (driver.company_id === null) return;
  const settings = await companyTripSettings(db, driver.company_id);
  if (!settings.require_trip_sheet) return;
  const day = localToday(new Date(Date.parse(at)));
  if (!(await driversWithSheet(db, [driver.id], day)).has(driver.id)) throw conflict(noTripSheetMessage(day));
}
