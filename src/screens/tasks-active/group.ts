/** Active tasks grouped by driver (pure; tests/ui/tasks-active.test.ts). */
import type { DriverAssociation, Task } from '../../../contract/entities.ts';

export interface DriverLine {
  task: Task;
  association: DriverAssociation | null;
  planned: number;
  reported: number;
}

export interface DriverGroup {
  driverId: number | null;
  name: string;
  lines: DriverLine[];
  planned: number;
  reported: number;
  lastReportAt: string | null;
}

/** One group per driver (by name), and the tasks nobody has taken last. */
export function groupByDriver(tasks: readonly Task[]): DriverGroup[] {
  const groups = new Map<number | null, DriverGroup>();
  const groupOf = (driverId: number | null, name: string): DriverGroup => {
    let group = groups.get(driverId);
    if (!group) {
      group = { driverId, name, lines: [], planned: 0, reported: 0, lastReportAt: null };
      groups.set(driverId, group);
    }
    return group;
  };
  for (const task of tasks) {
    const live = task.driver_associations.filter((a) => a.status !== 'cancelled');
    if (live.length === 0) {
      groupOf(null, 'Без водителя').lines.push({ task, association: null, planned: task.planned_quantity, reported: 0 });
      continue;
    }
    for (const association of live) {
      const group = groupOf(association.driver_id, association.driver_name ?? `Водитель №${association.driver_id}`);
      // The server's figures (docs/loads.md): the driver's share and what they delivered.
      group.lines.push({ task, association, planned: association.share, reported: association.delivered });
    }
  }
  for (const group of groups.values()) {
    // Each driver's tasks by day, and within a day in the order the dispatcher saved.
    group.lines.sort(
      (a, b) => a.task.date.localeCompare(b.task.date) || (a.association?.order_index ?? 0) - (b.association?.order_index ?? 0) || a.task.id - b.task.id,
    );
    group.planned = group.lines.reduce((sum, line) => sum + line.planned, 0);
    group.reported = group.lines.reduce((sum, line) => sum + line.reported, 0);
    group.lastReportAt = group.lines.map((line) => line.association?.last_report_at ?? null).filter((at): at is string => at !== null).sort().at(-1) ?? null;
  }
  return [...groups.values()].sort((a, b) => (a.driverId === null ? 1 : b.driverId === null ? -1 : a.name.localeCompare(b.name, 'ru')));
}

/** 0..1, for a progress bar. */
export function progressOf(planned: number, reported: number): number {
  if (planned <= 0) return reported > 0 ? 1 : 0;
  return Math.min(1, reported / planned);
}
