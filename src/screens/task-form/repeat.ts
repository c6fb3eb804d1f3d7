/**
 * «Повторять» and templates in the task form (pure; tests/ui/task-form-repeat.test.ts): the dates a repeat rule
 * gives from the task's date up to a last day, and a template's fields to and from the form's values.
 */
import type { TemplateFields } from '../../../contract/calls/tasks.ts';
import { quantityText } from '../../ui/decimal.ts';
import type { TaskBody, TaskFormValues } from './task-form.ts';

export interface RepeatRule {
  /** Every working day (Mon–Fri), or the chosen weekdays (1 = Monday … 7 = Sunday). */
  mode: 'workdays' | 'weekdays';
  weekdays: number[];
  /** The last day, inclusive (YYYY-MM-DD). */
  until: string;
}

export const WEEKDAYS = ['пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс'] as const;

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday. */
function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A day after (or before) a YYYY-MM-DD date; today's when the date is not one yet. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${/^\d{4}-\d{2}-\d{2}$/.test(date) ? date : new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The dates from `from` to the rule's last day that the rule picks; at most `cap` (one more tells «too many»). */
export function repeatDates(from: string, rule: RepeatRule, cap = 1_000): string[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(rule.until) || rule.until < from) return [];
  const days = rule.mode === 'workdays' ? [1, 2, 3, 4, 5] : rule.weekdays;
  const out: string[] = [];
  for (let date = from; date <= rule.until && out.length < cap; date = addDays(date, 1)) {
    if (days.includes(isoWeekday(date))) out.push(date);
  }
  return out;
}

/** A template keeps what repeats from task to task: everything but the date and the company; of each driver, the share and own rate. */
export function templateFromBody(body: TaskBody): TemplateFields {
  return {
    cargo: body.cargo,
    loading_place: body.loading_place,
    unloading_place: body.unloading_place,
    planned_quantity: body.planned_quantity,
    unit: body.unit,
    rate: body.rate,
    comment: body.comment,
    max_drivers: body.max_drivers,
    // The waybill's cargo facts repeat with the cargo (none of them: bulk, as the task).
    cargo_state: body.cargo_state,
    cargo_packaging: body.cargo_packaging,
    cargo_package_code: body.cargo_package_code,
    driver_ids: body.driver_ids,
    drivers: body.drivers.map((d) => ({ id: d.id, planned_quantity: d.planned_quantity, transport_rate: d.transport_rate })),
  };
}

/**
 * The form filled from a template, keeping its date and company; drivers not in the company now are left out, the
 * others keep their share and own rate. Null while the company's drivers are not known yet (`companyDrivers` null):
 * applied then, the template would silently lose every driver.
 */
export function valuesFromTemplate(values: TaskFormValues, fields: TemplateFields, companyDrivers: ReadonlySet<number> | null): TaskFormValues | null {
  if (companyDrivers === null) return null;
  return {
    ...values,
    cargo: fields.cargo,
    loading_place: fields.loading_place ?? '',
    unloading_place: fields.unloading_place ?? '',
    // The template's places are texts: the server links the company's places of those names.
    loading: null,
    unloading: null,
    planned_quantity: quantityText(fields.planned_quantity),
    unit: fields.unit,
    rate: quantityText(fields.rate ?? null),
    comment: fields.comment ?? '',
    max_drivers: fields.max_drivers == null ? '' : String(fields.max_drivers),
    cargo_state: fields.cargo_state ?? '',
    cargo_packaging: fields.cargo_packaging ?? '',
    cargo_package_code: fields.cargo_package_code ?? '',
    drivers: (fields.driver_ids ?? [])
      .filter((id) => companyDrivers.has(id))
      .map((id) => {
        const kept = fields.drivers?.find((d) => d.id === id);
        return {
          driver_id: id,
          planned_quantity: quantityText(kept?.planned_quantity ?? null),
          quantity: '',
          transport_rate: quantityText(kept?.transport_rate ?? null),
          loading_quantity: '',
          unloading_quantity: '',
          status: 'accepted' as const,
        };
      }),
  };
}

/** «Повторять»'s suggested name of a template: the cargo and the route. */
export function templateName(values: Pick<TaskFormValues, 'cargo' | 'loading_place' | 'unloading_place'>): string {
  return `${values.cargo.trim()}: ${values.loading_place.trim()} → ${values.unloading_place.trim()}`.slice(0, 100);
}
