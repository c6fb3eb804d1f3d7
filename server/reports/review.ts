/**
 * The review of loads (docs/reports-review.md): the company's reports for staff, newest first and paged, with
 * filters; a reviewer's decision; «approve every clean one». A driver's correction of a disputed report puts it
 * back to pending (write.ts); an approved one is the company's word and the driver cannot change it.
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Page, Report, ReviewStatus } from '../../contract/entities.ts';
import { FLAG_CODES, INFO_FLAGS, type ReportFlag } from '../../contract/report-checks.ts';
import type { ReportListItem, ReportListQuery, ReviewPayload } from '../../contract/calls/reports.ts';
import { loadReport, parseFlags, photosOf, reportFields } from './load.ts';
import { searchCondition, taskTextIds, usersNamed } from '../tasks/search.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { assertStaffSeesCompany } from '../tasks/scope.ts';
import { recordApprovals } from '../audit/history.ts';
import { assertLoadChangeable, closedLoads, settleLateLoad, settleLateLoads } from '../payroll/late.ts';

type Q = Kysely<Database>;

/** The flags that keep a report out of «approve all clean»: all but information (late filing). */
const FAULT_CODES = FLAG_CODES.filter((code) => !INFO_FLAGS.includes(code));

/** A flag that keeps a report out of «approve all clean»: any but information (late filing). */
export const hasFault = (flags: readonly ReportFlag[]): boolean => flags.some((f) => !INFO_FLAGS.includes(f.code));

/** The company a staff caller's list covers: their own; a super-admin's choice, or all. */
function companyOf(user: AuthUser, requested: number | null | undefined): number | null {
  if (user.role === 'super-admin') return requested ?? null;
  if (user.company_id === null) throw badRequest('company_id: пользователь не привязан к компании');
  return user.company_id;
}

function baseQuery(db: Q, company: number | null) {
  return db
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .leftJoin('users as u', 'u.id', 'r.driver_id')
    .$if(company !== null, (qb) => qb.where('t.company_id', '=', company as number));
}

/**
 * The reports waiting for review (the menu's count): read from the partial index of pending reports, which the
 * literal 'pending' lets the planner use; `+t.company_id` keeps SQLite from walking the company's whole history of
 * tasks to reach them. PostgreSQL gets the plain column: it has no statistics for the expression `+company_id`, so
 * it guessed 586 of the big carrier's 155 000 tasks and walked all of them from the tasks side (1.0–1.6 s at full
 * size, against reading the 8 700 pending reports first).
 */
function pendingCount(db: Db, company: number | null) {
  const companyColumn = db.dialect === 'sqlite' ? sql`+t.company_id` : sql.ref('t.company_id');
  return db.kysely
    .selectFrom('reports as r')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sql.ref('r.review_status'), '=', sql.lit('pending'))
    .$if(company !== null, (qb) => qb.where(companyColumn, '=', company as number))
    .executeTakeFirstOrThrow();
}

