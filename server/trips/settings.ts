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

/** A field the body leaves out (`require_trip_sheet` from a client that predates it) keeps its stored value. */
export async function saveTripSettings(db: Kysely<Database>, companyId: number, settings: Omit<TripSettings, 'require_trip_sheet'> & { require_trip_sheet?: boolean | undefined }): Promise<TripSettings> {
  const stored = await companyTripSettings(db, companyId);
  const next: TripSettings = { ...settings, require_trip_sheet: settings.require_trip_sheet ?? stored.require_trip_sheet };
  await db.updateTable('companies').set({ trip_settings: JSON.stringify(next) }).where('id', '=', companyId).execute();
  return companyTripSettings(db, companyId);
}
