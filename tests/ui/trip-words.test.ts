/** What /reports/{id} says about a trip's stamps and waits (src/screens/report-view/trip-words.ts). */
import { describe, expect, it } from 'vitest';
import { mapLink, minutesText, stampPlaceText, waitLines } from '../../src/screens/report-view/trip-words.ts';

describe('trip words for staff', () => {
  it('links a position on Yandex Maps longitude first, with a pin', () => {
    expect(mapLink({ lat: 55.7512345678, lon: 37.6184 })).toBe('https://yandex.ru/maps/?pt=37.6184,55.751235&z=16&l=map');
  });

  it('says how far from the place and how accurate, or that there was no position', () => {
    expect(stampPlaceText({ position: { lat: 55, lon: 37, accuracy: 12.4 }, distance_m: 120 })).toBe('в 120 м от места · точность ±12 м');
    expect(stampPlaceText({ position: { lat: 55, lon: 37, accuracy: 30 }, distance_m: 2049 })).toBe('в 2 км от места · точность ±30 м');
    expect(stampPlaceText({ position: { lat: 55, lon: 37, accuracy: 8 }, distance_m: null })).toBe('координаты места неизвестны · точность ±8 м');
    expect(stampPlaceText({ position: null, distance_m: null })).toBe('без координат');
  });

  it('writes minutes as hours and minutes', () => {
    expect([minutesText(null), minutesText(0), minutesText(45), minutesText(60), minutesText(75), minutesText(125)]).toEqual(['—', '0 мин', '45 мин', '1 ч', '1 ч 15 мин', '2 ч 5 мин']);
  });

  it('marks only the waits at a place above the threshold as long', () => {
    const lines = waitLines({ loading_min: 61, unloading_min: 60, travel_min: 90, cycle_min: null }, 60);
    expect(lines.map((l) => [l.label, l.long])).toEqual([
      ['Простой на погрузке', true],
      ['В пути с грузом', false],
      ['Простой на выгрузке', false],
      ['Цикл до следующей погрузки', false],
    ]);
    expect(waitLines({ loading_min: 500, unloading_min: null, travel_min: null, cycle_min: null }, null)[0]?.long).toBe(false);
  });
});
