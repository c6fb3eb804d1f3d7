/** Pure formatting and shape helpers shared by the driver's screens (no React, no engine). */
import type { DriverAssociation, Task } from '../../../contract/entities.ts';

// Dates, quantities and money are formatted the same on every screen: one place, src/ui/format.ts.
export { apiPathOf, formatDate, formatMoney, formatQuantity } from '../../ui/format.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'HH:MM' in the device's local time. */
export function formatClock(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 'HH:MM:SS' in the device's local time. */
export function formatClockSeconds(epochMs: number): string {
  const d = new Date(epochMs);
  return `${formatClock(epochMs)}:${pad(d.getSeconds())}`;
}

/** 'YYYY-MM-DD' of a local date: the shape the API and `<input type=date>` use. */
export function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The signed-in driver's own association on a task (the server may include other drivers' too). */
export function ownAssociation(task: Task, driverId: number | null | undefined): DriverAssociation | null {
  const own = task.driver_associations.find((a) => a.driver_id === driverId);
  if (own) return own;
  return task.driver_associations.length === 1 ? (task.driver_associations[0] ?? null) : null;
}

/** '850 Б', '184 КБ', '3,2 МБ': photo sizes before and after compression. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} Б`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} КБ`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace('.', ',')} МБ`;
}

export { DRIVER_STATUS_LABELS } from '../../ui/statuses.ts';

export interface OwnTask {
  task: Task;
  association: DriverAssociation;
}

/**
 * The driver's tasks paired with their own association, by date and within a day in the order the manager
 * set (order_index). Tasks without an association of this driver are dropped.
 */
export function ownTasksInOrder(tasks: readonly Task[], driverId: number | null | undefined): OwnTask[] {
  return tasks
    .map((task) => ({ task, association: ownAssociation(task, driverId) }))
    .filter((entry): entry is OwnTask => entry.association !== null)
    .sort((a, b) => a.task.date.localeCompare(b.task.date) || a.association.order_index - b.association.order_index);
}
