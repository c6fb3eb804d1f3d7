/**
 * A place's point on the map (WGS-84 degrees): read from a link pasted from Yandex Maps, 2GIS, Google Maps or
 * OpenStreetMap, or from typed coordinates; the links that take a driver there; the distance between two points
 * and the geofence's radius. Pure: the place's card reads a pasted link with it, the server checks the numbers,
 * the driver's screen builds its navigation links (tests/contract/geo.test.ts).
 *
 * Yandex (`ll`, `pt`, `whatshere[point]`) and 2GIS (its path and `m`) write the longitude first; Google,
 * OpenStreetMap, `geo:` and typed coordinates the latitude first. A link's marked point is preferred over the
 * map's centre. Short links (yandex.ru/maps/-/…, go.2gis.com, maps.app.goo.gl, osm.org/go) hold no coordinates:
 * they are opened in a browser, which cannot be done offline, so the person is asked for the full link.
 */
import { z } from 'zod';

export type LatLon = { lat: number; lon: number };
export type MapSource = 'yandex' | '2gis' | 'google' | 'osm' | 'geo' | 'typed';
export type PointParse = { ok: true; point: LatLon; source: MapSource } | { ok: false; reason: string };

/** The geofence around a place: 150 m unless set, from 30 to 2000 m. */
export const PLACE_RADIUS_DEFAULT_M = 150;
export const PLACE_RADIUS_MIN_M = 30;
export const PLACE_RADIUS_MAX_M = 2000;

export const LAT_REASON = 'Широта: должна быть от −90 до 90';
export const LON_REASON = 'Долгота: должна быть от −180 до 180';
export const SHORT_LINK_REASON =
  'Короткая ссылка не содержит координат: откройте её в браузере и скопируйте полную ссылку из адресной строки';
export const NO_POINT_REASON = 'В ссылке нет координат: поставьте точку на карте и скопируйте ссылку ещё раз';
export const UNKNOWN_LINK_REASON = 'Ссылка не распознана: вставьте ссылку из Яндекс Карт, 2ГИС, Google Maps или OpenStreetMap';
export const UNKNOWN_TEXT_REASON = 'Координаты не распознаны: вставьте ссылку на карту или введите широту и долготу, например 55.7558, 37.6173';

/** null when the point is on the globe, else the reason naming the coordinate. */
export function coordinatesProblem(lat: number, lon: number): string | null {
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) return LAT_REASON;
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) return LON_REASON;
  return null;
}

/** A decimal number as links write it: an optional minus, digits, optionally a point and digits. */
const LINK_NUMBER = /^[-+]?\d{1,3}(?:\.\d+)?$/;

function pointOf(lat: string | undefined, lon: string | undefined, source: MapSource): PointParse | null {
  if (lat === undefined || lon === undefined || !LINK_NUMBER.test(lat.trim()) || !LINK_NUMBER.test(lon.trim())) return null;
  return checked(Number(lat), Number(lon), source);
}

function checked(lat: number, lon: number, source: MapSource): PointParse {
  const reason = coordinatesProblem(lat, lon);
  return reason ? { ok: false, reason } : { ok: true, point: { lat: lat === 0 ? 0 : lat, lon: lon === 0 ? 0 : lon }, source };
}

/** «lon,lat» (Yandex, 2GIS), with whatever follows a third comma or a slash (a style, a zoom). */
function lonFirst(pair: string | null | undefined, source: MapSource): PointParse | null {
  const [lon, lat] = (pair ?? '').split(/[,/]/);
  return pointOf(lat, lon, source);
}

/** «lat,lon» (Google, `geo:`). */
function latFirst(pair: string | null | undefined, source: MapSource): PointParse | null {
  const [lat, lon] = (pair ?? '').split(',');
  return pointOf(lat, lon, source);
}

/** A percent-encoded text decoded, or left as it is when its encoding is broken. */
function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const first = (...found: (PointParse | null)[]): PointParse => found.find((p) => p !== null) ?? { ok: false, reason: NO_POINT_REASON };

