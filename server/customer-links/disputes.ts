/**
 * A trip the customer disputed through his link (docs/customer-link.md): stored with its reason and address, it
 * raises the report's `customer_dispute` flag («Оспорено заказчиком», a fault: it keeps the trip out of «approve all
 * clean») until the dispatcher answers it; the answer shows on /reports/{id} and on the customer's page.
 */
import type { Kysely } from 'kysely';
import type { AuthUser } from '../auth/guard.ts';
import type { Database } from '../db/schema.ts';
import { nowIso } from '../db/connect.ts';
import { conflict, notFound } from '../errors.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { scoreReport } from '../reports/score.ts';
import type { CustomerDispute } from '../../contract/customer-links.ts';
import type { OpenLink } from './links.ts';

type Q = Kysely<Database>;

function query(db: Q) {
  return db
    .selectFrom('customer_disputes as d')
    .innerJoin('customer_links as l', 'l.id', 'd.link_id')
    .leftJoin('users as u', 'u.id', 'd.answered_by')
    .select(['d.id', 'd.report_id', 'd.reason', 'd.created_at', 'd.answer', 'd.answered_at', 'u.name as answered_by_name', 'l.company_id', 'l.counterparty_id']);
}

type Row = Awaited<ReturnType<ReturnType<typeof query>['execute']>>[number];
const toDispute = (r: Row): CustomerDispute => ({
  id: r.id,
  report_id: r.report_id,
  reason: r.reason,
  created_at: r.created_at,
  answer: r.answer,
  answered_at: r.answered_at,
  answered_by_name: r.answered_by_name,
});

/** The disputes of these reports, oldest first; only the given customer's when named. */
export async function disputesOf(db: Q, reportIds: readonly number[], counterpartyId: number | null): Promise<Map<number, CustomerDispute[]>> {
  const byReport = new Map<number, CustomerDispute[]>();
  if (reportIds.length === 0) return byReport;
  const rows = await query(db)
    .where('d.report_id', 'in', [...reportIds])
    .$if(counterpartyId !== null, (qb) => qb.where('l.counterparty_id', '=', counterpartyId as number))
    .orderBy('d.id')
    .execute();
  for (const r of rows) byReport.set(r.report_id, [...(byReport.get(r.report_id) ?? []), toDispute(r)]);
  return byReport;
}

/** The customer's dispute of one of his link's trips (the caller checked the trip is the link's). */
export async function createDispute(db: Q, link: OpenLink, reportId: number, reason: string, address: string): Promise<CustomerDispute> {
  const open = await db.selectFrom('customer_disputes').select('id').where('report_id', '=', reportId).where('answered_at', 'is', null).executeTakeFirst();
  if (open) throw conflict('Этот рейс уже оспорен: перевозчик ещё не ответил');
  const row = await db.insertInto('customer_disputes').values({ link_id: link.id, report_id: reportId, reason, address, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  await scoreReport(db, reportId);
  return toDispute(await query(db).where('d.id', '=', row.id).executeTakeFirstOrThrow());
}

/** The dispatcher's answer: the flag goes, the answer stays for both sides to read. */
export async function answerDispute(db: Q, user: AuthUser, id: number, answer: string): Promise<CustomerDispute> {
  const row = await query(db).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Спор не найден');
  assertStaffSeesCompany(user, row.company_id, 'Спор не найден');
  if (row.answered_at) throw conflict('На этот спор уже ответили');
  await db.updateTable('customer_disputes').set({ answer, answered_by: user.id, answered_at: nowIso() }).where('id', '=', id).where('answered_at', 'is', null).execute();
  await scoreReport(db, row.report_id);
  return toDispute(await query(db).where('d.id', '=', id).executeTakeFirstOrThrow());
}
