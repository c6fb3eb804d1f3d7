/** A place's point from a pasted map link or typed coordinates, the driver's navigation links, the distance (contract/geo.ts). */
import { describe, expect, it } from 'vitest';
import {
  LAT_REASON,
  LON_REASON,
  NO_POINT_REASON,
  PLACE_RADIUS_DEFAULT_M,
  PLACE_RADIUS_MAX_M,
  PLACE_RADIUS_MIN_M,
  SHORT_LINK_REASON,
  UNKNOWN_LINK_REASON,
  UNKNOWN_TEXT_REASON,
  distanceMeters,
  latitude,
  navigationLinks,
  parsePoint,
  radiusMeters,
} from '../../contract/geo.ts';

const point = (input: string) => {
  const result = parsePoint(input);
  return result.ok ? { ...result.point, source: result.source } : result.reason;
};

describe('map links (the shapes the services give when a point is shared or the address bar copied)', () => {
  it('Yandex Maps: longitude first; whatshere and pt (the point) before ll (the view)', () => {
    expect(point('https://yandex.ru/maps/?ll=37.620070,55.753630&z=12')).toEqual({ lat: 55.75363, lon: 37.62007, source: 'yandex' });
    expect(point('https://yandex.ru/maps/?ll=30.310182,59.951059&pt=30.335429,59.944869&z=18&l=map')).toEqual({ lat: 59.944869, lon: 30.335429, source: 'yandex' });
    expect(point('https://yandex.ru/maps/?pt=37.64,55.76363,pmwtm1~37.62,55.75,pmwtm99&z=13')).toMatchObject({ lat: 55.76363, lon: 37.64 });
    expect(
      point('https://yandex.ru/maps/213/moscow/?ll=37.6%2C55.7&mode=whatshere&whatshere%5Bpoint%5D=37.444075%2C55.776788&whatshere%5Bzoom%5D=17&z=17'),
    ).toEqual({ lat: 55.776788, lon: 37.444075, source: 'yandex' });
    expect(point('https://maps.yandex.ru/?ll=37.62,55.75&z=12')).toMatchObject({ lat: 55.75, lon: 37.62 });
    expect(point('https://yandex.ru/maps/-/CDxCrS~a')).toBe(SHORT_LINK_REASON);
    expect(point('https://yandex.ru/maps/213/moscow/')).toBe(NO_POINT_REASON);
  });

  it('finds the link inside the text an app shares', () => {
    expect(point('Красная площадь — Яндекс Карты https://yandex.ru/maps/?pt=37.620795,55.753930&z=17')).toMatchObject({ lat: 55.75393, lon: 37.620795 });
  });

  it('2GIS: the object in the path before the view in m=, both longitude first', () => {
    expect(point('https://2gis.ru/moscow/geo/4504235282637578/37.620393,55.753960')).toEqual({ lat: 55.75396, lon: 37.620393, source: '2gis' });
    expect(point('https://2gis.ru/moscow?m=37.62%2C55.75%2F16')).toEqual({ lat: 55.75, lon: 37.62, source: '2gis' });
    expect(point('https://2gis.ru/moscow/firm/4504127908731515/37.617734,55.755826?m=37.6,55.7%2F15')).toMatchObject({ lat: 55.755826, lon: 37.617734 });
    expect(point('https://go.2gis.com/abc12')).toBe(SHORT_LINK_REASON);
  });

  it('Google Maps: !3d!4d (the place) before ?q= and before @ (the view), latitude first', () => {
    expect(point('https://www.google.com/maps/@55.7558,37.6173,15z')).toEqual({ lat: 55.7558, lon: 37.6173, source: 'google' });
    expect(point('https://www.google.com/maps?q=55.75,37.62')).toMatchObject({ lat: 55.75, lon: 37.62 });
    expect(point('https://www.google.com/maps/search/?api=1&query=55.75,37.62')).toMatchObject({ lat: 55.75, lon: 37.62 });
    expect(
      point(
        'https://www.google.com/maps/place/Red+Square/@55.7536,37.6180,17z/data=!3m1!4b1!4m6!3m5!1s0x46b54a5a738fa419:0x7c347d2a9d2d9b1!8m2!3d55.7539303!4d37.620795!16zL20vMDZmM3M',
      ),
    ).toEqual({ lat: 55.7539303, lon: 37.620795, source: 'google' });
    expect(point('https://www.google.ru/maps/place/55.7558,37.6173/@55.7,37.6,12z')).toMatchObject({ lat: 55.7558, lon: 37.6173 });
    expect(point('https://maps.app.goo.gl/abcdEFGH123')).toBe(SHORT_LINK_REASON);
    expect(point('https://www.google.com/maps/search/кафе')).toBe(NO_POINT_REASON);
  });

  it('OpenStreetMap: the marker before #map= (the view)', () => {
    expect(point('https://www.openstreetmap.org/#map=15/55.7558/37.6173')).toEqual({ lat: 55.7558, lon: 37.6173, source: 'osm' });
    expect(point('https://www.openstreetmap.org/?mlat=55.75&mlon=37.62#map=12/55.70/37.60')).toMatchObject({ lat: 55.75, lon: 37.62 });
    expect(point('https://osm.org/go/MnbQ7m--')).toBe(SHORT_LINK_REASON);
  });

  it('a geo: link, and a link of another site', () => {
    expect(point('geo:55.75,37.62')).toEqual({ lat: 55.75, lon: 37.62, source: 'geo' });
    expect(point('https://example.com/?ll=37.62,55.75')).toBe(UNKNOWN_LINK_REASON);
  });

  it('refuses a point off the globe (a swapped pair, a typo), naming the coordinate', () => {
    expect(point('https://yandex.ru/maps/?ll=55.75,137.62')).toBe(LAT_REASON);
    expect(point('https://www.google.com/maps/@55.75,190.1,15z')).toBe(LON_REASON);
    expect(point('https://www.openstreetmap.org/#map=15/-91/37.62')).toBe(LAT_REASON);
  });
});

