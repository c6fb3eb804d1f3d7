/**
 * How a driver gets to a task's place (issue 31): its address, the note for drivers (gate code, hours, who meets
 * him, the road in) and, where the place has its point, one-tap navigation by coordinates — Yandex Navigator,
 * Yandex Maps, Google Maps and a plain `geo:` link any map app opens (contract/geo.ts `navigationLinks`).
 */
import { navigationLinks } from '../../../contract/geo.ts';
import type { PlaceRef } from '../../../contract/registers.ts';
import './task-summary.css';

/** Whether the place has anything to guide by. */
export function hasGuide(place: PlaceRef | null | undefined): place is PlaceRef {
  return !!place && (!!place.address || !!place.driver_note || (place.lat !== null && place.lon !== null));
}

export function PlaceGuide({ label, place }: { label: string; place: PlaceRef }) {
  const links = place.lat !== null && place.lon !== null ? navigationLinks({ lat: place.lat, lon: place.lon }) : null;
  return (
    <div className="drv-guide">
      <p className="drv-guide__line">
        <span className="drv-guide__label">{label}:</span> {place.address ?? place.name}
      </p>
      {place.driver_note && <p className="drv-guide__note">{place.driver_note}</p>}
      {links && (
        <div className="drv-guide__links" role="group" aria-label={`Как доехать: ${label.toLowerCase()}, ${place.name}`}>
          <a href={links.yandexNavi}>Навигатор</a>
          <a href={links.yandexMaps} target="_blank" rel="noreferrer">
            Яндекс Карты
          </a>
          <a href={links.googleMaps} target="_blank" rel="noreferrer">
            Google Maps
          </a>
          <a href={links.geo}>Другая карта</a>
        </div>
      )}
    </div>
  );
}
