/**
 * Which payroll months are closed, and the guard every change that would move a closed month's figures passes
 * through (server/routes/WAGES.md «Месяц закрыт»): a refusal is a 409 naming the month.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { conflict } from '../errors.ts';
import { localToday } from '../tasks/scope.ts';
import { monthLabel, monthOf, monthRange, nextMonth } from '../../contract/money.ts';

type Q = Kysely<Database>;

export async function isClosed(db: Q, companyId: number, month: string): Promise<boolean> {
  const row = await db.selectFrom('payroll_months').select('id').where('company_id', '=', companyId).where('month', '=', month).where('status', '=', 'closed').executeTakeFirst();
  return row !== undefined;
}

/** The company's latest closed month, or null. */
export async function latestClosed(db: Q, companyId: number): Promise<string | null> {
  const row = await db
    .selectFrom('payroll_months')
    .select('month')
    .where('company_id', '=', companyId)
    .where('status', '=', 'closed')
    .orderBy('month', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.month ?? null;
}

/** The first day a change may take effect from: the day after the latest closed month (or any day). */
export async function firstOpenDay(db: Q, companyId: number): Promise<string | null> {
  const closed = await latestClosed(db, companyId);
  return closed === null ? null : monthRange(nextMonth(closed)).start;
}

/** The current open month: today's, or the first after the latest closed one when today's is closed. */
export async function currentOpenMonth(db: Q, companyId: number, today = localToday()): Promise<string> {
  const closed = await latestClosed(db, companyId);
  const month = monthOf(today);
  return closed !== null && closed >= month ? nextMonth(closed) : month;
}

/** «Ноябрь 2026 закрыт»: the start of every refusal. */
export const closedText = (month: string): string => {
  const label = monthLabel(month);
  return `${label.charAt(0).toUpperCase()}${label.slice(1)} закрыт`;
};

/**
 * Refuses a change that would move the figures of a closed month: `what` says what the user tried («Ставку
 * водителя нельзя изменить»), the rest names the month and the way out.
 */
export async function assertMonthOpen(db: Q, companyId: number, date: string, what: string): Promise<void> {
  const month = monthOf(date);
  if (await isClosed(db, companyId, month)) {
    throw conflict(`${what}: ${closedText(month).toLowerCase()} (расчёт с водителями). Исправление — корректировкой в открытом месяце`);
  }
}

/** The guard for a task's month (its company and date). */
export async function assertTaskMonthOpen(db: Q, taskId: number, what: string): Promise<void> {
  const task = await db.selectFrom('tasks').select(['company_id', 'date']).where('id', '=', taskId).executeTakeFirst();
  if (task) await assertMonthOpen(db, task.company_id, task.date, what);
}
