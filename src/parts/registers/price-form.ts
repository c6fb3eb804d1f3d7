/**
 * The price list's form and view rules (docs/prices.md), pure: a line's form values and body, the lines grouped by
 * what they price with their versions newest first, and a line's words.
 */
import { MAX_FREE_MINUTES, PRICE_UNITS, sameKey, VAT_MODE_LABELS, type PriceLine, type PriceLinePayload, type PriceUnit, type VatMode } from '../../../contract/prices.ts';
import { parseQuantity, quantityText } from '../../ui/decimal.ts';
import { formatDate, formatMoney } from '../../ui/format.ts';

export interface PriceLineValues {
  cargo: string;
  /** A route: both place ids as text, or both empty. */
  loading_place_id: string;
  unloading_place_id: string;
  unit: PriceUnit;
  price: string;
  vat_mode: VatMode;
  vat_rate: string;
  free_minutes: string;
  valid_from: string;
}

/** What POST and PUT send (the schema's output: the server reads the same). */
export type PriceLineBody = PriceLinePayload;

export function emptyLine(validFrom: string): PriceLineValues {
  return { cargo: '', loading_place_id: '', unloading_place_id: '', unit: PRICE_UNITS[0], price: '', vat_mode: 'none', vat_rate: '', free_minutes: '', valid_from: validFrom };
}

/** The form of a line; `validFrom` set: a new version of it from that day. */
export function lineValues(line: PriceLine, validFrom?: string): PriceLineValues {
  return {
    cargo: line.cargo ?? '',
    loading_place_id: line.loading_place_id === null ? '' : String(line.loading_place_id),
    unloading_place_id: line.unloading_place_id === null ? '' : String(line.unloading_place_id),
    unit: line.unit,
    price: validFrom ? '' : quantityText(line.price),
    vat_mode: line.vat_mode,
    vat_rate: line.vat_rate === null ? '' : String(line.vat_rate),
    free_minutes: line.free_minutes === null ? '' : String(line.free_minutes),
    valid_from: validFrom ?? line.valid_from,
  };
}

export type LineErrors = Partial<Record<keyof PriceLineValues, string>>;

/** The body, or the form's refusals (the server checks the rest and names its field). */
export function lineBody(values: PriceLineValues): { ok: true; body: PriceLineBody } | { ok: false; errors: LineErrors } {
  const errors: LineErrors = {};
  const price = parseQuantity(values.price);
  if (!price.ok) errors.price = price.error;
  else if (price.value === null || price.value <= 0) errors.price = 'Укажите цену больше 0';
  if ((values.loading_place_id === '') !== (values.unloading_place_id === '')) {
    errors[values.loading_place_id === '' ? 'loading_place_id' : 'unloading_place_id'] = 'Укажите оба места или ни одного (любой маршрут)';
  }
  const hourly = values.unit === 'час';
  const minutes = values.free_minutes.trim();
  if (hourly && !/^\d+$/.test(minutes)) errors.free_minutes = 'Укажите минуты (0 — без бесплатного времени)';
  else if (hourly && Number(minutes) > MAX_FREE_MINUTES) errors.free_minutes = `Не больше ${MAX_FREE_MINUTES} минут`;
  if (values.vat_mode !== 'none' && values.vat_rate === '') errors.vat_rate = 'Выберите ставку НДС';
  if (values.valid_from === '') errors.valid_from = 'Укажите дату';
  if (Object.keys(errors).length > 0 || !price.ok) return { ok: false, errors };
  const id = (text: string) => (text === '' ? null : Number(text));
  return {
    ok: true,
    body: {
      cargo: values.cargo.trim() === '' ? null : values.cargo.trim(),
      loading_place_id: id(values.loading_place_id),
      unloading_place_id: id(values.unloading_place_id),
      unit: values.unit,
      price: price.value as number,
      vat_mode: values.vat_mode,
      vat_rate: values.vat_mode === 'none' ? null : Number(values.vat_rate),
      free_minutes: hourly ? Number(minutes) : null,
      valid_from: values.valid_from,
    },
  };
}

/** The lines by what they price (cargo, route, unit), each group's versions newest first; groups by cargo and route. */
export function priceGroups(lines: readonly PriceLine[]): PriceLine[][] {
  const groups: PriceLine[][] = [];
  for (const line of lines) {
    const group = groups.find((g) => sameKey(g[0] as PriceLine, line));
    if (group) group.push(line);
    else groups.push([line]);
  }
  for (const group of groups) group.sort((a, b) => (a.valid_from < b.valid_from ? 1 : a.valid_from > b.valid_from ? -1 : 0));
  return groups;
}

/** «с 01.11.2026 по 30.11.2026» / «с 01.12.2026». */
export const periodText = (line: Pick<PriceLine, 'valid_from' | 'valid_to'>): string =>
  `с ${formatDate(line.valid_from)}${line.valid_to ? ` по ${formatDate(line.valid_to)}` : ''}`;

/**
 * What the act makes of a line's VAT (docs/statements.md «VAT»): acts bill the task's price as including the
 * company's VAT rate, or «Без НДС» (its setting, `companyRate` null), whatever the line says. A line that says
 * otherwise gets this note; one that agrees, or while the setting is not known yet (`undefined`), none.
 */
export function actVatNote(line: Pick<PriceLine, 'vat_mode' | 'vat_rate'>, companyRate: number | null | undefined): string | null {
  if (companyRate === undefined) return null;
  if (companyRate === null) return line.vat_mode === 'none' ? null : 'В акте — без НДС: так настроена компания';
  if (line.vat_mode === 'included' && line.vat_rate === companyRate) return null;
  const head = `В акте — НДС ${companyRate} % в том числе в цене`;
  return line.vat_mode === 'added' ? `${head}, не сверху: так настроена компания` : `${head}: так настроена компания`;
}

/** «450,50 ₽ за т, НДС сверху 22 %, первые 60 мин бесплатно», «12 000 ₽ за рейс, без НДС». */
export function priceText(line: Pick<PriceLine, 'price' | 'unit' | 'vat_mode' | 'vat_rate' | 'free_minutes'>): string {
  const vat = line.vat_mode === 'none' ? 'без НДС' : `${VAT_MODE_LABELS[line.vat_mode]} ${line.vat_rate ?? 0} %`;
  const free = line.free_minutes !== null ? `, первые ${line.free_minutes} мин бесплатно` : '';
  return `${formatMoney(line.price)} за ${line.unit}, ${vat}${free}`;
}
