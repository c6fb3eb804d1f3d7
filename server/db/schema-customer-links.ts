/** The customer's link's tables (migration 020; contract/customer-links.ts, docs/customer-link.md). */
import type { Generated } from 'kysely';

export interface CustomerLinksTable {
  id: Generated<number>;
  company_id: number;
  counterparty_id: number;
  /** SHA-256 of the token, hex: the token itself is shown once and never stored. */
  token_hash: string;
  created_by: number | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** A view or download through a link: repeats of one page from one address within minutes are counted on one row. */
export interface CustomerLinkViewsTable {
  id: Generated<number>;
  link_id: number;
  /** The latest time. */
  at: string;
  first_at: string;
  page: string;
  address: string;
  count: Generated<number>;
}

/** A trip the customer disputed through a link, and the dispatcher's answer. */
export interface CustomerDisputesTable {
  id: Generated<number>;
  link_id: number;
  report_id: number;
  reason: string;
  address: string;
  created_at: string;
  answer: string | null;
  answered_by: number | null;
  answered_at: string | null;
}
