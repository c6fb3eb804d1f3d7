/**
 * worker/alerts.ts: an alert goes to one tab — the last focused one still open, else the newest — and raises the
 * counter of its menu entry until a tab opens it. In dedicated mode every engine names the same tab.
 */
import { describe, expect, it } from 'vitest';
import { createAlerts } from '../../worker/alerts.ts';
import type { StaffAlert } from '../../contract/alerts.ts';

const report: StaffAlert = { kind: 'report', text: 'Иван Петров: новый отчёт', url: '/reports/1' };
const taken: StaffAlert = { kind: 'task_taken', text: 'Иван Петров взял задачу', url: '/dispatch?date=2026-11-26' };

function setup(open: string[], dedicated = false) {
  let changes = 0;
  const alerts = createAlerts({ clock: { now: () => 1_000 }, tabs: () => open, dedicated, changed: () => changes++ });
  return { alerts, changes: () => changes };
}

describe('alerts in the engine', () => {
  it('shared mode: the last focused open tab shows it; a closed one passes it to the newest', () => {
    const open = ['tab-a', 'tab-b', 'tab-c'];
    const { alerts, changes } = setup(open);
    alerts.receive(report, true);
    expect(alerts.snapshot().items.at(-1)?.tab).toBe('tab-c');
    alerts.focus('tab-a');
    alerts.receive(report, true);
    expect(alerts.snapshot().items.at(-1)?.tab).toBe('tab-a');
    open.splice(0, 1);
    alerts.receive(taken, true);
    expect(alerts.snapshot().items.at(-1)?.tab).toBe('tab-c');
    expect(changes()).toBe(3);
    expect(alerts.snapshot().items.map((i) => i.seq)).toEqual([1, 2, 3]);
  });

  it('counts per menu entry until a tab opens it', () => {
    const { alerts } = setup(['tab-a']);
    alerts.receive(report, true);
    alerts.receive({ ...report, kind: 'report_fixed' }, true);
    alerts.receive(taken, true);
    expect(alerts.snapshot().counts).toEqual({ '/reports': 2, '/dispatch': 1 });
    alerts.seen('/reports');
    expect(alerts.snapshot().counts).toEqual({ '/dispatch': 1 });
  });

  it('dedicated mode: every engine names the focused tab, even one that is not its own; before any focus only the stream holder shows it', () => {
    const holder = setup(['tab-a'], true);
    const other = setup(['tab-b'], true);
    holder.alerts.receive(report, true);
    other.alerts.receive(report, false);
    expect(holder.alerts.snapshot().items[0]?.tab).toBe('tab-a');
    expect(other.alerts.snapshot().items[0]?.tab).toBeNull();
    for (const e of [holder, other]) e.alerts.focus('tab-b');
    holder.alerts.receive(taken, true);
    other.alerts.receive(taken, false);
    expect(holder.alerts.snapshot().items[1]?.tab).toBe('tab-b');
    expect(other.alerts.snapshot().items[1]?.tab).toBe('tab-b');
  });

  it('keeps the last 20', () => {
    const { alerts } = setup(['tab-a']);
    for (let i = 0; i < 25; i++) alerts.receive(report, true);
    const items = alerts.snapshot().items;
    expect(items).toHaveLength(20);
    expect(items[0]?.seq).toBe(6);
    expect(alerts.snapshot().counts['/reports']).toBe(25);
  });
});
