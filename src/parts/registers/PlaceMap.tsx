/**
 * The small map on a place's card (issue 31 §2; docs/registers.md «The map»): the point and its radius, a click or
 * a drag sets the card's coordinates (saved with the card, as typed ones are). Shown only where the server has
 * map tiles (`GET /places/map-tiles`, MAP_TILE_URL) and the app is online; otherwise — and when Leaflet or the
 * tiles fail to load — a line says so and the card works as without a map: a pasted link, typed coordinates,
 * «Я здесь». Leaflet comes with `leaflet-map.ts`, imported on demand.
 */
import { useEffect, useRef, useState } from 'react';
import { useGet } from '../../engine/api.ts';
import { useOnline } from '../../engine/use-online.ts';
import type { MapPoint, PlaceMapHandle } from './leaflet-map.ts';

export interface PlaceMapProps {
  point: MapPoint | null;
  radiusM: number;
  onPick: (point: MapPoint) => void;
}

const WITHOUT = 'точку задают ссылкой на карту, координатами или кнопкой «Я здесь»';

export function PlaceMap(props: PlaceMapProps) {
  const tiles = useGet('GET /places/map-tiles', undefined, { staleTime: Infinity });
  const online = useOnline();
  if (tiles.isPending) return null;
  const setting = tiles.data?.data;
  if (!setting?.tile_url) {
    return <p className="field-hint place-map-note">{tiles.isError ? `Карта сейчас недоступна: ${WITHOUT}.` : `Карта на этом сервере не подключена: ${WITHOUT}.`}</p>;
  }
  if (!online) return <p className="field-hint place-map-note">Без связи карта не показывается: {WITHOUT}.</p>;
  return <LeafletBox {...props} tileUrl={setting.tile_url} attribution={setting.attribution} />;
}

type BoxState = 'loading' | 'ready' | 'failed' | 'no-tiles';

function LeafletBox({ point, radiusM, onPick, tileUrl, attribution }: PlaceMapProps & { tileUrl: string; attribution: string | null }) {
  const box = useRef<HTMLDivElement>(null);
  const handle = useRef<PlaceMapHandle | null>(null);
  const [state, setState] = useState<BoxState>('loading');
  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  // What the map starts from and calls back: the latest, without restarting the map on every keystroke.
  const latest = useRef({ point, radiusM, onPick });
  useEffect(() => {
    latest.current = { point, radiusM, onPick };
  });

  useEffect(() => {
    let stopped = false;
    import('./leaflet-map.ts').then(
      ({ createPlaceMap }) => {
        if (stopped || !box.current) return;
        const { point: start, radiusM: radius } = latest.current;
        handle.current = createPlaceMap(box.current, {
          tileUrl,
          attribution,
          point: start,
          radiusM: radius,
          onPick: (picked) => latest.current.onPick(picked),
          onTiles: (ok) => setState(ok ? 'ready' : 'no-tiles'),
        });
        setState((now) => (now === 'loading' ? 'ready' : now));
      },
      () => {
        if (!stopped) setState('failed');
      },
    );
    return () => {
      stopped = true;
      handle.current?.destroy();
      handle.current = null;
    };
  }, [tileUrl, attribution]);

  useEffect(() => {
    handle.current?.update(lat !== null && lon !== null ? { lat, lon } : null, radiusM);
  }, [lat, lon, radiusM]);

  if (state === 'failed') return <p className="field-hint place-map-note">Карта не загрузилась: {WITHOUT}.</p>;
  return (
    <div className={`place-map place-map--${state}`}>
      <div ref={box} className="place-map-box" role="application" aria-label="Карта: нажмите, чтобы поставить точку места" />
      {state === 'loading' && <p className="place-map-over">Загрузка карты…</p>}
      {state === 'no-tiles' && <p className="place-map-over">Карта не загружается (нет связи с сервером карт): {WITHOUT}.</p>}
      {state === 'ready' && <p className="field-hint">Нажмите на карту или перетащите метку — координаты встанут в поле выше; сохранятся вместе с карточкой.</p>}
    </div>
  );
}
