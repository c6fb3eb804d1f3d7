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
import { roundQuantity } from '../tasks/progress.ts';
import { amountKop, priceLoads, selectLoads } from '../wages/pay.ts';
import { byClosedMonth, storedSums } from '../wages/stored-money.ts';
import type { AssociationMoney } from './workbook.ts';

export async function associationMoney(db: Db, associationIds: readonly number[]): Promise<Map<number, AssociationMoney>> {
  const result = new Map<number, AssociationMoney>();
  if (associationIds.length === 0) return result;
  const parts = await db.kysely
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select(['td.id', 't.company_id', 't.date', 't.unit'])
    .where('td.id', 'in', [...associationIds])
    .execute();
  const { closed, open } = await byClosedMonth(db.kysely, parts);
  const unit = new Map(closed.map((p) => [p.id, p.unit]));
  for (const [id, s] of await storedSums(db.kysely, 'association', closed.map((p) => p.id))) {
    result.set(id, {
      approved: roundQuantity(s.quantity),
      rate: s.last?.rate ?? null,
      source: s.last ? rateSourceText({ ...s.last, unit: unit.get(id) ?? 'т', frozen: true }) : null,
      pay: fromKop(s.pay_kop),
      revenue: fromKop(s.revenue_kop),
      margin: fromKop(s.revenue_kop - s.pay_kop),
    });
  }
  await liveMoney(db, open.map((p) => p.id), result);
  return result;
}

/** Open months' associations: their approved loads priced by the one rule, summed per association. */
async function liveMoney(db: Db, associationIds: readonly number[], into: Map<number, AssociationMoney>): Promise<void> {
  if (associationIds.length === 0) return;
  const loads = await priceLoads(db.kysely, await selectLoads(db.kysely, { associationIds, review: 'approved' }));
  const by = new Map<number, { approved: number; rate: number | null; source: string | null; payKop: number; revenueKop: number }>();
  for (const l of loads) {
    const m = by.get(l.association_id) ?? { approved: 0, rate: l.rate, source: null, payKop: 0, revenueKop: 0 };
    m.approved = roundQuantity(m.approved + l.quantity);
    m.rate = l.rate;
    m.source = rateSourceText(l);
    m.payKop += l.amount_kop;
    m.revenueKop += amountKop(l.quantity, l.task_rate);
    by.set(l.association_id, m);
  }
  for (const [id, m] of by) {
    into.set(id, { approved: m.approved, rate: m.rate, source: m.source, pay: fromKop(m.payKop), revenue: fromKop(m.revenueKop), margin: fromKop(m.revenueKop - m.payKop) });
  }
}
