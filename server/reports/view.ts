/** One report with its driver, task and association: what /reports/{id} shows staff. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ReportView } from '../../contract/entities.ts';
import { loadReport } from './load.ts';
import { priceLoads, selectLoads } from '../wages/pay.ts';
import { fromKop } from '../../contract/money.ts';
import { tripFacts } from '../trips/facts.ts';
import { disputesOf } from '../customer-links/disputes.ts';

export async function loadReportView(db: Kysely<Database>, reportId: number): Promise<ReportView> {
  const report = await loadReport(db, reportId);
  const row = await db
    .selectFrom('task_drivers as td')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .leftJoin('users as u', 'u.id', 'td.driver_id')
    .select([
      'td.id as association_id',
      'td.status as association_status',
      'td.quantity',
      'td.loading_quantity',
      'td.unloading_quantity',
      'td.transport_rate',
      't.id as task_id',
      't.company_id',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.planned_quantity',
      't.unit',
      't.status as task_status',
      'u.name as driver_name',
    ])
    .where('td.id', '=', report.association_id)
    .executeTakeFirstOrThrow();
  // The load priced as if approved (an estimate until it is): the same rule as every money figure.
  const [load] = (await selectLoads(db, { associationIds: [report.association_id], review: report.review_status === 'approved' ? 'approved' : 'unapproved' })).filter((l) => l.report_id === report.id);
  const [priced] = load ? await priceLoads(db, [load]) : [];
  const [trip, disputes] = await Promise.all([tripFacts(db, reportId), disputesOf(db, [reportId], null)]);
  return {
    ...report,
    ...trip,
    customer_disputes: disputes.get(reportId) ?? [],
    pay: {
      delivered: priced?.quantity ?? load?.quantity ?? 0,
      rate: priced?.rate ?? null,
      source: priced?.rate_source ?? null,
      month_volume: priced?.month_volume ?? 0,
      amount: priced ? fromKop(priced.amount_kop) : 0,
      estimate: report.review_status !== 'approved',
      frozen: priced?.frozen ?? false,
    },
    driver_name: row.driver_name,
    task: {
      id: row.task_id,
      company_id: row.company_id,
      date: row.date,
      cargo: row.cargo,
      loading_place: row.loading_place,
      unloading_place: row.unloading_place,
      planned_quantity: row.planned_quantity,
      unit: row.unit,
      status: row.task_status,
    },
    association: {
      id: row.association_id,
      status: row.association_status,
      quantity: row.quantity,
      loading_quantity: row.loading_quantity,
      unloading_quantity: row.unloading_quantity,
      transport_rate: row.transport_rate,
    },
  };
}
