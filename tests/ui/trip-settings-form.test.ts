/** The trip settings card's form (src/screens/companies-manage/trip-settings-form.ts): Russian errors, the server's refusal placed. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIP_SETTINGS } from '../../contract/trips.ts';
import { placeRefusal, settingsBody, textsOf } from '../../src/screens/companies-manage/trip-settings-form.ts';

describe('the trip settings form', () => {
  const typed = textsOf(DEFAULT_TRIP_SETTINGS);

  it('sends whole numbers within the contract’s bounds', () => {
    expect(settingsBody({ ...typed, acceptance_mode: 'per_shift', long_wait_minutes: ' 45 ' })).toEqual({
      ok: true,
      body: { acceptance_mode: 'per_shift', long_wait_minutes: 45, geofence_dwell_seconds: 60, no_data_minutes: 90, require_trip_sheet: false, driver_confirms: false },
    });
    // «Без путевого листа смену не начать» goes as ticked.
    expect(settingsBody({ ...typed, require_trip_sheet: true })).toMatchObject({ ok: true, body: { require_trip_sheet: true } });
  });

  it('names each bad field in Russian and sends nothing', () => {
    const result = settingsBody({ ...typed, long_wait_minutes: '2', geofence_dwell_seconds: '30,5', no_data_minutes: '' });
    expect(result).toEqual({ ok: false, errors: { long_wait_minutes: 'Не меньше 5 мин', geofence_dwell_seconds: 'Укажите целое число', no_data_minutes: 'Укажите число' } });
    expect(settingsBody({ ...typed, no_data_minutes: '5000' })).toEqual({ ok: false, errors: { no_data_minutes: 'Не больше 1440 мин' } });
  });

  it('places the server’s «field: message» under its field, anything else for the form', () => {
    expect(placeRefusal('long_wait_minutes: не меньше 5 мин')).toEqual({ field: 'long_wait_minutes', text: 'Не меньше 5 мин' });
    expect(placeRefusal('Недостаточно прав')).toBeNull();
  });
});
