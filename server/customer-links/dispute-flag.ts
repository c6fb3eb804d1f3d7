/** The report flag a customer's unanswered dispute raises (docs/customer-link.md), read by the report's scoring. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportFlag } from '../../contract/report-checks.ts';

/** The flag an unanswered dispute raises (the latest one's reason), for the report's scoring. */
export async function disputeFlags(db: Kysely<Database>, reportId: number): Promise<ReportFlag[]> {
  const open = await db.selectFrom('customer_disputes').select(['reason']).where('report_id', '=', reportId).where('answered_at', 'is', null).orderBy('id', 'desc').executeTakeFirst();
  return open ? [{ code: 'customer_dispute', detail: `Оспорено заказчиком: ${open.reason}` }] : [];
}

