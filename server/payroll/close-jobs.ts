/**
 * A month's close as a job (issue 35, docs/scale.md «The close as a job»). Storing a 200-truck carrier's month is
 * ~36 000 priced lines — 0.3 s on SQLite, 0.6 s on PostgreSQL at three years' size, seconds for a larger fleet — and
 * an answer held that long is a request a proxy may cut, a button pressed twice, a tab closed halfway. So
 * `POST /payroll/close` checks what it can at once (the month begun, not closed, no close of it running), records the
 * close in `payroll_closes` and answers it (202); the close itself (close.ts, one transaction) runs in this process
 * beside the requests, then the row ends 'done' or 'failed' with the answer the request would have had (409: the
 * figures moved since the admin confirmed them), and the change feed tells every tab of the company.
 *
 * One close of a month runs at a time: a partial unique index on the running rows (migration 053), so a second
 * request — another tab, another instance — is 409. A close its process died in (its transaction went with it)
 * stays 'running' in the table; after `STALE_MS` it reads as failed and the month can be closed again.
 */
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { ChangeBus } from '../events/bus.ts';
import type { AuthUser } from '../auth/guard.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { conflict, HttpError, notFound } from '../errors.ts';
import type { PayrollClose, PayrollConfirmed } from '../../contract/money.ts';
import { assertMonthBegun, closeMonth } from './close.ts';
import { closedText, isClosed } from './months.ts';

export interface PayrollCloses {
  /** Records a month's close and starts it; answers the running close (4xx at once for what can be known at once). */
  start(user: AuthUser, company: { id: number; name: string }, month: string, confirmed: PayrollConfirmed): Promise<PayrollClose>;
  /** A close of the company's, as it stands. */
  get(id: number, companyId: number | null): Promise<PayrollClose>;
  /** Resolves once no close runs in this process (tests; the server's shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** A 'running' close older than this was left by a process that died: read as failed, and the month closes again. */
export const STALE_MS = 2 * 60_000;

export const INTERRUPTED = 'Закрытие месяца прервано: сервер перезапускался. Ничего не сохранено — закройте месяц снова';
const FAILED = 'Не удалось закрыть месяц: ошибка на сервере. Ничего не сохранено — попробуйте ещё раз';

const staleBefore = (): string => new Date(Date.now() - STALE_MS).toISOString();

export function startPayrollCloses(db: Db, bus: ChangeBus, log: (error: unknown) => void = (error) => console.error('payroll close failed', error)): PayrollCloses {
  const running = new Set<Promise<void>>();
  let stopped = false;

  async function read(id: number): Promise<PayrollClose> {
    const row = await closes(db)
      .where('c.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Закрытие месяца не найдено');
    return asClose(row);
  }

  async function run(id: number, user: AuthUser, company: { id: number; name: string }, month: string, confirmed: PayrollConfirmed): Promise<void> {
    let outcome: { status: 'done' | 'failed'; error: string | null; error_status: number | null } = { status: 'done', error: null, error_status: null };
    try {
      await closeMonth(db, user, company, month, confirmed);
    } catch (error) {
      const told = error instanceof HttpError && error.statusCode < 500;
      if (!told) log(error);
      outcome = told ? { status: 'failed', error: error.detail, error_status: error.statusCode } : { status: 'failed', error: FAILED, error_status: 500 };
    }
    try {
      await db.kysely.updateTable('payroll_closes').set({ ...outcome, finished_at: nowIso() }).where('id', '=', id).execute();
    } catch (error) {
      // The close itself is committed or rolled back; the row reads as failed after STALE_MS.
      log(error);
    }
    // Every tab of the company refetches what a close changes (contract/calls/payroll.ts: the call's own areas).
    bus.publish({ path: '/payroll/close', method: 'POST', audience: { staffOf: [company.id], driversOf: [company.id], users: [] } });
  }

  return {
    async start(user, company, month, confirmed) {
      if (stopped) throw new HttpError(503, 'Сервер останавливается: закройте месяц через минуту');
      assertMonthBegun(month);
      if (await isClosed(db.kysely, company.id, month)) throw conflict(`${closedText(month)} уже`);
      const now = nowIso();
      await db.kysely
        .updateTable('payroll_closes')
        .set({ status: 'failed', finished_at: now, error: INTERRUPTED, error_status: 500 })
        .where('company_id', '=', company.id)
        .where('month', '=', month)
        .where('status', '=', 'running')
        .where('started_at', '<', staleBefore())
        .execute();
      let id: number;
      try {
        const row = await db.kysely
          .insertInto('payroll_closes')
          .values({ company_id: company.id, month, status: 'running', confirmed: JSON.stringify(confirmed), user_id: user.id, started_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = Number(row.id);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`${closedText(month).replace(/ закрыт$/, '')} уже закрывается: дождитесь конца`);
        throw error;
      }
      const job = run(id, user, company, month, confirmed);
      running.add(job);
      void job.finally(() => running.delete(job));
      return read(id);
    },

    async get(id, companyId) {
      const close = await read(id);
      if (companyId !== null && close.company_id !== companyId) throw notFound('Закрытие месяца не найдено');
      return close;
    },

    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },

    async close() {
      stopped = true;
      await this.idle();
    },
  };
}

/** The month's close under way, for GET /payroll/ (any admin's): the latest running one not left by a dead process. */
export async function runningClose(db: Db, companyId: number, month: string): Promise<PayrollClose | null> {
  const row = await closes(db)
    .where('c.company_id', '=', companyId)
    .where('c.month', '=', month)
    .where('c.status', '=', 'running')
    .where('c.started_at', '>=', staleBefore())
    .orderBy('c.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? asClose(row) : null;
}

/** The closes with their admin's name, as `asClose` reads them. */
const closes = (db: Db) =>
  db.kysely
    .selectFrom('payroll_closes as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.company_id', 'c.month', 'c.status', 'c.started_at', 'c.finished_at', 'c.error', 'c.error_status', 'u.name as user_name']);

function asClose(row: Omit<PayrollClose, 'status'> & { status: PayrollClose['status'] }): PayrollClose {
  const stale = row.status === 'running' && row.started_at < staleBefore();
  return {
    id: Number(row.id),
    company_id: row.company_id,
    month: row.month,
    status: stale ? 'failed' : row.status,
    started_at: row.started_at,
    finished_at: row.finished_at,
    user_name: row.user_name,
    error: stale ? INTERRUPTED : row.error,
    error_status: stale ? 500 : row.error_status === null ? null : Number(row.error_status),
  };
}
