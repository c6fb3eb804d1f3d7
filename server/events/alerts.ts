/**
 * Which successful writes alert the dispatcher (contract/alerts.ts, docs/alerts.md), in what words, and to which
 * company's staff. Called after the write with what the change feed knows of it; reads the names it needs.
 * A driver's replayed report (the same idempotency key, answered 200) alerts nobody: it is not new. A report of the
 * last trip («Последний рейс») says so and finishes the driver's part: it alerts twice, the report and the finish,
 * as the card's «Завершить задачу» does.
 */
import type { Db } from '../db/connect.ts';
import type { StaffAlert } from '../../contract/alerts.ts';
import type { Change } from './bus.ts';
import { field, num, type WriteFacts } from './audience.ts';

export interface AddressedAlert {
  alert: StaffAlert;
  /** The company whose managers and admins (and every super-admin) hear it. */
  companyId: number;
}

/** An alert as the bus carries it: to its company's staff (and every super-admin), nothing to refetch. */
export const alertChange = ({ alert, companyId }: AddressedAlert): Change => ({ path: '', alert, audience: { staffOf: [companyId], driversOf: [], users: [] } });

const ruNumber = (n: number): string => String(Math.round(n * 1000) / 1000).replace('.', ',');

function ruDate(date: string): string {
  const [y, m, d] = date.split('-');
  return y && m && d ? `${d}.${m}` : date;
}

async function reportFacts(db: Db, reportId: number | null) {
  if (reportId === null) return undefined;
  return db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .select(['r.id', 'r.quantity', 'r.total_unloading_quantity', 'r.final', 't.id as task_id', 't.cargo', 't.unit', 't.date', 't.company_id', 'u.name'])
    .where('r.id', '=', reportId)
    .executeTakeFirst();
}

async function taskFacts(db: Db, taskId: number | null) {
  if (taskId === null) return undefined;
  return db.kysely.selectFrom('tasks').select(['id', 'cargo', 'date', 'company_id']).where('id', '=', taskId).executeTakeFirst();
}

const finished = (who: string, t: { id: number; cargo: string; date: string; company_id: number }): AddressedAlert => ({
  companyId: t.company_id,
  alert: { kind: 'task_finished', text: `${who} завершил задачу №${t.id} ${t.cargo}`, url: `/dispatch?date=${t.date}` },
});

/** The alerts a write raises, in the order they are told (none for most writes). */
export async function alertsAfterWrite(db: Db, facts: WriteFacts & { status?: number }): Promise<AddressedAlert[]> {
  const key = `${facts.method} ${facts.route}`;
  if (key === 'POST /reports/' && facts.status === 201 && facts.caller?.role === 'driver') {
    const r = await reportFacts(db, num(field(facts.answer, 'id')));
    if (!r) return [];
    const who = facts.caller.name;
    const amount = r.total_unloading_quantity ?? r.quantity;
    const tail = amount === null ? '' : `, ${ruNumber(amount)} ${r.unit}`;
    const what = r.final ? 'отчёт о последнем рейсе' : 'новый отчёт';
    const report: AddressedAlert = { companyId: r.company_id, alert: { kind: 'report', text: `${who}: ${what} — №${r.task_id} ${r.cargo}${tail}`, url: `/reports/${r.id}` } };
    return r.final ? [report, finished(who, { id: r.task_id, cargo: r.cargo, date: r.date, company_id: r.company_id })] : [report];
  }
  const one = await alertAfterWrite(db, key, facts);
  return one ? [one] : [];
}

async function alertAfterWrite(db: Db, key: string, facts: WriteFacts): Promise<AddressedAlert | null> {
  const caller = facts.caller;
  if (!caller || caller.role !== 'driver') return transferAnswered(db, key, facts);
  const who = caller.name;

  if (key === 'PUT /reports/:id' && field(facts.answer, 'review_status') === 'pending' && field(facts.answer, 'review_comment')) {
    const r = await reportFacts(db, num(facts.params.id));
    if (!r) return null;
    return { companyId: r.company_id, alert: { kind: 'report_fixed', text: `${who} исправил оспоренный отчёт — №${r.task_id} ${r.cargo}`, url: `/reports/${r.id}` } };
  }
  if (key === 'PUT /tasks/:id/accept/') {
    const t = await taskFacts(db, num(facts.params.id));
    if (!t) return null;
    return { companyId: t.company_id, alert: { kind: 'task_taken', text: `${who} взял задачу №${t.id} ${t.cargo} на ${ruDate(t.date)}`, url: `/dispatch?date=${t.date}` } };
  }
  if (key === 'PUT /tasks/:id/' && field(facts.body, 'status') === 'completed') {
    const t = await taskFacts(db, num(facts.params.id));
    return t ? finished(who, t) : null;
  }
  return null;
}

/** The receiving carrier accepted or declined: the sending company's staff hear it. */
async function transferAnswered(db: Db, key: string, facts: WriteFacts): Promise<AddressedAlert | null> {
  const accepted = key === 'POST /transfers/:id/accept';
  if (!accepted && key !== 'POST /transfers/:id/decline') return null;
  const t = await db.kysely
    .selectFrom('transfers as tr')
    .innerJoin('tasks as t', 't.id', 'tr.task_id')
    .innerJoin('companies as c', 'c.id', 'tr.to_company_id')
    .select(['tr.from_company_id', 'tr.decline_reason', 't.cargo', 't.id as task_id', 'c.name'])
    .where('tr.id', '=', num(facts.params.id) ?? 0)
    .executeTakeFirst();
  if (!t) return null;
  const verdict = accepted ? 'принял передачу' : `отклонил передачу${t.decline_reason ? ` (${t.decline_reason})` : ''}`;
  return {
    companyId: t.from_company_id,
    alert: { kind: 'transfer_answered', text: `Перевозчик «${t.name}» ${verdict} — №${t.task_id} ${t.cargo}`, url: '/carrier-transfers' },
  };
}
