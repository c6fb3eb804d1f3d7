/**
 * A task's customer price (docs/prices.md): from the customer's price list by the one rule (contract/prices.ts
 * `resolvePrice`), or typed by staff («вручную»), and said where it came from on every staff view of the task.
 */
import type { Kysely } from 'kysely';
import type { Database, TaskRow } from '../db/schema.ts';
import { fromKop, toKop } from '../../contract/money.ts';
import { lineLabel, resolvePrice, type PriceSource } from '../../contract/prices.ts';

type Q = Kysely<Database>;

/** «01.11.2026». */
export const dateText = (iso: string): string => iso.split('-').reverse().join('.');

export type PricedTask = Pick<TaskRow, 'customer_id' | 'cargo' | 'loading_place_id' | 'unloading_place_id' | 'unit' | 'date'>;
export type TaskPrice = Pick<TaskRow, 'rate' | 'price_line_id' | 'price_source'>;

/**
 * The price columns of a task: `rate` null or absent takes the list's line (none: no price); a rate typed equal to
 * the line's price to the kopeck is the list's, any other is «вручную».
 */
export async function taskPrice(db: Q, task: PricedTask, rate: number | null | undefined): Promise<TaskPrice> {
  const lines =
    task.customer_id === null
      ? []
      : await db
          .selectFrom('price_lines')
          .select(['id', 'cargo', 'loading_place_id', 'unloading_place_id', 'unit', 'valid_from', 'price_kop'])
          .where('counterparty_id', '=', task.customer_id)
          .execute();
  const line = resolvePrice(lines, task);
  if (rate === null || rate === undefined) {
    return line ? { rate: fromKop(Number(line.price_kop)), price_line_id: line.id, price_source: 'list' } : { rate: null, price_line_id: null, price_source: null };
  }
  if (line && toKop(rate) === Number(line.price_kop)) return { rate, price_line_id: line.id, price_source: 'list' };
  return { rate, price_line_id: null, price_source: 'manual' };
}

/** Whether a task change touches what its price is resolved from. */
export function touchesPrice(input: Partial<Record<keyof PricedTask | 'rate' | 'loading_place' | 'unloading_place', unknown>>): boolean {
  return (['rate', 'customer_id', 'cargo', 'loading_place_id', 'unloading_place_id', 'loading_place', 'unloading_place', 'unit', 'date'] as const).some((k) => input[k] !== undefined);
}

/** Per task: where its price came from, in words («по прайсу: Щебень, Карьер → Объект, за т, с 01.11.2026»). */
export async function priceSources(db: Q, rows: readonly Pick<TaskRow, 'id' | 'price_line_id' | 'price_source'>[]): Promise<Map<number, PriceSource | null>> {
  const ids = [...new Set(rows.map((r) => r.price_line_id).filter((id): id is number => id !== null))];
  const lines = ids.length
    ? await db
        .selectFrom('price_lines as l')
        .leftJoin('places as lp', 'lp.id', 'l.loading_place_id')
        .leftJoin('places as up', 'up.id', 'l.unloading_place_id')
        .select(['l.id', 'l.cargo', 'l.unit', 'l.valid_from', 'lp.name as loading_name', 'up.name as unloading_name'])
        .where('l.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(lines.map((l) => [l.id, l]));
  return new Map(
    rows.map((row): [number, PriceSource | null] => {
      if (row.price_source === 'manual') return [row.id, { kind: 'manual', label: 'вручную' }];
      const line = row.price_line_id === null ? undefined : byId.get(row.price_line_id);
      if (row.price_source !== 'list' || !line) return [row.id, null];
      const named = (name: string | null) => (name === null ? null : { name });
      const label = `${lineLabel({ ...line, loading_place: named(line.loading_name), unloading_place: named(line.unloading_name) })}, с ${dateText(line.valid_from)}`;
      return [row.id, { kind: 'list', line_id: line.id, valid_from: line.valid_from, label }];
    }),
  );
}
