/**
 * Where the task form's customer price comes from (docs/prices.md), by the server's own rule: the customer's list
 * resolved for the task as typed (contract/prices.ts `resolvePrice`), against the price typed. Pure.
 */
import { toKop } from '../../../contract/money.ts';
import { lineLabel, resolvePrice, type PriceLine } from '../../../contract/prices.ts';
import { parseQuantity } from '../../ui/decimal.ts';
import { formatDate, formatMoney } from '../../ui/format.ts';
import type { TaskFormValues } from './task-form.ts';

export type PriceHintState =
  /** No customer: the price is whatever is typed. */
  | { kind: 'none' }
  /** The list's line applies: the price typed equals it, or the field is empty and saving takes it. */
  | { kind: 'list'; line: PriceLine; text: string; filled: boolean }
  /** Typed by staff: another price than the list's (`line`, if any), shown as «вручную». */
  | { kind: 'manual'; line: PriceLine | null; text: string }
  /** A customer whose list prices none of this. */
  | { kind: 'missing'; text: string };

const lineWords = (line: PriceLine) => `${formatMoney(line.price)} за ${line.unit} (${lineLabel(line)}, с ${formatDate(line.valid_from)})`;

export function priceHint(values: Pick<TaskFormValues, 'cargo' | 'loading' | 'unloading' | 'unit' | 'date' | 'rate'>, lines: readonly PriceLine[] | null): PriceHintState {
  const typed = parseQuantity(values.rate);
  const rate = typed.ok ? typed.value : null;
  if (lines === null) return rate === null ? { kind: 'none' } : { kind: 'manual', line: null, text: 'вручную' };
  const line = resolvePrice(lines, { cargo: values.cargo, loading_place_id: values.loading?.id ?? null, unloading_place_id: values.unloading?.id ?? null, unit: values.unit, date: values.date });
  if (line && (values.rate.trim() === '' || (rate !== null && toKop(rate) === toKop(line.price)))) {
    return { kind: 'list', line, filled: values.rate.trim() !== '', text: `по прайсу: ${lineWords(line)}` };
  }
  if (values.rate.trim() === '') return { kind: 'missing', text: 'В прайсе заказчика нет цены на этот груз, маршрут и единицу — укажите цену вручную' };
  return { kind: 'manual', line, text: line ? `вручную (по прайсу — ${formatMoney(line.price)})` : 'вручную' };
}
