/** The customer's price list (migration 015; docs/prices.md): its lines, and what a task keeps of its price's origin. */
import type { Generated } from 'kysely';
import type { PriceUnit, VatMode } from '../../contract/prices.ts';

/** One line (one version) of a customer's price list. */
export interface PriceLinesTable {
  id: Generated<number>;
  company_id: number;
  counterparty_id: number;
  /** Null: any cargo. */
  cargo: string | null;
  /** contract/registers.ts placeKey of the cargo; '' for any (the unique key's part). */
  cargo_key: string;
  /** Both or neither: the route; null: any route. */
  loading_place_id: number | null;
  unloading_place_id: number | null;
  unit: PriceUnit;
  price_kop: number | string;
  vat_mode: VatMode;
  vat_rate: number | null;
  free_minutes: number | null;
  valid_from: string; // YYYY-MM-DD
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface PriceTables {
  price_lines: PriceLinesTable;
}

/** The columns migration 015 adds to `tasks`: where the customer's price came from. */
export interface TaskPriceColumns {
  /** The line it came from ('list'); null otherwise. */
  price_line_id: number | null;
  /** 'list': the price list's; 'manual': typed by staff; null: no price. */
  price_source: 'list' | 'manual' | null;
}
