/** A status as a coloured tag, with the one Russian name from statuses.ts. */
import type { DriverStatus, TaskStatus } from '../../contract/entities.ts';
import { DRIVER_STATUS_LABELS, TASK_STATUS_LABELS } from './statuses.ts';
import './status-badge.css';

export function StatusBadge({ status, kind = 'task' }: { status: TaskStatus | DriverStatus; kind?: 'task' | 'driver' }) {
  const label =
    kind === 'task' ? TASK_STATUS_LABELS[status as TaskStatus] : DRIVER_STATUS_LABELS[status as DriverStatus];
  return <span className={`status-badge status-${status}`}>{label ?? status}</span>;
}