export async function listReports(db: Db, user: AuthUser, q: ReportListQuery): Promise<Page<ReportListItem> & { pending: number }> {
  const company = companyOf(user, q.company_id);
  const search = q.search?.trim();
  // A flag is a substring of the stored JSON list: `"code":"duplicate_photo"` names it exactly.
  const flagLike = (code: string) => sql<boolean>`r.flags like ${`%"code":"${code}"%`}`;
  const filtered = baseQuery(db.kysely, company)
    .$if(q.date_from !== undefined, (qb) => qb.where('t.date', '>=', q.date_from as string))
    .$if(q.date_to !== undefined, (qb) => qb.where('t.date', '<=', q.date_to as string))
    .$if(q.driver_id !== undefined, (qb) => qb.where('r.driver_id', '=', q.driver_id as number))
    .$if(q.task_id !== undefined, (qb) => qb.where('t.id', '=', q.task_id as number))
    // A literal state, so the pending list can use the partial index of pending reports.
    .$call((qb) => (q.review === undefined ? qb : qb.where(sql.ref('r.review_status'), '=', sql.lit(q.review))))
    .$if(q.flag === 'none', (qb) => qb.where('r.flags', '=', '[]'))
    .$if(q.flag === 'any', (qb) => qb.where('r.flags', '<>', '[]'))
    .$if(q.flag === 'clean', (qb) => qb.where((eb) => eb.and(FAULT_CODES.map((code) => eb.not(flagLike(code))))))
    .$if(q.flag !== undefined && !['any', 'none', 'clean'].includes(q.flag), (qb) => qb.where(flagLike(q.flag as string)))
    .$if(Boolean(search), (qb) =>
      qb.where((eb) => {
        // Each part a set read once — the tasks by their text index, the drivers by name (a small table) — and a
        // report's own ticket tested on the period's reports: not five texts tested on every report of the period.
        // PostgreSQL: the tasks' set bounded by the list's company and period, and tested on `t.id` — tested on
        // `td.task_id`, the OR made it hash-join all 2.6 M reports (1.2 s at full size; 0.17 s so).
        const tasks =
          db.dialect === 'postgres'
            ? sql<SqlBool>`t.id in (${taskTextIds(db, search as string, { companyId: company, dateFrom: q.date_from, dateTo: q.date_to })})`
            : sql<SqlBool>`td.task_id in (${taskTextIds(db, search as string)})`;
        const text = eb.or([
          searchCondition(db, search as string, ['r.ticket_number']),
          sql<SqlBool>`r.driver_id in ${usersNamed(db, search as string)}`,
          tasks,
        ]);
        const number = /^№?\s*(\d{1,9})$/.exec(search as string)?.[1];
        return number ? eb.or([text, eb('t.id', '=', Number(number)), eb('r.id', '=', Number(number))]) : text;
      }),
    );
  const columns = filtered
    .select([
      'r.id',
      'r.association_id',
      'r.driver_id',
      'r.quantity',
      'r.total_loading_quantity',
      'r.total_unloading_quantity',
      'r.loading_is_buyer',
      'r.unloading_is_buyer',
      'r.completed_at',
      'r.created_at',
      'r.updated_at',
      'r.trips',
      'r.ticket_number',
      'r.final',
      'r.review_status',
      'r.review_comment',
      'r.reviewed_at',
      'r.flags',
      'u.name as driver_name',
      't.id as task_id',
      't.company_id',
      't.date',
      't.cargo',
      't.loading_place',
      't.unloading_place',
      't.unit',
      sql<number>`${sql.raw(DELIVERED_SQL)}`.as('delivered'),
    ]);
  // PostgreSQL, searched: the matches first (a subquery kept apart by `offset 0`), then sorted and cut. Planned with
  // the page's ORDER BY … LIMIT, it guessed thousands of matches and walked every report newest first to meet 50 —
  // 16–21 s at full size for a search that matches nothing (docs/scale.md «PostgreSQL reads at full size»).
  const page =
    db.dialect === 'postgres' && search
      ? db.kysely.selectFrom(columns.offset(0).as('x')).selectAll().orderBy('x.created_at', 'desc').orderBy('x.id', 'desc').limit(q.limit).offset(q.offset).execute()
      : columns.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(q.limit).offset(q.offset).execute();
  const [rows, total, pending] = await Promise.all([
    page,
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    pendingCount(db, company),
  ]);
  const [photos, closed] = await Promise.all([photosOf(db.kysely, rows.map((r) => r.id)), closedLoads(db.kysely, rows.map((r) => r.id))]);
  const items: ReportListItem[] = rows.map((r) => ({
    ...reportFields(r),
    closed: closed.has(r.id),
    driver_name: r.driver_name,
    task: { id: r.task_id, company_id: r.company_id, date: r.date, cargo: r.cargo, loading_place: r.loading_place, unloading_place: r.unloading_place, unit: r.unit },
    delivered: roundQuantity(Number(r.delivered)),
    photo_count: photos.get(r.id)?.length ?? 0,
    first_photo: photos.get(r.id)?.[0] ?? null,
  }));
  const count = Number(total.n);
  const next = q.offset + items.length;
  return { items, total: count, next_offset: items.length > 0 && next < count ? next : null, pending: Number(pending.n) };
}

