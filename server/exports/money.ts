/**
 * Each association's money in the completed-tasks export (workbook.ts `AssociationMoney`): what its approved loads
 * were paid and brought. An association of a closed month is summed in SQL from the lines its close stored — the
 * figures `priceLoads` reads from them, to the kopeck: delivered, pay, revenue per line, the last line's rate and
 * where it came from —, the rest (the open months') priced load by load by the one rule (wages/pay.ts). A year's
 * export read every load as a row of 35 columns and priced it in JavaScript: 10 GB allocated for 75 000 rows, the
 * server's RSS +220 MB at three years' size (issue 35, docs/scale.md «The close as a job»).
 */
import type { Db } from '../db/connect.ts';
import { fromKop } from '../../contract/money.ts';
import { rateSourceText } from '../../contract/words.ts';
import { moneySums } from '../wages/stored-money.ts';
import type { AssociationMoney } from './workbook.ts';

export async function associationMoney(db: Db, associationIds: readonly number[]): Promise<Map<number, AssociationMoney>> {
  if (associationIds.length === 0) return new Map();
  const parts = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id', 't.company_id', 't.date', 't.unit'])
    .where('td.id', 'in', [...associationIds])
    .execute();
  const unit = new Map(parts.map((p) => [p.id, p.unit]));
  const sums = await moneySums(db.kysely, 'association', parts);
  return new Map(
    [...sums].map(([id, s]) => [
      id,
      {
        approved: s.quantity,
        rate: s.last?.rate ?? null,
        source: s.last ? rateSourceText({ ...s.last, unit: unit.get(id) ?? 'т', frozen: s.frozen }) : null,
        pay: fromKop(s.pay_kop),
        revenue: fromKop(s.revenue_kop),
        margin: fromKop(s.revenue_kop - s.pay_kop),
      },
    ]),
  );
}
