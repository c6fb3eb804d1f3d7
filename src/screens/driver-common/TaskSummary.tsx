/**
 * The facts of a task every driver card shows: date, number, cargo, route, the planned quantity — the driver's own
 * share where they are on the task (`share`), the whole plan where they are not yet — and the rate.
 */
import type { ReactNode } from 'react';
import type { Task } from '../../../contract/entities.ts';
import { formatDate, formatMoney, formatQuantity } from './format.ts';
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
        <span>{task.loading_place}</span>
        <span aria-hidden="true"> → </span>
        <span className="drv-visually-hidden"> — </span>
        <span>{task.unloading_place}</span>
      </p>
      <dl className="drv-facts">
        <div>
          <dt>{share === undefined ? 'План' : 'Ваша доля'}</dt>
          <dd>
            {formatQuantity(share ?? task.planned_quantity, task.unit)}
            {share !== undefined && share !== task.planned_quantity ? <span className="drv-muted"> из {formatQuantity(task.planned_quantity, task.unit)}</span> : null}
          </dd>
        </div>
        <div>
          <dt>Ставка</dt>
          <dd>{task.rate === null ? '—' : `${formatMoney(task.rate)} за ${task.unit}`}</dd>
        </div>
      </dl>
      {task.comment ? <p className="drv-summary__comment">{task.comment}</p> : null}
    </div>
  );
}
