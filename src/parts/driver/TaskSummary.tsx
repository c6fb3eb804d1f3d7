/**
 * The facts of a task every driver card shows: date, number, cargo, route, the planned quantity — the driver's own
 * share where they are on the task (`share`), the whole plan where they are not yet — and what they are paid per
 * unit (`driver_pay`, the server's one rate rule; the task's own rate is the customer's price and never shown here).
 */
import type { ReactNode } from 'react';
import type { Task } from '../../../contract/entities.ts';
import { formatDate, formatQuantity } from '../../ui/format.ts';
import { formatRate } from '../../ui/format.ts';
import { navigationLinks } from '../../../contract/geo.ts';
import type { PlaceRef } from '../../../contract/registers.ts';
import { hasGuide, PlaceGuide } from './PlaceGuide.tsx';
import './task-summary.css';

/**
 * `progress`, on a current task, takes the share's place: «1 рейс · 12 из 40 т» with its bar says the share too.
 * The dispatcher's call is a round button beside the cargo (their name in its label), so the card stays compact.
 */
export function TaskSummary({
  task,
  badge,
  share,
  progress,
  headingLevel = 3,
  guide = true,
}: {
  task: Task;
  badge?: ReactNode;
  share?: number;
  progress?: ReactNode;
  /** 2 where the card sits straight under the screen's h1, 3 under a section's h2. */
  headingLevel?: 2 | 3;
  /**
   * The places' addresses, notes and navigation links (PlaceGuide); a finished task's summary leaves them out.
   * `folded`: behind one «Как доехать» disclosure, so a list of many cards stays short on a phone.
   */
  guide?: boolean | 'folded';
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const partOfPlan = share !== undefined && share !== task.planned_quantity;
  return (
    <div className="drv-summary">
      <div className="drv-summary__head">
        <div className="drv-summary__top">
          <span className="drv-summary__date">
            {formatDate(task.date)} · №{task.id}
          </span>
          {badge}
        </div>
        <Heading className="drv-summary__cargo">{task.cargo}</Heading>
        {task.dispatcher && (
          <a
            className="drv-call"
            href={`tel:${task.dispatcher.phone.replace(/[^\d+]/g, '')}`}
            aria-label={`Позвонить диспетчеру: ${task.dispatcher.name}`}
            title={`Позвонить диспетчеру: ${task.dispatcher.name}`}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path
                fill="currentColor"
                d="M6.6 10.8a15.2 15.2 0 0 0 6.6 6.6l2.2-2.2a1 1 0 0 1 1-.25 11.4 11.4 0 0 0 3.6.57 1 1 0 0 1 1 1V20a1 1 0 0 1-1 1A17 17 0 0 1 3 4a1 1 0 0 1 1-1h3.5a1 1 0 0 1 1 1c0 1.25.2 2.45.57 3.6a1 1 0 0 1-.25 1Z"
              />
            </svg>
          </a>
        )}
      </div>
      <p className="drv-summary__route">
        <a className="drv-place" href={mapLink(task.loading_place, task.loading)} target="_blank" rel="noreferrer" aria-label={`${task.loading_place} — открыть в навигаторе`}>
          {task.loading_place}
        </a>
        <span aria-hidden="true"> → </span>
        <span className="drv-visually-hidden"> — </span>
        <a className="drv-place" href={mapLink(task.unloading_place, task.unloading)} target="_blank" rel="noreferrer" aria-label={`${task.unloading_place} — открыть в навигаторе`}>
          {task.unloading_place}
        </a>
      </p>
      {guide === true && <Guides task={task} />}
      {guide === 'folded' && (hasGuide(task.loading) || hasGuide(task.unloading)) && (
        <details className="drv-guide-fold">
          <summary>Как доехать</summary>
          <Guides task={task} />
        </details>
      )}
      <div className="drv-summary__figures">
        {progress ? <div className="drv-summary__progress">{progress}</div> : null}
        <dl className="drv-facts drv-facts--inline">
          {progress && !partOfPlan ? null : (
            <div>
              <dt>{share === undefined ? 'План' : progress ? 'План задачи' : 'Ваша доля'}</dt>
              <dd>
                {progress ? (
                  formatQuantity(task.planned_quantity, task.unit)
                ) : (
                  <>
                    {formatQuantity(share ?? task.planned_quantity, task.unit)}
                    {partOfPlan ? <span className="drv-muted"> из {formatQuantity(task.planned_quantity, task.unit)}</span> : null}
                  </>
                )}
              </dd>
            </div>
          )}
          <div>
            <dt>{payLabel(task, Boolean(progress))}</dt>
            <dd>
              {payRate(task)}
              {payNote(task) && <span className="drv-muted drv-summary__note"> {payNote(task)}</span>}
            </dd>
          </div>
        </dl>
      </div>
      {task.comment ? <p className="drv-summary__comment">{task.comment}</p> : null}
    </div>
  );
}

/** «Ваша ставка» for an assignment's own rate (just «Ставка» beside the progress, where room is short); «По шкале» for the company's scale. */
function payLabel(task: Task, short: boolean): string {
  if (task.driver_pay?.source === 'progressive') return 'По шкале';
  return short ? 'Ставка' : 'Ваша ставка';
}

/** «460 ₽/т»; «не задана» without an own rate or a scale. */
function payRate(task: Task): string {
  const pay = task.driver_pay;
  return !pay || pay.rate === null ? 'не задана' : formatRate(pay.rate, task.unit);
}

/** On the scale: «сейчас, при 200 т за месяц» — the band moves as the month's volume grows. */
function payNote(task: Task): string | null {
  const pay = task.driver_pay;
  return pay?.source === 'progressive' && pay.rate !== null ? `сейчас, при ${formatQuantity(pay.month_volume, task.unit)} за месяц` : null;
}

/**
 * A place in the phone's map app (Yandex Maps opens its app where installed, the web map elsewhere): the route to its
 * point where the place has one, else a search for its address or name.
 */
function mapLink(name: string, place: PlaceRef | null | undefined): string {
  if (place && place.lat !== null && place.lon !== null) return navigationLinks({ lat: place.lat, lon: place.lon }).yandexMaps;
  return `https://yandex.ru/maps/?text=${encodeURIComponent(place?.address ?? name)}`;
}

function Guides({ task }: { task: Task }) {
  return (
    <>
      {hasGuide(task.loading) && <PlaceGuide label="Погрузка" place={task.loading} />}
      {hasGuide(task.unloading) && <PlaceGuide label="Выгрузка" place={task.unloading} />}
    </>
  );
}
