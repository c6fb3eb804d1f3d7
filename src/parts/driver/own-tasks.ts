/** The signed-in driver's own part of a task, and his tasks in the dispatcher's order (pure). */
import type { DriverAssociation, Task } from '../../../contract/entities.ts';

/** The signed-in driver's own association on a task (the server may include other drivers' too). */
export function ownAssociation(task: Task, driverId: number | null | undefined): DriverAssociation | null {
  const own = task.driver_associations.find((a) => a.driver_id === driverId);
  if (own) return own;
  return task.driver_associations.length === 1 ? (task.driver_associations[0] ?? null) : null;
}

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

/** How a driver's task list shows its states (ui/states.tsx `Loaded`): the driver's look, the cache note on top. */
export const TASK_LIST_STATES = { tone: 'driver', cacheNote: true, loading: 'Загрузка задач...' } as const;
