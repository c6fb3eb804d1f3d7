/**
 * A place's card (issue 31): name, address, the point — a pasted map link or typed coordinates, read as typed with
 * the service it came from shown, «Я здесь» (the device's position with its accuracy), or a click on the small map
 * where the server has map tiles (`PlaceMap`; not in the `essential` card) —, the geofence radius,
 * the owner (a counterparty, picked), the note for drivers. `essential` (the task form's in-place create) leaves out
 * the owner and the radius. A refusal stands under its field and everything typed stays.
 */
import { lazy, Suspense, useId, useState } from 'react';
import { PLACE_RADIUS_DEFAULT_M, PLACE_RADIUS_MAX_M, PLACE_RADIUS_MIN_M } from '../../../contract/geo.ts';
import type { Place } from '../../../contract/registers.ts';
import { useSend } from '../../engine/api.ts';
import { Field, TextAreaField } from '../../ui/Field.tsx';
import { emptyPlace, MAP_SOURCE_LABELS, PLACE_FIELDS, PLACE_LABELS, placeBody, placeValues, readPoint, type PlaceValues } from './register-form.ts';
import { RegisterPicker } from './RegisterPicker.tsx';
import { CardDialog, saveCard, useCard } from './use-card.tsx';
import './registers.css';

export interface PlaceDialogProps {
  card: Place | null;
  initial?: Partial<PlaceValues>;
  essential?: boolean;
  companyId?: number | null;
  onSaved: (saved: Place) => void;
  onClose: () => void;
}

// A chunk of its own (and Leaflet one more behind it): the task form's in-place card has no map and loads neither.
const PlaceMap = lazy(() => import('./PlaceMap.tsx').then((module) => ({ default: module.PlaceMap })));

type Locating = { state: 'idle' } | { state: 'busy' } | { state: 'done'; accuracy: number } | { state: 'failed'; reason: string };

const GEO_ERRORS: Record<number, string> = {
  1: 'Доступ к местоположению запрещён: разрешите его в настройках браузера',
  2: 'Местоположение не определено: выйдите на открытое место и попробуйте ещё раз',
  3: 'Местоположение не определилось за 20 секунд: попробуйте ещё раз',
};

export function PlaceDialog({ card, initial, essential = false, companyId, onSaved, onClose }: PlaceDialogProps) {
  const create = useSend('POST /places/');
  const update = useSend('PUT /places/:id');
  const scopeId = useId();
  const [ownerText, setOwnerText] = useState(card?.counterparty?.name ?? initial?.counterparty?.name ?? '');
  const [locating, setLocating] = useState<Locating>({ state: 'idle' });
  const form = useCard({
    initial: card ? placeValues(card) : { ...emptyPlace(), ...initial },
    fields: PLACE_FIELDS,
    labels: PLACE_LABELS,
    check: placeBody,
    save: saveCard(create, update, card, companyId),
    onSaved,
    scope: () => document.getElementById(scopeId),
  });
  const { values, errors, set, text } = form;
  const point = readPoint(values.point);
  const radius = Number(values.radius_m.trim());
  const mapRadius = Number.isInteger(radius) && radius >= PLACE_RADIUS_MIN_M && radius <= PLACE_RADIUS_MAX_M ? radius : PLACE_RADIUS_DEFAULT_M;

  function locate(): void {
    setLocating({ state: 'busy' });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const { latitude, longitude, accuracy } = position.coords;
        set({ point: `${latitude.toFixed(6)}, ${longitude.toFixed(6)}` });
        setLocating({ state: 'done', accuracy: Math.round(accuracy) });
      },
      (failure) => setLocating({ state: 'failed', reason: GEO_ERRORS[failure.code] ?? 'Местоположение не определено' }),
      { enableHighAccuracy: true, timeout: 20_000, maximumAge: 0 },
    );
  }

  const pointHint =
    point.state === 'ok'
      ? `✓ ${MAP_SOURCE_LABELS[point.source]}: ${point.lat.toFixed(6)}, ${point.lon.toFixed(6)}`
      : point.state === 'bad'
        ? undefined
        : 'Вставьте ссылку из Яндекс Карт, 2ГИС, Google Maps или OpenStreetMap, или введите широту и долготу: 55.7558, 37.6173';

  return (
    <CardDialog title={card ? `Место «${card.name}»` : 'Новое место'} submitLabel={card ? 'Сохранить' : 'Создать'} card={form} scopeId={scopeId} onClose={onClose}>
        <Field label="Название" placeholder="Карьер Гранит" {...text('name')} />
        <Field label="Адрес" placeholder="Московская обл., Раменский р-н, д. Гжель" {...text('address')} />
        <div className="register-wide">
          <Field
            label="Координаты"
            name="point"
            value={values.point}
            autoComplete="off"
            placeholder="Ссылка на карту или 55.7558, 37.6173"
            error={errors.point ?? (point.state === 'bad' ? point.reason : undefined)}
            hint={pointHint}
            onChange={(event) => {
              set({ point: event.target.value });
              setLocating({ state: 'idle' });
            }}
          />
          <div className="register-point-tools">
            {typeof navigator !== 'undefined' && 'geolocation' in navigator && (
              <button type="button" className="button button-small" disabled={locating.state === 'busy'} onClick={locate}>
                {locating.state === 'busy' ? 'Определяем…' : 'Я здесь'}
              </button>
            )}
            {locating.state === 'done' && <span className="field-hint">Точность ± {locating.accuracy} м</span>}
            {locating.state === 'failed' && (
              <span className="field-error" role="alert">
                {locating.reason}
              </span>
            )}
            {point.state === 'ok' && (
              <a className="button button-small button-quiet" href={`https://www.openstreetmap.org/?mlat=${point.lat}&mlon=${point.lon}#map=16/${point.lat}/${point.lon}`} target="_blank" rel="noreferrer">
                Проверить на карте
              </a>
            )}
          </div>
          {!essential && (
            <Suspense fallback={null}>
              <PlaceMap
                point={point.state === 'ok' ? { lat: point.lat, lon: point.lon } : null}
                radiusM={mapRadius}
                onPick={({ lat, lon }) => {
                  set({ point: `${lat.toFixed(6)}, ${lon.toFixed(6)}` });
                  setLocating({ state: 'idle' });
                }}
              />
            </Suspense>
          )}
        </div>
        {!essential && (
          <>
            <Field
              label="Радиус, м"
              inputMode="numeric"
              hint={`Зона прибытия вокруг точки: от ${PLACE_RADIUS_MIN_M} до ${PLACE_RADIUS_MAX_M} м, обычно ${PLACE_RADIUS_DEFAULT_M}`}
              {...text('radius_m')}
            />
            <RegisterPicker
              register="counterparties"
              label="Владелец (контрагент)"
              name="counterparty_id"
              text={ownerText}
              picked={values.counterparty ? { id: values.counterparty.id, name: values.counterparty.name } : null}
              onText={(typed) => {
                setOwnerText(typed);
                if (values.counterparty) set({ counterparty: null });
              }}
              onPick={(picked) => {
                setOwnerText(picked.name);
                set({ counterparty: { id: picked.id, name: picked.name } });
              }}
              error={errors.counterparty_id}
              hint="Необязательно: чей это карьер или склад"
              companyId={companyId ?? null}
            />
          </>
        )}
        <div className="register-wide">
          <TextAreaField
            label="Заметка для водителя"
            rows={3}
            placeholder="Код ворот, часы работы, кто встречает, как подъехать"
            {...text('driver_note')}
          />
        </div>
    </CardDialog>
  );
}