describe('typed coordinates (latitude first)', () => {
  it('decimal degrees with a point or a comma', () => {
    for (const text of ['55.7558, 37.6173', '55.7558 37.6173', '55.7558,37.6173', '55.7558;37.6173', '55,7558 37,6173', '55,7558; 37,6173', '55,7558, 37,6173']) {
      expect(point(text), text).toEqual({ lat: 55.7558, lon: 37.6173, source: 'typed' });
    }
    expect(point('−33.8688, 151.2093')).toMatchObject({ lat: -33.8688, lon: 151.2093 });
    expect(point('55, 37')).toMatchObject({ lat: 55, lon: 37 });
  });

  it('degrees, minutes and seconds, with N/E or с. ш./в. д.', () => {
    expect(point('55°45′20.9″N 37°37′02.3″E')).toEqual({ lat: 55.755806, lon: 37.617306, source: 'typed' });
    expect(point(`55°45'21" с. ш., 37°37'2" в. д.`)).toMatchObject({ lat: 55.755833, lon: 37.617222 });
    expect(point('37°37′E 55°45′N')).toMatchObject({ lat: 55.75, lon: 37.616667 });
    expect(point('33°52′S, 151°12′E')).toMatchObject({ lat: -33.866667, lon: 151.2 });
    expect(point('55.7558° N, 37.6173° E')).toMatchObject({ lat: 55.7558, lon: 37.6173 });
    expect(point('55°75′ 37°10′')).toBe('Координаты: минуты и секунды должны быть меньше 60');
    expect(point('55°N 56°N')).toBe('Координаты: нужны широта (N или с. ш.) и долгота (E или в. д.)');
  });

  it('refuses one number, text and out-of-range values', () => {
    expect(point('55,75')).toBe(UNKNOWN_TEXT_REASON);
    expect(point('Москва, Красная площадь')).toBe(UNKNOWN_TEXT_REASON);
    expect(point('95.1, 37.6')).toBe(LAT_REASON);
    expect(point('55.1, -180.5')).toBe(LON_REASON);
    expect(parsePoint('  ')).toEqual({ ok: false, reason: 'Координаты: вставьте ссылку на карту или введите широту и долготу' });
  });
});

describe('navigation links for the driver', () => {
  it('Yandex Navigator, Yandex Maps, Google Maps and geo:, latitude first', () => {
    expect(navigationLinks({ lat: 55.7539303, lon: 37.620795 })).toEqual({
      yandexNavi: 'yandexnavi://build_route_on_map?lat_to=55.75393&lon_to=37.620795',
      yandexMaps: 'https://yandex.ru/maps/?rtext=~55.75393,37.620795&rtt=auto',
      googleMaps: 'https://www.google.com/maps/dir/?api=1&destination=55.75393,37.620795',
      geo: 'geo:55.75393,37.620795?q=55.75393,37.620795',
    });
    expect(navigationLinks({ lat: -0.0000001, lon: 1e-7 }).geo).toBe('geo:0,0?q=0,0');
  });

  it('a parsed link leads back to the same point', () => {
    const links = navigationLinks({ lat: 55.75, lon: 37.62 });
    expect(point(links.googleMaps)).toMatchObject({ lat: 55.75, lon: 37.62 });
    expect(point(links.geo)).toMatchObject({ lat: 55.75, lon: 37.62 });
  });
});

describe('distance and radius', () => {
  it('haversine metres', () => {
    const a = { lat: 55.75, lon: 37.62 };
    expect(distanceMeters(a, a)).toBe(0);
    // One degree of latitude on the mean sphere: 6 371 008.8 m × π / 180.
    expect(distanceMeters({ lat: 55, lon: 37 }, { lat: 56, lon: 37 })).toBeCloseTo(111_195.08, 1);
    // Moscow (Red Square) to St Petersburg (Palace Square): about 634 km.
    const spb = { lat: 59.939, lon: 30.3158 };
    expect(distanceMeters(a, spb) / 1000).toBeGreaterThan(630);
    expect(distanceMeters(a, spb) / 1000).toBeLessThan(638);
    expect(distanceMeters(a, spb)).toBeCloseTo(distanceMeters(spb, a), 6);
    expect(distanceMeters({ lat: 0, lon: 0 }, { lat: 0, lon: 180 })).toBeCloseTo(Math.PI * 6_371_008.8, 0);
  });

  it('the radius is 150 m unless set, from 30 to 2000 m; latitude within −90..90', () => {
    expect([PLACE_RADIUS_DEFAULT_M, PLACE_RADIUS_MIN_M, PLACE_RADIUS_MAX_M]).toEqual([150, 30, 2000]);
    expect(radiusMeters.safeParse(30).success).toBe(true);
    expect(radiusMeters.safeParse(2000).success).toBe(true);
    expect(radiusMeters.safeParse(29).error?.issues[0]?.message).toBe('Радиус: от 30 до 2000 м');
    expect(radiusMeters.safeParse(2001).error?.issues[0]?.message).toBe('Радиус: от 30 до 2000 м');
    expect(latitude.safeParse(90.5).error?.issues[0]?.message).toBe(LAT_REASON);
  });
});
