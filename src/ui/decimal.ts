/**
 * Decimal fields everywhere (driver and console forms): typed on a phone or a desk: an empty field means "no value" (null, docs/product.md §5),
 * a comma is a decimal separator as Russian keyboards type it, anything else must be a number >= 0.
 */
export type Parsed = { ok: true; value: number | null } | { ok: false; error: string };

export function parseQuantity(text: string): Parsed {
  const trimmed = text.trim().replace(/\s+/g, '').replace(',', '.');
  if (trimmed === '') return { ok: true, value: null };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return { ok: false, error: 'Введите число' };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { ok: false, error: 'Введите число' };
  if (value < 0) return { ok: false, error: 'Число не может быть отрицательным' };
  return { ok: true, value };
}

/** The value a number field shows for a stored number (null → empty field). */
export function quantityText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value).replace('.', ',');
}

export interface QuantityFields {
  quantity: string;
  loading_quantity: string;
  unloading_quantity: string;
}

/** Whether what is typed differs from what the server holds (the fields then show «Не сохранено»). */
export function quantitiesUnsaved(
  fields: QuantityFields,
  stored: { quantity: number | null; loading_quantity: number | null; unloading_quantity: number | null },
): boolean {
  return (['quantity', 'loading_quantity', 'unloading_quantity'] as const).some((key) => {
    const typed = fields[key].trim();
    const parsed = typed === '' ? null : parseQuantity(typed);
    // Text that reads as the stored number ("24,50" for 24.5) is saved; anything else is not.
    if (parsed === null) return stored[key] !== null;
    return !parsed.ok || parsed.value !== stored[key];
  });
}

export interface QuantityBody {
  quantity: number | null;
  loading_quantity: number | null;
  unloading_quantity: number | null;
}

export type QuantityResult =
  | { ok: true; body: QuantityBody }
  | { ok: false; errors: Partial<Record<keyof QuantityFields, string>> };

/** The body of PUT /tasks/{id}/drivers/{driverId}/quantity/: empty → null, otherwise a number. */
export function quantityBody(fields: QuantityFields): QuantityResult {
  const errors: Partial<Record<keyof QuantityFields, string>> = {};
  const body: QuantityBody = { quantity: null, loading_quantity: null, unloading_quantity: null };
  for (const key of ['quantity', 'loading_quantity', 'unloading_quantity'] as const) {
    const parsed = parseQuantity(fields[key]);
    if (parsed.ok) body[key] = parsed.value;
    else errors[key] = parsed.error;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, body };
}

/** Hours worked in a day: more than 0, at most 24. */
export function parseHours(text: string): Parsed {
  const parsed = parseQuantity(text);
  if (!parsed.ok) return parsed;
  if (parsed.value === null) return { ok: false, error: 'Укажите количество часов' };
  if (parsed.value <= 0 || parsed.value > 24) return { ok: false, error: 'Часы: больше 0 и не больше 24' };
  return parsed;
}
