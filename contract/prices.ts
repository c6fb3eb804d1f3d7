/**
 * The customer's price list (issue 34 §1; docs/prices.md): lines per customer by cargo (or any), route (loading
 * place → unloading place, or any), unit, price to the kopeck, VAT treatment and the day they are valid from. A
 * line is a version: a new price from a date is a new line with the same cargo, route and unit, so tasks dated
 * before it keep theirs. `resolvePrice` is the one rule that picks a task's line (the server on every task, the
 * task form before it is sent).
 */
import { z } from 'zod';
import { isoDate, jsonNumber, text, wireId } from './fields.ts';
import { toKop } from './money.ts';
import { placeKey, refId } from './registers.ts';

/** The units a line is priced in: per tonne, per cubic metre, per trip, per hour of waiting (простой). */
export const PRICE_UNITS = ['т', 'м³', 'рейс', 'час'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

/** How the price treats VAT: none (УСН, «Без НДС»), included in the price, or added on top of it. */
export const VAT_MODES = ['none', 'included', 'added'] as const;
export type VatMode = (typeof VAT_MODES)[number];
export const VAT_MODE_LABELS: Record<VatMode, string> = { none: 'Без НДС', included: 'НДС в том числе', added: 'НДС сверху' };
/** The VAT rates a line may name, percent. */
export const VAT_RATES = [0, 5, 7, 10, 20, 22] as const;

/** The most a line may charge per unit, rubles (a typo guard). */
export const MAX_PRICE = 10_000_000;
/** The longest free waiting period of an hourly line, minutes (a day). */
export const MAX_FREE_MINUTES = 1440;

/** One line of a customer's price list as the server answers it. */
export interface PriceLine {
  id: number;
  company_id: number;
  counterparty_id: number;
  /** The cargo it prices; null: any cargo. */
  cargo: string | null;
  /** The route (both or neither); null: any route. */
  loading_place_id: number | null;
  unloading_place_id: number | null;
  loading_place: { id: number; name: string } | null;
  unloading_place: { id: number; name: string } | null;
  unit: PriceUnit;
  /** Rubles with kopecks, exact (stored in kopecks). */
  price: number;
  vat_mode: VatMode;
  /** Percent; null when `vat_mode` is 'none'. */
  vat_rate: number | null;
  /** An hourly line's free waiting period, minutes; null for other units. */
  free_minutes: number | null;
  /** In force from this day until the next version of the same cargo, route and unit. */
  valid_from: string;
  /** The day before the next version starts, or null while it is the latest. */
  valid_to: string | null;
  /** Its period reaches into a closed payroll month: it cannot be changed (add a version from an open day). */
  frozen: boolean;
  created_at: string;
  updated_at: string;
}

/** GET /price-lists/?counterparty_id: the customer's lines (every version), and the first day a new one may start. */
export interface PriceList {
  company_id: number;
  counterparty_id: number;
  /** The day after the company's latest closed payroll month; null: no month is closed. */
  first_open_day: string | null;
  lines: PriceLine[];
}

/** Where a task's customer price came from: a line of the list, typed by staff («вручную»), or nowhere (null). */
export type PriceSource =
  | { kind: 'list'; line_id: number; valid_from: string; label: string }
  | { kind: 'manual'; label: 'вручную' };

// ── Write schemas ──

/** A price per unit: rubles, above zero, at most two decimals. */
export const priceNumber = jsonNumber('Цена: ожидается число')
  .positive('Цена: больше 0')
  .max(MAX_PRICE, `Цена: не больше ${MAX_PRICE} ₽`)
  .refine((n) => Math.abs(toKop(n) - n * 100) < 1e-6, 'Цена: не больше двух знаков после запятой');

const lineFields = {
  cargo: text('Груз: ожидается текст')
    .max(300, 'Груз: не длиннее 300 символов')
    .nullish()
    .transform((v) => (v === undefined || v === null || v === '' ? null : v)),
  loading_place_id: refId('Место погрузки'),
  unloading_place_id: refId('Место выгрузки'),
  unit: z.enum(PRICE_UNITS, { message: `Единица: ожидается одно из ${PRICE_UNITS.join(', ')}` }),
  price: priceNumber,
  vat_mode: z.enum(VAT_MODES, { message: 'НДС: ожидается none, included или added' }),
  vat_rate: z
    .number({ message: 'Ставка НДС: ожидается число' })
    .refine((n) => (VAT_RATES as readonly number[]).includes(n), `Ставка НДС: ожидается одна из ${VAT_RATES.join(', ')} %`)
    .nullish()
    .transform((v) => v ?? null),
  free_minutes: z
    .number({ message: 'Бесплатное время: ожидается число минут' })
    .int('Бесплатное время: ожидается целое число минут')
    .min(0, 'Бесплатное время: не меньше 0 минут')
    .max(MAX_FREE_MINUTES, `Бесплатное время: не больше ${MAX_FREE_MINUTES} минут`)
    .nullish()
    .transform((v) => v ?? null),
  valid_from: isoDate,
};

type LineFields = { loading_place_id: number | null; unloading_place_id: number | null; unit: PriceUnit; vat_mode: VatMode; vat_rate: number | null; free_minutes: number | null };

/** The cross-field rules of a line, each naming its field. */
function lineRules(value: LineFields, ctx: z.RefinementCtx): void {
  if ((value.loading_place_id === null) !== (value.unloading_place_id === null)) {
    const path = value.loading_place_id === null ? 'loading_place_id' : 'unloading_place_id';
    ctx.addIssue({ code: 'custom', path: [path], message: 'Маршрут: укажите место погрузки и место выгрузки вместе (или ни одного — любой маршрут)' });
  }
  if (value.vat_mode === 'none' && value.vat_rate !== null) ctx.addIssue({ code: 'custom', path: ['vat_rate'], message: 'Ставка НДС: не указывается для цены без НДС' });
  if (value.vat_mode !== 'none' && value.vat_rate === null) ctx.addIssue({ code: 'custom', path: ['vat_rate'], message: 'Ставка НДС: укажите ставку' });
  if (value.unit === 'час' && value.free_minutes === null) ctx.addIssue({ code: 'custom', path: ['free_minutes'], message: 'Бесплатное время: укажите для почасовой цены (0 — без бесплатного времени)' });
  if (value.unit !== 'час' && value.free_minutes !== null) ctx.addIssue({ code: 'custom', path: ['free_minutes'], message: 'Бесплатное время: только для почасовой цены' });
}

/** PUT /price-lists/{id}: the whole line. */
export const priceLineSchema = z.object(lineFields).strict().superRefine(lineRules);
export type PriceLinePayload = z.output<typeof priceLineSchema>;
/** POST /price-lists/: a line of a customer's list. */
export const priceLineCreateSchema = z
  .object({ ...lineFields, counterparty_id: z.number({ message: 'Заказчик: ожидается номер' }).int('Заказчик: ожидается номер').positive('Заказчик: ожидается номер') })
  .strict()
  .superRefine(lineRules);
export type PriceLineCreate = z.output<typeof priceLineCreateSchema>;

export const priceListQuery = z.object({ counterparty_id: wireId('ожидается номер заказчика') }).strict();

// ── The resolution rule ──

/** What a line needs to be resolved (a wire line and a stored row both carry it). */
export interface ResolvableLine {
  id: number;
  cargo: string | null;
  loading_place_id: number | null;
  unloading_place_id: number | null;
  unit: string;
  valid_from: string;
}

export interface PriceQuery {
  cargo: string;
  loading_place_id: number | null;
  unloading_place_id: number | null;
  unit: string;
  date: string;
}

/**
 * How specific a line is: a cargo and a route 3, a route 2, a cargo 1, anything 0 (a route names more of the work
 * than a cargo does).
 */
export function specificity(line: Pick<ResolvableLine, 'cargo' | 'loading_place_id'>): number {
  return (line.loading_place_id !== null ? 2 : 0) + (line.cargo !== null ? 1 : 0);
}

/** Whether the line prices this work (cargo by its compared key, places by id, unit exactly), whatever the date. */
export function lineMatches(line: ResolvableLine, query: Omit<PriceQuery, 'date'>): boolean {
  if (line.unit !== query.unit) return false;
  if (line.cargo !== null && placeKey(line.cargo) !== placeKey(query.cargo)) return false;
  if (line.loading_place_id !== null && (line.loading_place_id !== query.loading_place_id || line.unloading_place_id !== query.unloading_place_id)) return false;
  return true;
}

/**
 * The line that prices the work on its date: among the matching lines valid from that day or earlier, the most
 * specific; at equal specificity the latest `valid_from` (the version in force); then the highest id. Null: none.
 */
export function resolvePrice<L extends ResolvableLine>(lines: readonly L[], query: PriceQuery): L | null {
  let best: L | null = null;
  for (const line of lines) {
    if (line.valid_from > query.date || !lineMatches(line, query)) continue;
    if (best === null || compareLines(line, best) > 0) best = line;
  }
  return best;
}

/** > 0 when `a` wins over `b`: more specific, then later, then newer. */
export function compareLines(a: ResolvableLine, b: ResolvableLine): number {
  return specificity(a) - specificity(b) || (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0) || a.id - b.id;
}

/** «Щебень, Карьер → Объект, т»: what a line prices, in words (places by their names). */
export function lineLabel(line: { cargo: string | null; unit: string; loading_place?: { name: string } | null; unloading_place?: { name: string } | null }): string {
  const cargo = line.cargo ?? 'любой груз';
  const route = line.loading_place && line.unloading_place ? `${line.loading_place.name} → ${line.unloading_place.name}` : 'любой маршрут';
  return `${cargo}, ${route}, за ${line.unit}`;
}

/** Two lines are versions of one price when they price the same cargo, route and unit. */
export function sameKey(a: ResolvableLine, b: ResolvableLine): boolean {
  return (
    a.unit === b.unit &&
    (a.cargo === null ? b.cargo === null : b.cargo !== null && placeKey(a.cargo) === placeKey(b.cargo)) &&
    a.loading_place_id === b.loading_place_id &&
    a.unloading_place_id === b.unloading_place_id
  );
}
