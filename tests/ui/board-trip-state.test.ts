/** The board's words for a driver's trip state (src/screens/dispatch/trip-state.ts on contract/trips.ts `tripStateText`). */
import { describe, expect, it } from 'vitest';
import { boardStateText } from '../../src/screens/dispatch/trip-state.ts';

describe('a driver’s state on the board', () => {
  const at = new Date(2026, 10, 28, 10, 42).getTime();
  const since = new Date(at).toISOString();

  it('says the state and since when, in local time', () => {
    expect(boardStateText({ state: 'loading', since, trip_uid: 'x' }, at)).toBe('на погрузке с 10:42');
    expect(boardStateText({ state: 'loaded', since, trip_uid: 'x' }, at)).toBe('в пути с грузом с 10:42');
    expect(boardStateText({ state: 'unloading', since, trip_uid: 'x' }, at)).toBe('на выгрузке с 10:42');
    expect(boardStateText({ state: 'free', since: null, trip_uid: null }, at)).toBe('свободен');
  });

  it('counts the silent minutes of «нет данных» from the last step to now', () => {
    expect(boardStateText({ state: 'no_data', since, trip_uid: 'x' }, at + 95 * 60_000 + 30_000)).toBe('нет данных 95 мин');
    // A device clock ahead of this one never reads as negative.
    expect(boardStateText({ state: 'no_data', since, trip_uid: 'x' }, at - 60_000)).toBe('нет данных 0 мин');
  });
});
