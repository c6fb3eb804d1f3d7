/** A driver's worked hours per day: one row per driver and date, a repeat overwrites it. */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { DailyHours, DailyHoursPayload } from '../../contract/driver.ts';

export async function upsertDailyHours(db: Db, user: AuthUser, input: DailyHoursPayload): Promise<DailyHours> {
  await db.kysely
    .insertInto('daily_hours')
    .values({ driver_id: user.id, date: input.date, hours: input.hours, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['driver_id', 'date']).doUpdateSet({ hours: input.hours }))
    .execute();
  return db.kysely
    .selectFrom('daily_hours')
    .select(['id', 'driver_id', 'date', 'hours'])
    .where('driver_id', '=', user.id)
    .where('date', '=', input.date)
    .executeTakeFirstOrThrow();
}

export async function listDailyHours(db: Db, user: AuthUser, from?: string, to?: string): Promise<DailyHours[]> {
  return db.kysely
    .selectFrom('daily_hours')
    .select(['id', 'driver_id', 'date', 'hours'])
    .where('driver_id', '=', user.id)
    .$if(from !== undefined, (qb) => qb.where('date', '>=', from as string))
    .$if(to !== undefined, (qb) => qb.where('date', '<=', to as string))
    .orderBy('date', 'desc')
    .execute();
}
