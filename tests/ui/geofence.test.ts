import { describe, expect, it } from 'vitest';
import { nextStep } from '../../contract/trips.ts';
import { advanceGeofence, dwellDue, INITIAL_GEOFENCE, stampsOf, type Fix } from '../../src/parts/driver/geofence.ts';

// A quarry and a building site about 11 km apart (0.1° of latitude).
const places = { loading: { lat: 55.0, lon: 37.0, radius_m: 150 }, unloading: { lat: 55.1, lon: 37.0, radius_m: 200 } };
const T = Date.UTC(2026, 10, 28, 7, 0, 0);
const min = 60_000;
/** A fix `metres` north of the quarry, at minute `m`. */
const fix = (m: number, metres: number, accuracy = 10): Fix => ({ lat: 55.0 + metres / 111_195, lon: 37.0, accuracy, at: T + m * min });

describe('automatic stamps from positions', () => {
  it('a whole trip: arrival after the dwell at the entry time, departure at the last fix inside', () => {
    const fixes = [
      fix(0, 3000), // on the road
      fix(1, 100), // enters the quarry
      fix(1.5, 50),
      fix(2.5, 20), // a minute inside: arrival, stamped at minute 1
      fix(10, 40),
      fix(20, 120), // last fix inside
      fix(21, 400), // out for sure: departure at minute 20
      fix(30, 5000),
      fix(40, 11_100), // at the site (0.1° ≈ 11.12 km)
      fix(40.5, 11_120),
      fix(41, 11_130), // a minute inside: arrival at minute 40
      fix(50, 11_150),
      fix(51, 12_000), // out: departure at minute 50
    ];
    const stamps = stampsOf(fixes, 'loading_arrived', places, 60, nextStep);
    expect(stamps.map((s) => [s.step, (s.at - T) / min])).toEqual([
      ['loading_arrived', 1],
      ['loading_departed', 20],
      ['unloading_arrived', 40],
      ['unloading_departed', 50],
    ]);
    expect(stamps[0]?.position).toEqual({ lat: fix(1, 100).lat, lon: 37.0, accuracy: 10 });
  });

  it('passing through the radius without staying stamps nothing', () => {
    expect(stampsOf([fix(0, 100), fix(0.5, 0), fix(0.9, 100), fix(1, 300), fix(3, 400)], 'loading_arrived', places, 60, nextStep)).toEqual([]);
  });

  it('a vague fix neither enters nor leaves; one just past the edge within its accuracy does not leave', () => {
    const vague = [fix(0, 100), fix(0.5, 100, 500), fix(1.2, 100)];
    expect(stampsOf(vague, 'loading_arrived', places, 60, nextStep).map((s) => s.step)).toEqual(['loading_arrived']);
    const edge = [fix(0, 100), fix(5, 170, 30), fix(6, 140)];
    expect(stampsOf(edge, 'loading_departed', places, 60, nextStep)).toEqual([]);
  });

  it('a gap with no positions (the page was hidden) starts the dwell again', () => {
    const fixes = [fix(0, 100), fix(5, 100), fix(5.5, 100)];
    expect(stampsOf(fixes, 'loading_arrived', places, 60, nextStep)).toEqual([]);
    expect(stampsOf([...fixes, fix(6, 100)], 'loading_arrived', places, 60, nextStep).map((s) => (s.at - T) / min)).toEqual([5]);
  });

  it('standing still with no new fix: the dwell completes on its own, stamped at the entry; none due outside or once stamped', () => {
    const entered = advanceGeofence(INITIAL_GEOFENCE, fix(0, 100), 'loading_arrived', places, 60);
    const crept = advanceGeofence(entered.state, fix(0.25, 90), 'loading_arrived', places, 60);
    const due = dwellDue(crept.state, 60);
    // «Still here» at the entry plus the dwell, where the last fix was.
    expect(due).toEqual({ ...fix(0.25, 90), at: T + 1 * min });
    const done = advanceGeofence(crept.state, due!, 'loading_arrived', places, 60);
    expect(done.stamp).toEqual({ step: 'loading_arrived', at: T, position: { lat: fix(0, 100).lat, lon: 37.0, accuracy: 10 } });
    expect(dwellDue(done.state, 60)).toBeNull();
    expect(dwellDue(advanceGeofence(INITIAL_GEOFENCE, fix(0, 3000), 'loading_arrived', places, 60).state, 60)).toBeNull();
  });

  it('a place without a point stamps nothing', () => {
    expect(stampsOf([fix(0, 0), fix(5, 0)], 'loading_arrived', { loading: null, unloading: null }, 60, nextStep)).toEqual([]);
  });
});