const ALREADY: Record<ReviewStatus, string> = {
  approved: 'Отчёт уже подтверждён',
  disputed: 'Отчёт уже оспорен',
  pending: 'Отчёт и так ждёт проверки',
};

/** Where each decision may start from. */
const FROM: Record<ReviewPayload['action'], readonly ReviewStatus[]> = {
  approve: ['pending', 'disputed'],
  dispute: ['pending', 'approved'],
  reopen: ['approved', 'disputed'],
};
const TO: Record<ReviewPayload['action'], ReviewStatus> = { approve: 'approved', dispute: 'disputed', reopen: 'pending' };

export async function reviewReport(db: Db, user: AuthUser, reportId: number, input: ReviewPayload): Promise<Report> {
  const row = await baseQuery(db.kysely, null).select(['r.id', 'r.review_status', 't.company_id']).where('r.id', '=', reportId).executeTakeFirst();
  if (!row) throw notFound('Отчёт не найден');
  assertStaffSeesCompany(user, row.company_id, 'Отчёт не найден');
  const to = TO[input.action];
  if (row.review_status === to) throw conflict(ALREADY[to]);
  await assertLoadChangeable(db.kysely, reportId, 'Рейс нельзя перепроверить');
  if (!FROM[input.action].includes(row.review_status)) throw conflict(`Нельзя: отчёт ${row.review_status === 'approved' ? 'подтверждён' : 'оспорен'}`);
  const updated = await db.kysely
    .updateTable('reports')
    .set({
      review_status: to,
      review_comment: input.action === 'reopen' ? null : (input.comment ?? null),
      reviewed_by: user.id,
      reviewed_at: nowIso(),
    })
    .where('id', '=', reportId)
    // Two reviewers at once: the second meets the first's decision, not a silent overwrite.
    .where('review_status', '=', row.review_status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw conflict('Отчёт только что проверил кто-то другой: обновите список');
  await settleLateLoad(db.kysely, reportId);
  return loadReport(db.kysely, reportId);
}

/** Approves every pending report without a fault flag whose task date is in the range; answers how many. */
export async function approveClean(
  db: Db,
  user: AuthUser,
  input: { date_from: string; date_to: string; driver_id?: number | null | undefined; company_id?: number | null | undefined },
): Promise<{ approved: number }> {
  const company = companyOf(user, input.company_id);
  return db.kysely.transaction().execute(async (trx) => {
    const candidates = await baseQuery(trx, company)
      .select(['r.id', 'r.flags'])
      .where('r.review_status', '=', 'pending')
      .where('t.date', '>=', input.date_from)
      .where('t.date', '<=', input.date_to)
      .$if(input.driver_id != null, (qb) => qb.where('r.driver_id', '=', input.driver_id as number))
      .execute();
    const clean = candidates.filter((c) => !hasFault(parseFlags(c.flags))).map((c) => c.id);
    const done: number[] = [];
    const now = nowIso();
    // In chunks: a month's worth of ids stays under every database's parameter limit.
    for (let i = 0; i < clean.length; i += 500) {
      const chunk = clean.slice(i, i + 500);
      const result = await trx
        .updateTable('reports')
        .set({ review_status: 'approved', review_comment: null, reviewed_by: user.id, reviewed_at: now })
        .where('id', 'in', chunk)
        .where('review_status', '=', 'pending')
        .returning('id')
        .execute();
      done.push(...result.map((r) => r.id));
    }
    // A pending load of a closed month is never in its sheet: approved, it is paid in the open month (late.ts).
    await settleLateLoads(trx, done);
    return done;
  }).then(async (done) => {
    await recordApprovals(db, done, user);
    return { approved: done.length };
  });
}
