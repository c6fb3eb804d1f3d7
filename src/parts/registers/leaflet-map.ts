/**
 * The place card's map on Leaflet (docs/registers.md «The map»): the point as a draggable marker, its radius as a
 * circle, a click or a drag picks a new point. Imported only by `PlaceMap.tsx` with a dynamic import, so Leaflet
 * and its CSS are a chunk of their own, fetched when a card with a map opens — never on the driver's screens or in
 * the console's first scripts (bench initial-js).
 */
import * as L from 'leaflet/dist/leaflet-src.esm.js';
import 'leaflet/dist/leaflet.css';

export interface MapPoint {
  lat: number;
  lon: number;
}

export interface PlaceMapOptions {
  tileUrl: string;
  attribution: string | null;
  point: MapPoint | null;
  radiusM: number;
  /** A click on the map or the marker dropped: the new point, six decimals (about 10 cm). */
  onPick: (point: MapPoint) => void;
  /**
   * false: tiles fail and none has loaded (offline, a wrong URL) — the box says so instead of staying grey;
   * true: a tile loaded after such failures.
   */
  onTiles: (ok: boolean) => void;
}

export interface PlaceMapHandle {
  update(point: MapPoint | null, radiusM: number): void;
  destroy(): void;
}

/** Without a point the map opens over Moscow at a region's zoom; with one, close enough to see the gate. */
const NO_POINT_VIEW = { center: L.latLng(55.7558, 37.6173), zoom: 8 };
const POINT_ZOOM = 16;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

export function createPlaceMap(element: HTMLElement, options: PlaceMapOptions): PlaceMapHandle {
  const start = options.point;
  const map = L.map(element, {
    center: start ? L.latLng(start.lat, start.lon) : NO_POINT_VIEW.center,
    zoom: start ? POINT_ZOOM : NO_POINT_VIEW.zoom,
    // A wheel over the dialog scrolls the card, not the map (the +/− buttons and pinch zoom it).
    scrollWheelZoom: false,
    zoomControl: false,
  });
  L.control.zoom({ zoomInTitle: 'Приблизить', zoomOutTitle: 'Отдалить' }).addTo(map);
  map.attributionControl.setPrefix('<a href="https://leafletjs.com" target="_blank" rel="noreferrer">Leaflet</a>');

  let loaded = 0;
  let failed = 0;
  L.tileLayer(options.tileUrl, {
    maxZoom: 19,
    // The page sends no referrer (helmet); OpenStreetMap's tile servers refuse a request without one, so the
    // tiles alone name the app's origin (never a path).
    referrerPolicy: 'strict-origin-when-cross-origin',
    ...(options.attribution ? { attribution: escapeHtml(options.attribution) } : {}),
  })
    .on('tileload', () => {
      loaded += 1;
      if (loaded === 1 && failed > 0) options.onTiles(true);
    })
    .on('tileerror', () => {
      failed += 1;
      if (loaded === 0 && failed === 1) options.onTiles(false);
    })
    .addTo(map);

  const marker = L.marker(NO_POINT_VIEW.center, {
    draggable: true,
    title: 'Точка места: перетащите, чтобы поправить',
    alt: 'Точка места',
    icon: L.divIcon({ className: 'place-map-pin', iconSize: [22, 22], iconAnchor: [11, 11] }),
  });
  const circle = L.circle(NO_POINT_VIEW.center, { radius: options.radiusM, color: '#1f4e79', weight: 2, fillOpacity: 0.12, interactive: false });

  const pick = (latlng: L.LatLng) => {
    const wrapped = latlng.wrap();
    options.onPick({ lat: rounded(wrapped.lat), lon: rounded(wrapped.lng) });
  };
  map.on('click', (event: L.LeafletMouseEvent) => pick(event.latlng));
  marker.on('dragend', () => pick(marker.getLatLng()));

  function update(point: MapPoint | null, radiusM: number): void {
    circle.setRadius(radiusM);
    if (!point) {
      marker.remove();
      circle.remove();
      return;
    }
    const at = L.latLng(point.lat, point.lon);
    marker.setLatLng(at).addTo(map);
    circle.setLatLng(at).addTo(map);
    // A point typed or pasted far away: bring it into view; a click nearby leaves the view as it is.
    if (!map.getBounds().contains(at)) map.setView(at, Math.max(map.getZoom(), POINT_ZOOM - 2));
  }
  update(start, options.radiusM);

  // The card's dialog may still be laying out when the map starts: keep Leaflet's idea of the size true.
  const resize = new ResizeObserver(() => map.invalidateSize());
  resize.observe(element);

  return {
    update,
    destroy() {
      resize.disconnect();
      map.remove();
    },
  };
}
