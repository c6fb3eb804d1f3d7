/**
 * The trip as it happens, on the driver's task card (issue 32): one big button for the next step of the current
 * trip — «Прибыл на погрузку» → «Загружен, выезжаю» → «Прибыл на выгрузку» → «Выгружен» — and the trip's timeline
 * with the stamped times. Each step is stamped with the phone's time at the tap and, when the driver allowed it,
 * one reading of the position; the engine's outbox keeps it and delivers it (offline too). The last stamp can be
 * taken back for 10 s («Отменить»), before anything was sent.
 */
import { useEffect, useRef, useState } from 'react';
import { TRIP_STEP_DONE, TRIP_STEP_LABELS, TRIP_STEPS, type Position, type StampSource, type TripStep } from '../../../contract/trips.ts';
import type { PlaceRef } from '../../../contract/registers.ts';
import type { DriverAssociation, Task } from '../../../contract/entities.ts';
import { requestBackgroundSync } from '../../app/pwa/register.ts';
import { getEngine } from '../../engine/engine.ts';
import { useGet } from '../../engine/api.ts';
import { noTripSheetMessage } from '../../../contract/trips.ts';
import { localDate } from './odometer.ts';
import { useEngineSelector } from '../../engine/store.ts';
import { formatClock } from '../../ui/format.ts';
import { showToast } from '../../ui/toasts.ts';
import { readPosition } from './position.ts';
import { TripStepSheet, type FactStep, type StepFacts } from './TripStepSheet.tsx';
import { correctedTime, tripSettingsOf, tripsOf, undoable, type StampView, type TripView } from './trip-state.ts';
import type { AutoStamp, Fence } from './geofence.ts';
import { useTripWatch } from './use-trip-watch.ts';
import './trip.css';

/** A place's fence for the automatic stamps, when it has a point. */
const fenceOf = (place: PlaceRef | null): Fence | null =>
  place && place.lat !== null && place.lon !== null ? { lat: place.lat, lon: place.lon, radius_m: place.radius_m } : null;

/** The time and place of a stamp the phone made itself (geofence.ts), or null for a tap. */
interface AutoFacts {
  at: string;
  position: Position;
  source: StampSource;
}

/**
 * «Отмечаем...» only when the step takes longer than this: a tap's step is on the device in tens of milliseconds, and
 * a label flashed meanwhile costs a render and a layout in the very moments the write is made (bench trip-step-tap).
 */
const BUSY_LABEL_AFTER_MS = 300;

const SOURCE_NOTES: Record<StampView['source'], string | null> = { tap: null, auto: 'авто', corrected: 'исправлено', form: 'задним числом' };

/** The time, read again every second until `until` (the undo's countdown); still while there is nothing to count. */
function useClockUntil(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    const tick = () => {
      const time = Date.now();
      setNow(time);
      if (time >= until) clearInterval(timer);
    };
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 1000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [until]);
  return now;
}

