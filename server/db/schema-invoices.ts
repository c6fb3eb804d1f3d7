/** The act and the invoice (migration 021; docs/statements.md): issued papers, frozen with their lines and trips. */
import type { Generated } from 'kysely';
import type { InvoiceLineKind, InvoiceState } from '../../contract/statements.ts';

/** One act with its invoice, numbered per company per year without gaps. */
export interface InvoicesTable {
  id: Generated<number>;
  company_id: number;
  counterparty_id: number;
  year: number;
  number: number;
  issued_on: string; // YYYY-MM-DD
  period_from: string;
  period_to: string;
  state: InvoiceState;
  paid_on: string | null;
  corrects_id: number | null;
  /** The company's VAT rate when issued (percent), null: «Без НДС». */
  vat_rate: number | null;
  total_kop: number | string;
  vat_kop: number | string;
  /** JSON of contract/statements.ts InvoiceParty: the carrier and the customer as they were when issued. */
  seller: string;
  buyer: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** A line of the act: one cargo, route, unit and price. */
export interface InvoiceLinesTable {
  id: Generated<number>;
  invoice_id: number;
  position: number;
  cargo: string;
  loading_place: string;
  unloading_place: string;
  unit: string;
  trips: number;
  quantity: number;
  price: number;
  amount_kop: number | string;
  /** Migration 028: carriage, or the waiting time beyond `free_minutes` (unit «час»). */
  kind: Generated<InvoiceLineKind>;
  free_minutes: number | null;
}

/** The trips an act bills (one approved report each), with what it billed of each. */
export interface InvoiceTripsTable {
  invoice_id: number;
  report_id: number;
  quantity: number;
  amount_kop: number | string;
  /** Migration 028: the waiting minutes billed beyond the free period, and their amount (0: none). */
  waiting_min: Generated<number>;
  waiting_kop: Generated<number | string>;
}

export interface InvoiceTables {
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_trips: InvoiceTripsTable;
}

/** The column migration 021 adds to `companies`: the VAT the company bills at (null: «Без НДС»). */
export interface CompanyVatColumn {
  vat_rate: number | null;
}
