/**
 * One Russian name per status value, defined once for every screen (tasks: TASK_STATUSES, a driver on a
 * task: DRIVER_STATUSES), and the badge that shows it.
 */
import { createElement } from 'react';
import { DRIVER_STATUSES, TASK_STATUSES, type DriverStatus, type TaskStatus } from '../../contract/entities.ts';
import './statuses.css';

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  open: 'Открыта',
  in_progress: 'В работе',
  completed: 'Выполнена',
  cancelled: 'Отменена',
};

export const DRIVER_STATUS_LABELS: Record<DriverStatus, string> = {
  accepted: 'Принята',
  in_progress: 'В рейсе',
  completed: 'Выполнена',
  cancelled: 'Отменена',
};

/** [value, label] pairs in the contract's order, for status selects and filters. */
export const TASK_STATUS_OPTIONS = TASK_STATUSES.map((value) => [value, TASK_STATUS_LABELS[value]] as const);
export const DRIVER_STATUS_OPTIONS = DRIVER_STATUSES.map((value) => [value, DRIVER_STATUS_LABELS[value]] as const);

export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === 'string' && (TASK_STATUSES as readonly string[]).includes(value);
}

/** A task's status ('task', the default) or a driver's status on a task ('driver') as a coloured label. */
export function StatusBadge({ status, kind = 'task' }: { status: TaskStatus | DriverStatus; kind?: 'task' | 'driver' }) {
  const labels: Record<string, string> = kind === 'task' ? TASK_STATUS_LABELS : DRIVER_STATUS_LABELS;
  return createElement('span', { className: `status-badge status-badge--${status}` }, labels[status] ?? status);
}