export function TripPanel({ task, association }: { task: Task; association: DriverAssociation }) {
  // Only this task's outbox items: a tap on one card re-renders that card's panel, not every card's.
  const items = useEngineSelector((s) => s.outbox.items.filter((i) => i.association_id === association.id));
  const trips = tripsOf(items, association.id, task.open_trip ?? null);
  const [busy, setBusy] = useState<TripStep | null>(null);
  /** A step on its way to the engine: a second tap (or an automatic stamp) meanwhile is not another step. */
  const stamping = useRef(false);
  const [sheet, setSheet] = useState<FactStep | null>(null);
  const [sheetAuto, setSheetAuto] = useState<AutoFacts | null>(null);
  const lastStamp = trips.current?.stamps[trips.current.last];
  const now = useClockUntil(lastStamp && lastStamp.state !== 'sent' ? lastStamp.holdUntil : null);
  const undo = undoable(trips.current, now);
  const settings = tripSettingsOf(task);
  const { step, uid } = trips.next;
  // «Без путевого листа смену не начать»: known only from a fresh answer (docs/trip-sheets.md «No shift without a sheet»).
  const mine = useGet(settings.require_trip_sheet ? 'GET /trip-sheets/mine' : null);
  const knownWithoutSheet = settings.require_trip_sheet && mine.data !== undefined && !mine.data.fromCache && mine.data.data === null;

  async function stamp(facts: StepFacts | null, auto: AutoFacts | null = null): Promise<boolean> {
    // The tap's time, and the step on the device at once: the position, asked for at the same moment, may take a
    // few seconds and is added to the step when it comes (it is held for its undo window, longer than the reading).
    if (stamping.current) return false;
    stamping.current = true;
    const at = auto?.at ?? new Date().toISOString();
    let slow: ReturnType<typeof setTimeout> | undefined;
    try {
      // The step leaves for the engine first: the position's request and the label's timer come after its message.
      const queued = getEngine().queueTripStep({
        trip_uid: uid,
        step,
        body: { association_id: association.id, at, position: auto ? auto.position : null, source: auto?.source ?? 'tap', ...(facts?.body ?? {}) },
        photos: facts?.photos ?? [],
        signature: facts?.signature ?? null,
      });
      const reading = auto ? null : readPosition();
      slow = setTimeout(() => setBusy(step), BUSY_LABEL_AFTER_MS);
      const result = await queued;
      if (!result.ok) {
        showToast('error', result.message);
        return false;
      }
      const tripUid = result.data.trip_uid;
      void reading?.then(async (position) => {
        if (position) await getEngine().placeTripStep(tripUid, step, position);
      });
      // The service worker may deliver it even if the driver closes the app before the network returns.
      void requestBackgroundSync();
      if (auto) showToast('info', `Отмечено автоматически: ${TRIP_STEP_DONE[step]} в ${formatClock(Date.parse(at))}. Если неверно — «Отменить».`);
      return true;
    } catch (error) {
      console.error('trip step failed', error);
      showToast('error', 'Не удалось сохранить отметку');
      return false;
    } finally {
      clearTimeout(slow);
      stamping.current = false;
      setBusy(null);
    }
  }

  async function takeBack(stampView: StampView) {
    const result = await getEngine().undoTripStep(stampView.uid, stampView.step);
    showToast(result.ok ? 'success' : 'error', result.ok ? `Отметка «${TRIP_STEP_DONE[stampView.step]}» отменена` : result.message);
  }

  const tap = () => {
    // A new trip the server would refuse: said now, nothing queued. Offline (or from the cache) the step is queued
    // and the server decides when it arrives; a refusal stays in the queue with its reason until a sheet is opened.
    if (uid === null && knownWithoutSheet) {
      showToast('error', noTripSheetMessage(localDate(new Date())));
      return;
    }
    setSheetAuto(null);
    if (step === 'loading_departed' || step === 'unloading_departed') setSheet(step);
    else void stamp(null);
  };

  // With location allowed and the app open: arrivals stamp themselves; a departure opens its sheet with its time.
  const running = trips.current !== null && !trips.current.done;
  useTripWatch({
    active: running || association.status === 'in_progress',
    next: step,
    places: { loading: fenceOf(task.loading), unloading: fenceOf(task.unloading) },
    dwellSeconds: settings.geofence_dwell_seconds,
    onStamp: (found: AutoStamp) => {
      if (found.step !== step || stamping.current || sheet !== null) return;
      const auto = { at: new Date(found.at).toISOString(), position: found.position, source: 'auto' as const };
      if (step === 'loading_departed' || step === 'unloading_departed') {
        setSheetAuto(auto);
        setSheet(step);
      } else void stamp(null, auto);
    },
  });

  return (
    <section className="drv-trip" aria-label={`Рейс по задаче №${task.id}`}>
      <button type="button" className="drv-btn drv-btn--primary drv-trip__next" disabled={busy !== null} onClick={tap}>
        {busy ? 'Отмечаем...' : TRIP_STEP_LABELS[step]}
      </button>
      {undo ? (
        <p className="drv-trip__undo" role="status">
          <span>
            Отмечено: {TRIP_STEP_DONE[undo.step]} в {formatClock(Date.parse(undo.at))}
          </span>
          <button type="button" className="drv-btn drv-btn--ghost drv-btn--small" onClick={() => void takeBack(undo)}>
            Отменить ({Math.max(1, Math.ceil(((undo.holdUntil ?? now) - now) / 1000))} с)
          </button>
        </p>
      ) : null}
      {trips.current ? <Timeline trip={trips.current} finished={trips.finished} /> : null}
      {sheet ? (
        <TripStepSheet
          step={sheet}
          unit={task.unit}
          askAcceptance={settings.acceptance_mode === 'per_trip'}
          askConfirm={settings.driver_confirms}
          autoAt={sheetAuto?.at ?? null}
          onSubmit={(facts) => stamp(facts, sheetAuto)}
          onClose={() => {
            setSheet(null);
            setSheetAuto(null);
          }}
        />
      ) : null}
    </section>
  );
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** «Исправить время»: a time field for one stamp (an automatic one seen wrong, a tap made late). */
function Correction({ stamp }: { stamp: StampView }) {
  const [open, setOpen] = useState(false);
  const date = new Date(Date.parse(stamp.at));
  const [value, setValue] = useState(`${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`);
  async function save() {
    const at = correctedTime(stamp.at, value);
    if (!at) return showToast('error', 'Укажите время в виде ЧЧ:ММ');
    const result = await getEngine().correctTripStep(stamp.uid, stamp.step, at);
    showToast(result.ok ? 'success' : 'error', result.ok ? `Время исправлено: ${TRIP_STEP_DONE[stamp.step]} в ${value}` : result.message);
    if (result.ok) setOpen(false);
  }
  if (!open) {
    return (
      <button type="button" className="drv-trip__fix" onClick={() => setOpen(true)} aria-label={`Исправить время: ${TRIP_STEP_DONE[stamp.step]}`}>
        Исправить время
      </button>
    );
  }
  return (
    <span className="drv-trip__fix-form">
      <input type="time" className="drv-input drv-trip__fix-input" aria-label={`Время: ${TRIP_STEP_DONE[stamp.step]}`} value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="button" className="drv-btn drv-btn--primary drv-btn--small" onClick={() => void save()}>
        Сохранить
      </button>
      <button type="button" className="drv-btn drv-btn--ghost drv-btn--small" onClick={() => setOpen(false)}>
        Отмена
      </button>
    </span>
  );
}

function Timeline({ trip, finished }: { trip: TripView; finished: number }) {
  return (
    <div className="drv-trip__timeline">
      <h3 className="drv-trip__title">
        {trip.done ? 'Рейс завершён' : 'Текущий рейс'}
        {finished > 0 ? <span className="drv-trip__count"> · рейсов за задачу на телефоне: {finished}</span> : null}
      </h3>
      <ol className="drv-trip__steps">
        {TRIP_STEPS.map((s) => {
          const stampView = trip.stamps[s];
          const note = stampView ? SOURCE_NOTES[stampView.source] : null;
          return (
            <li key={s} className={`drv-trip__step${stampView ? ' drv-trip__step--done' : ''}`}>
              <span className="drv-trip__time">{stampView ? formatClock(Date.parse(stampView.at)) : '—'}</span>
              <span className="drv-trip__name">{TRIP_STEP_DONE[s]}</span>
              {stampView ? (
                <span className="drv-trip__meta">
                  {note ? `${note} · ` : ''}
                  {stampView.position ? `±${Math.round(stampView.position.accuracy)} м · ` : ''}
                  {stampView.acceptance === 'signed' ? 'подписано · ' : stampView.acceptance === 'refused' ? 'отказ от подписи · ' : ''}
                  {stampView.state === 'sent' ? 'отправлено' : stampView.state === 'undelivered' ? 'не доставлено' : 'в очереди'}
                </span>
              ) : null}
              {stampView ? <Correction key={stampView.at} stamp={stampView} /> : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
