import { describe, expect, it } from 'vitest';
import type { DriverAssociation, Task } from '../../contract/entities.ts';
import { groupByDriver, progressOf } from '../../src/screens/tasks-active/group.ts';
import { wireAssociation, wireTask } from '../fixtures/wire.ts';

const assoc = (driverId: number, name: string, fields: Partial<DriverAssociation> = {}): DriverAssociation =>
  wireAssociation({ id: driverId * 10, task_id: 0, driver_id: driverId, driver_name: name, ...fields });
const task = (id: number, planned: number, associations: DriverAssociation[]): Task =>
  wireTask({ id, date: '2026-11-24', cargo: `Груз ${id}`, loading_place: 'A', unloading_place: 'B', planned_quantity: planned, status: 'in_progress', driver_associations: associations });

describe('active tasks by driver', () => {
  it('sums planned and reported per driver, shares a task without own quantities, and puts untaken tasks last', () => {
    const groups = groupByDriver([
      task(1, 100, [assoc(2, 'Борис', { share: 20, delivered: 30, last_report_at: '2026-11-24T08:00:00Z', order_index: 2 }), assoc(1, 'Анна', { share: 70 })]),
      task(2, 40, [assoc(2, 'Борис', { share: 70, delivered: 40, last_report_at: '2026-11-24T10:00:00Z', order_index: 1 })]),
      task(3, 25, []),
      task(4, 10, [assoc(1, 'Анна', { status: 'cancelled' })]),
    ]);
    expect(groups.map((g) => g.name)).toEqual(['Анна', 'Борис', 'Без водителя']);
    expect(groups[0]).toMatchObject({ planned: 70, reported: 0, lastReportAt: null });
    expect(groups[1]).toMatchObject({ planned: 90, reported: 70, lastReportAt: '2026-11-24T10:00:00Z' });
    expect(groups[2]?.lines.map((l) => l.task.id)).toEqual([3, 4]);
    // The dispatcher's saved order within the day, not the order the server listed the tasks.
    expect(groups[1]?.lines.map((l) => l.task.id)).toEqual([2, 1]);
  });

  it('caps progress at 100 %', () => {
    expect(progressOf(100, 50)).toBe(0.5);
    expect(progressOf(10, 30)).toBe(1);
    expect(progressOf(0, 0)).toBe(0);
  });
});
