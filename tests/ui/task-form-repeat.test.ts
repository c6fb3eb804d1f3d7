/** «Повторять» and templates in the task form (src/screens/task-form/repeat.ts). */
import { beforeAll, describe, expect, it } from 'vitest';
import { repeatDates, templateFromBody, templateName, valuesFromTemplate } from '../../src/screens/task-form/repeat.ts';
import { buildBody, loadTaskChecks, emptyValues } from '../../src/screens/task-form/task-form.ts';

// The contract's rules load beside the form; the screens wait for them before a send, as these tests do.
beforeAll(() => loadTaskChecks());

describe('repeat dates', () => {
  it('every working day from the task date to the last day, weekends left out', () => {
    // 2026-11-26 is a Thursday.
    expect(repeatDates('2026-11-26', { mode: 'workdays', weekdays: [], until: '2026-12-02' })).toEqual(['2026-11-26', '2026-11-27', '2026-11-30', '2026-12-01', '2026-12-02']);
  });
  it('chosen weekdays, across a month end; Sunday is 7', () => {
    expect(repeatDates('2026-11-26', { mode: 'weekdays', weekdays: [6, 7], until: '2026-12-07' })).toEqual(['2026-11-28', '2026-11-29', '2026-12-05', '2026-12-06']);
  });
  it('nothing for a last day before the first, a bad date, or no weekday; stops at the cap', () => {
    expect(repeatDates('2026-11-26', { mode: 'workdays', weekdays: [], until: '2026-11-25' })).toEqual([]);
    expect(repeatDates('26.11.2026', { mode: 'workdays', weekdays: [], until: '2026-12-25' })).toEqual([]);
    expect(repeatDates('2026-11-26', { mode: 'weekdays', weekdays: [], until: '2026-12-25' })).toEqual([]);
    expect(repeatDates('2026-01-01', { mode: 'weekdays', weekdays: [1, 2, 3, 4, 5, 6, 7], until: '2026-12-31' }, 63)).toHaveLength(63);
  });
});

describe('templates', () => {
  const values = { ...emptyValues('2026-11-26'), cargo: 'Щебень 20-40', loading_place: 'Карьер', unloading_place: 'ЖК Северный', planned_quantity: '120,5', rate: '450', max_drivers: '3' };
  const withDrivers = {
    ...values,
    drivers: [7, 9].map((id) => ({ driver_id: id, planned_quantity: '60', quantity: '12', transport_rate: id === 7 ? '480,5' : '', loading_quantity: '', unloading_quantity: '', status: 'in_progress' as const })),
  };

  it("round trip: the form → a template → a form on another day with the same fields, each driver's share and own rate kept; drivers who left are dropped", () => {
    const built = buildBody(withDrivers, false);
    if (!built.ok) throw new Error('the form is valid');
    const fields = templateFromBody(built.body);
    expect(fields).toMatchObject({ cargo: 'Щебень 20-40', planned_quantity: 120.5, rate: 450, max_drivers: 3, driver_ids: [7, 9] });
    const next = valuesFromTemplate(emptyValues('2026-12-01'), fields, new Set([7]))!;
    expect(next.date).toBe('2026-12-01');
    expect([next.planned_quantity, next.rate, next.max_drivers]).toEqual(['120,5', '450', '3']);
    // What repeats stays (the share, the own rate); the day's figures and status start afresh.
    expect(next.drivers).toEqual([{ driver_id: 7, planned_quantity: '60', quantity: '', transport_rate: '480,5', loading_quantity: '', unloading_quantity: '', status: 'accepted' }]);
  });

  it("carries the waybill's cargo facts (state, packaging, package code) to the next task, and none of them stays bulk", () => {
    const built = buildBody({ ...values, cargo_state: 'Влажный', cargo_packaging: 'В мешках', cargo_package_code: 'bg' }, false);
    if (!built.ok) throw new Error('the form is valid');
    const fields = templateFromBody(built.body);
    expect(fields).toMatchObject({ cargo_state: 'Влажный', cargo_packaging: 'В мешках', cargo_package_code: 'BG' });
    const next = valuesFromTemplate(emptyValues('2026-12-01'), fields, new Set())!;
    expect([next.cargo_state, next.cargo_packaging, next.cargo_package_code]).toEqual(['Влажный', 'В мешках', 'BG']);
    const bulk = buildBody(values, false);
    if (!bulk.ok) throw new Error('the form is valid');
    const plain = valuesFromTemplate(emptyValues('2026-12-01'), templateFromBody(bulk.body), new Set())!;
    expect([plain.cargo_state, plain.cargo_packaging, plain.cargo_package_code]).toEqual(['', '', '']);
  });

  it('is not applied while the company\'s drivers load: it would keep none of them, silently', () => {
    const built = buildBody(withDrivers, false);
    if (!built.ok) throw new Error('the form is valid');
    const fields = templateFromBody(built.body);
    // Before the list is known there is no answer (the screen keeps «Создать из шаблона» closed till then) …
    expect(valuesFromTemplate(emptyValues('2026-12-01'), fields, null)).toBeNull();
    // … once it is, the template's drivers of the company stay.
    expect(valuesFromTemplate(emptyValues('2026-12-01'), fields, new Set([7, 9]))?.drivers.map((d) => d.driver_id)).toEqual([7, 9]);
  });

  it('suggests a name from the cargo and the route', () => {
    expect(templateName(values)).toBe('Щебень 20-40: Карьер → ЖК Северный');
  });
});
