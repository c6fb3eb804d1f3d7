/** The company's trip settings (contract/trips.ts TripSettings; docs/trips.md): stored JSON over the defaults. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { DEFAULT_TRIP_SETTINGS, tripSettingsSchema, type TripSettings } from '../../contract/trips.ts';

/** A damaged or partial stored value falls back to the defaults key by key. */
export async function companyTripSettings(db: Kysely<Database>, companyId: number): Promise<TripSettings> {
  const row = await db.selectFrom('companies').select('trip_settings').where('id', '=', companyId).executeTakeFirst();
  return parseTripSettings(row?.trip_settings ?? null);
}

/** The stored JSON (companies.trip_settings) over the defaults. */
export function parseTripSettings(text: string | null): TripSettings {
  if (!text) return { ...DEFAULT_TRIP_SETTINGS };
  try {
    const stored = tripSettingsSchema.partial().safeParse(JSON.parse(text));
    return stored.success ? { ...DEFAULT_TRIP_SETTINGS, ...stored.data } : { ...DEFAULT_TRIP_SETTINGS };
  } catch {
    return { ...DEFAULT_TRIP_SETTINGS };
  }
}

type OptionalSwitch = 'require_trip_sheet' | 'driver_confirms';

/** A switch the body leaves out (`require_trip_sheet`, `driver_confirms` from a client that predates it) keeps its stored value. */
export async function saveTripSettings(
  db: Kysely<Database>,
  companyId: number,
  settings: Omit<TripSettings, OptionalSwitch> & { [K in OptionalSwitch]?: boolean | undefined },
): Promise<TripSettings> {
  const stored = await companyTripSettings(db, companyId);
  const next: TripSettings = {
    ...settings,
    require_trip_sheet: settings.require_trip_sheet ?? stored.require_trip_sheet,
    driver_confirms: settings.driver_confirms ?? stored.driver_confirms,
  };
  await db.updateTable('companies').set({ trip_settings: JSON.stringify(next) }).where('id', '=', companyId).execute();
  return companyTripSettings(db, companyId);
}
