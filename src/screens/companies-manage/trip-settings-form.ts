/**
 * The trip settings card's form (docs/trips.md «Trip settings»), pure: what is typed → the PUT body or Russian errors
 * under their fields, by the contract's own schema; the server's refusal «long_wait_minutes: …» placed under its field.
 */
import { ACCEPTANCE_MODES, tripSettingsSchema, type AcceptanceMode, type TripSettings } from '../../../contract/trips.ts';

export type NumberKey = Exclude<keyof TripSettings, 'acceptance_mode' | 'require_trip_sheet' | 'driver_confirms'>;
export const NUMBER_KEYS: readonly NumberKey[] = ['long_wait_minutes', 'geofence_dwell_seconds', 'no_data_minutes'];

export interface SettingsTexts {
  acceptance_mode: AcceptanceMode;
  long_wait_minutes: string;
  geofence_dwell_seconds: string;
  no_data_minutes: string;
  require_trip_sheet: boolean;
  driver_confirms: boolean;
}
export type SettingsErrors = Partial<Record<keyof TripSettings, string>>;

export const textsOf = (s: TripSettings): SettingsTexts => ({
  acceptance_mode: s.acceptance_mode,
  long_wait_minutes: String(s.long_wait_minutes),
  geofence_dwell_seconds: String(s.geofence_dwell_seconds),
  no_data_minutes: String(s.no_data_minutes),
  require_trip_sheet: s.require_trip_sheet,
  driver_confirms: s.driver_confirms,
});

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The body to send, or the errors to show (nothing sent). */
export function settingsBody(texts: SettingsTexts): { ok: true; body: TripSettings } | { ok: false; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const numbers: Partial<Record<NumberKey, number>> = {};
  for (const key of NUMBER_KEYS) {
    const typed = texts[key].trim();
    if (typed === '') errors[key] = 'Укажите число';
    else if (!/^\d+$/.test(typed)) errors[key] = 'Укажите целое число';
    else numbers[key] = Number(typed);
  }
  const parsed = tripSettingsSchema.safeParse({ acceptance_mode: texts.acceptance_mode, ...numbers, require_trip_sheet: texts.require_trip_sheet, driver_confirms: texts.driver_confirms });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof TripSettings | undefined;
      if (key && !(key in errors) && (key === 'acceptance_mode' || key === 'require_trip_sheet' || key === 'driver_confirms' || numbers[key] !== undefined)) errors[key] = capital(issue.message);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, body: { ...parsed.data, require_trip_sheet: texts.require_trip_sheet, driver_confirms: texts.driver_confirms } };
}

/** The server's refusal «field: message» under its field; any other refusal stays for the form as a whole. */
export function placeRefusal(message: string): { field: keyof TripSettings; text: string } | null {
  const field = ([...NUMBER_KEYS, 'acceptance_mode'] as const).find((key) => message.startsWith(`${key}:`));
  return field ? { field, text: capital(message.slice(field.length + 1).trim()) } : null;
}

export const isAcceptanceMode = (value: string): value is AcceptanceMode => (ACCEPTANCE_MODES as readonly string[]).includes(value);
