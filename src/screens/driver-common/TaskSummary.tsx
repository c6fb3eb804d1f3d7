/**
 * The facts of a task every driver card shows: date, number, cargo, route, the planned quantity — the driver's own
 * share where they are on the task (`share`), the whole plan where they are not yet — and what they are paid per
 * unit (`driver_pay`, the server's one rate rule; the task's own rate is the customer's price and never shown here).
 */
import type { ReactNode } from 'react';
import type { Task } from '../../../contract/entities.ts';
import { formatDate, formatQuantity } from './format.ts';
import { formatRate } from '../../ui/format.ts';
import './task-summary.css';

export function TaskSummary({ task, badge, share }: { task: Task; badge?: ReactNode; share?: number }) {
  return (
    <div className="drv-summary">
      <div className="drv-summary__top">
        <span className="drv-summary__date">
          {formatDate(task.date)} · №{task.id}
        </span>
        {badge}
      </div>
      <h3 className="drv-summary__cargo">{task.cargo}</h3>
      <p className="drv-summary__route">
        <a className="drv-place" href={mapLink(task.loading_place)} target="_blank" rel="noreferrer" aria-label={`${task.loading_place} — открыть в навигаторе`}>
          {task.loading_place}
        </a>
        <span aria-hidden="true"> → </span>
        <span className="drv-visually-hidden"> — </span>
        <a className="drv-place" href={mapLink(task.unloading_place)} target="_blank" rel="noreferrer" aria-label={`${task.unloading_place} — открыть в навигаторе`}>
          {task.unloading_place}
        </a>
      </p>
      {task.dispatcher && (
        <p className="drv-summary__call">
          <a className="drv-call" href={`tel:${task.dispatcher.phone.replace(/[^\d+]/g, '')}`}>
            Позвонить диспетчеру
          </a>{' '}
          <span className="drv-muted">{task.dispatcher.name}</span>
        </p>
      )}
      <dl className="drv-facts">
        <div>
          <dt>{share === undefined ? 'План' : 'Ваша доля'}</dt>
          <dd>
            {formatQuantity(share ?? task.planned_quantity, task.unit)}
            {share !== undefined && share !== task.planned_quantity ? <span className="drv-muted"> из {formatQuantity(task.planned_quantity, task.unit)}</span> : null}
          </dd>
        </div>
        <div>
          <dt>{payLabel(task)}</dt>
          <dd>
            {payRate(task)}
            {payNote(task) && <span className="drv-muted drv-summary__note"> {payNote(task)}</span>}
          </dd>
        </div>
      </dl>
      {task.comment ? <p className="drv-summary__comment">{task.comment}</p> : null}
    </div>
  );
}

/** «Ваша ставка» for an assignment's own rate; «По шкале» for the company's scale. */
function payLabel(task: Task): string {
  return task.driver_pay?.source === 'progressive' ? 'По шкале' : 'Ваша ставка';
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

/** A place in the phone's map app (Yandex Maps opens its app where installed, the web map elsewhere). */
function mapLink(place: string): string {
  return `https://yandex.ru/maps/?text=${encodeURIComponent(place)}`;
}
