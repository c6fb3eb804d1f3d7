/** Adjustments after close (server/routes/WAGES.md «Месяц закрыт»): reading them for every figure that counts them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { fromKop, type Adjustment } from '../../contract/money.ts';
import type { Period } from '../wages/pay.ts';

type Q = Kysely<Database>;

export interface AdjustmentFilter extends Period {
  companyId?: number;
  driverId?: number;
  /** Made about loads of this month (shown in that month's breakdown, counted in their own month). */
  concernsMonth?: string;
}

export async function listAdjustments(db: Q, f: AdjustmentFilter): Promise<Adjustment[]> {
  const rows = await db
    .selectFrom('payroll_adjustments as a')
    .innerJoin('users as d', 'd.id', 'a.driver_id')
    .leftJoin('users as c', 'c.id', 'a.created_by')
    .select(['a.id', 'a.company_id', 'a.driver_id', 'd.name as driver_name', 'a.date', 'a.amount_kop', 'a.reason', 'a.report_id', 'a.concerns_month', 'c.name as created_by_name', 'a.created_at', 'a.late'])
    .$if(f.companyId !== undefined, (qb) => qb.where('a.company_id', '=', f.companyId as number))
    .$if(f.driverId !== undefined, (qb) => qb.where('a.driver_id', '=', f.driverId as number))
    .$if(f.concernsMonth !== undefined, (qb) => qb.where('a.concerns_month', '=', f.concernsMonth as string))
    .$if(f.start_date !== undefined, (qb) => qb.where('a.date', '>=', f.start_date as string))
    .$if(f.end_date !== undefined, (qb) => qb.where('a.date', '<=', f.end_date as string))
    .orderBy('a.date')
    .orderBy('a.id')
    .execute();
  // The system's payment of a late load (late.ts), marked by its own column: an adjustment whose author's account
  // is gone is still staff's.
  return rows.map(({ amount_kop, late, ...r }) => ({ ...r, amount: fromKop(Number(amount_kop)), late: Number(late) === 1 }));
}