function yandex(url: URL): PointParse {
  if (/^\/maps\/-\//.test(url.pathname)) return { ok: false, reason: SHORT_LINK_REASON };
  const q = url.searchParams;
  // A placemark's `pt` may hold several points, each «lon,lat[,style]», joined by «~»: the first is taken.
  return first(lonFirst(q.get('whatshere[point]'), 'yandex'), lonFirst(q.get('pt')?.split('~')[0], 'yandex'), lonFirst(q.get('ll'), 'yandex'));
}

function twoGis(url: URL): PointParse {
  if (url.hostname.startsWith('go.')) return { ok: false, reason: SHORT_LINK_REASON };
  // …/geo/<id>/<lon>,<lat> or …/firm/<id>/<lon>,<lat>: the object's point; `m=<lon>,<lat>/<zoom>` is the view.
  const segment = url.pathname.split('/').reverse().find((s) => s.includes(','));
  return first(lonFirst(segment ? decoded(segment) : null, '2gis'), lonFirst(url.searchParams.get('m'), '2gis'));
}

function google(url: URL): PointParse {
  const href = decoded(url.href);
  // `!3d<lat>!4d<lon>` in the data is the place itself; `@<lat>,<lon>,<zoom>z` only the view's centre.
  const place = [...href.matchAll(/!3d(-?[\d.]+)!4d(-?[\d.]+)/g)].pop();
  const q = url.searchParams;
  const pathPlace = /\/place\/([-\d.]+,[-\d.]+)(?:\/|$)/.exec(url.pathname)?.[1];
  return first(
    place ? pointOf(place[1], place[2], 'google') : null,
    latFirst(q.get('q'), 'google'),
    latFirst(q.get('query'), 'google'),
    latFirst(q.get('destination'), 'google'),
    latFirst(pathPlace, 'google'),
    latFirst(/@([-\d.]+,[-\d.]+)/.exec(url.pathname)?.[1], 'google'),
    latFirst(q.get('ll'), 'google'),
  );
}

function osm(url: URL): PointParse {
  if (url.pathname.startsWith('/go/')) return { ok: false, reason: SHORT_LINK_REASON };
  const q = url.searchParams;
  // `mlat`/`mlon` is the marker; `#map=<zoom>/<lat>/<lon>` the view.
  const view = /map=\d+(?:\.\d+)?\/([-\d.]+)\/([-\d.]+)/.exec(url.hash);
  return first(pointOf(q.get('mlat') ?? undefined, q.get('mlon') ?? undefined, 'osm'), view ? pointOf(view[1], view[2], 'osm') : null, pointOf(q.get('lat') ?? undefined, q.get('lon') ?? undefined, 'osm'));
}

function fromUrl(url: URL): PointParse {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  if (/^(?:maps\.)?yandex\.[a-z.]+$|^ya\.ru$/.test(host)) return yandex(url);
  if (/(?:^|\.)2gis\.[a-z.]+$/.test(host)) return twoGis(url);
  if (/^maps\.app\.goo\.gl$|^goo\.gl$/.test(host)) return { ok: false, reason: SHORT_LINK_REASON };
  if (/^(?:maps\.)?google\.[a-z.]+$/.test(host)) return google(url);
  if (/^(?:openstreetmap\.org|osm\.org)$/.test(host)) return osm(url);
  return { ok: false, reason: UNKNOWN_LINK_REASON };
}

/** One coordinate in degrees, minutes and seconds: 55°45′20.9″N, N55°45'21", 55°45′ с. ш., 55.7558° N. */
const DMS =
  /([NSEW])?\s*(\d{1,3}(?:[.,]\d+)?)\s*°\s*(?:(\d{1,2}(?:[.,]\d+)?)\s*['′’]\s*)?(?:(\d{1,2}(?:[.,]\d+)?)\s*(?:["″”]|''|′′)\s*)?([NSEW]|[сю]\.?\s*ш\.?|[вз]\.?\s*д\.?)?/giu;

const number = (s: string | undefined) => (s ? Number(s.replace(',', '.')) : 0);

function typedDms(s: string): PointParse | null {
  const found = [...s.matchAll(DMS)];
  if (found.length !== 2 || s.replace(DMS, '').replace(/[\s,;]/g, '') !== '') return null;
  const parts = found.map((m) => {
    const minutes = number(m[3]);
    const seconds = number(m[4]);
    if (minutes >= 60 || seconds >= 60) return null;
    const hemisphere = (m[1] ?? m[5] ?? '').toLowerCase().replace(/[.\s]/g, '');
    const axis = /^(?:n|s|сш|юш)$/.test(hemisphere) ? 'lat' : hemisphere ? 'lon' : null;
    const negative = /^(?:s|w|юш|зд)$/.test(hemisphere);
    const value = Math.round((number(m[2]) + minutes / 60 + seconds / 3600) * 1e6) / 1e6;
    return { axis, value: negative ? -value : value };
  });
  const [a, b] = parts;
  if (!a || !b) return { ok: false, reason: 'Координаты: минуты и секунды должны быть меньше 60' };
  if (a.axis && a.axis === b.axis) return { ok: false, reason: 'Координаты: нужны широта (N или с. ш.) и долгота (E или в. д.)' };
  const [lat, lon] = a.axis === 'lon' || b.axis === 'lat' ? [b.value, a.value] : [a.value, b.value];
  return checked(lat, lon, 'typed');
}

/**
 * Two decimal numbers, the latitude first: with points («55.7558, 37.6173», «55.7558 37.6173», «55.7558;37.6173»)
 * or with decimal commas and a space or a semicolon between them («55,7558 37,6173», «55,7558; 37,6173»). A bare
 * comma between two whole numbers («55,75») is one number with a decimal comma, not a point.
 */
function typedDecimal(s: string): PointParse | null {
  const t = s.replace(/−/g, '-');
  const withPoints = /^([-+]?\d{1,3}(?:\.\d+)?)(\s*[,;]\s*|\s+)([-+]?\d{1,3}(?:\.\d+)?)$/.exec(t);
  if (withPoints && !(withPoints[2] === ',' && !withPoints[1]?.includes('.') && !withPoints[3]?.includes('.'))) {
    return pointOf(withPoints[1], withPoints[3], 'typed');
  }
  const withCommas = /^([-+]?\d{1,3}(?:,\d+)?)(?:\s*;\s*|,?\s+)([-+]?\d{1,3}(?:,\d+)?)$/.exec(t);
  if (withCommas) return pointOf(withCommas[1]?.replace(',', '.'), withCommas[2]?.replace(',', '.'), 'typed');
  return null;
}

/**
 * The point of a pasted map link or of typed coordinates. A link may come inside the text an app shares
 * («Кремль — Яндекс Карты https://yandex.ru/maps/…»): the first link in the text is read.
 */
export function parsePoint(input: string): PointParse {
  const s = input.trim();
  if (s === '') return { ok: false, reason: 'Координаты: вставьте ссылку на карту или введите широту и долготу' };
  const geoUri = /^geo:([-+\d.]+,[-+\d.]+)/i.exec(s);
  if (geoUri) return latFirst(geoUri[1], 'geo') ?? { ok: false, reason: UNKNOWN_TEXT_REASON };
  const link = /https?:\/\/\S+/i.exec(s)?.[0] ?? (/^(?:www\.)?[a-z0-9.-]+\.[a-z]{2,}\//i.test(s) ? `https://${s}` : null);
  if (link) {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      return { ok: false, reason: UNKNOWN_LINK_REASON };
    }
    return fromUrl(url);
  }
  return typedDecimal(s) ?? typedDms(s) ?? { ok: false, reason: UNKNOWN_TEXT_REASON };
}

/** A coordinate in a link: at most 6 decimals (about 10 cm), no trailing zeros, never an exponent. */
const coord = (n: number) => String(Number(n.toFixed(6)));

/** One-tap navigation to a point for the driver's phone: Yandex Navigator, Yandex Maps, Google Maps, any map app. */
export function navigationLinks({ lat, lon }: LatLon): { yandexNavi: string; yandexMaps: string; googleMaps: string; geo: string } {
  const la = coord(lat);
  const lo = coord(lon);
  return {
    yandexNavi: `yandexnavi://build_route_on_map?lat_to=${la}&lon_to=${lo}`,
    // rtext is «from~to», latitude first; an empty «from» is the phone's own position.
    yandexMaps: `https://yandex.ru/maps/?rtext=~${la},${lo}&rtt=auto`,
    googleMaps: `https://www.google.com/maps/dir/?api=1&destination=${la},${lo}`,
    // `q` makes Android's map apps put a pin on the point, not only centre the map there.
    geo: `geo:${la},${lo}?q=${la},${lo}`,
  };
}

/** The mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** The great-circle distance between two points, metres (haversine: under 0.5 % off the ellipsoid, plenty for a geofence). */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The fields of a place's point for a write schema. */
export const latitude = z.number({ message: 'Широта: ожидается число' }).min(-90, LAT_REASON).max(90, LAT_REASON);
export const longitude = z.number({ message: 'Долгота: ожидается число' }).min(-180, LON_REASON).max(180, LON_REASON);
const RADIUS_REASON = `Радиус: от ${PLACE_RADIUS_MIN_M} до ${PLACE_RADIUS_MAX_M} м`;
export const radiusMeters = z
  .number({ message: 'Радиус: ожидается число метров' })
  .int('Радиус: целое число метров')
  .min(PLACE_RADIUS_MIN_M, RADIUS_REASON)
  .max(PLACE_RADIUS_MAX_M, RADIUS_REASON);
