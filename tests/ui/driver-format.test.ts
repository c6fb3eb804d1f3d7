import { describe, expect, it } from 'vitest';
import type { DriverAssociation, Task } from '../../contract/entities.ts';
import { apiPathOf, formatBytes, formatClock, formatDate, isoDate } from '../../src/ui/format.ts';
import { ownAssociation, ownTasksInOrder } from '../../src/parts/driver/own-tasks.ts';
import { wireAssociation, wireTask } from '../fixtures/wire.ts';

const association = (id: number, driver_id: number): DriverAssociation => wireAssociation({ id, driver_id });

const task = (driver_associations: DriverAssociation[], id = 1, date = '2026-11-21'): Task => wireTask({ id, date, rate: 100, driver_associations });

describe('driver formatting helpers', () => {
  it('formats local times and dates', () => {
    expect(formatClock(new Date(2026, 0, 2, 7, 4, 59).getTime())).toBe('07:04');
    expect(isoDate(new Date(2026, 0, 2))).toBe('2026-01-02');
    expect(formatDate('2026-11-21')).toBe('21.11.2026');
    expect(formatDate('завтра')).toBe('завтра');
  });

  it('strips the /api prefix of photo urls once, so the engine does not double it', () => {
    expect(apiPathOf('/api/reports/photos/7')).toBe('/reports/photos/7');
    expect(apiPathOf('/reports/photos/7')).toBe('/reports/photos/7');
    expect(apiPathOf('/apiary/x')).toBe('/apiary/x');
  });

  it("finds the driver's own association among several", () => {
    expect(ownAssociation(task([association(10, 4), association(11, 5)]), 5)?.id).toBe(11);
    expect(ownAssociation(task([association(10, 4), association(11, 5)]), 6)).toBeNull();
    expect(ownAssociation(task([association(12, 9)]), null)?.id).toBe(12);
  });

  it("lists the driver's tasks by date, within a day in the manager's order, dropping tasks not theirs", () => {
    const at = (id: number, order: number): DriverAssociation => ({ ...association(id, 5), order_index: order });
    const tasks = [
      task([at(1, 2)], 1, '2026-11-20'),
      task([association(2, 4), association(9, 8)], 2),
      task([at(3, 1)], 3, '2026-11-25'),
      task([at(4, 1)], 4, '2026-11-22'),
      task([at(5, 0)], 5, '2026-11-22'),
    ];
    expect(ownTasksInOrder(tasks, 5).map((entry) => entry.task.id)).toEqual([1, 5, 4, 3]);
  });

  it('formats photo sizes', () => {
    expect(formatBytes(850)).toBe('850 Б');
    expect(formatBytes(188_000)).toBe('184 КБ');
    expect(formatBytes(3_355_443)).toBe('3,2 МБ');
  });
});
