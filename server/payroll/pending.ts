/**
 * The loads still waiting for review that a payroll month would pay (its pending figures and first page): the
 * month's own, and in the company's current open month the late loads of closed months (payroll/late.ts), counted
 * and summed in SQL and read as rows only as far as the page (issue 35, docs/scale.md).
 */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Dialect } from '../db/migrations.ts';
import { monthRange } from '../../contract/money.ts';
import { giveWay, quantitySql } from '../wages/open-month.ts';
import { selectLoads, type LoadRow } from '../wages/pay.ts';
import { DELIVERED_SQL, roundQuantity } from '../tasks/progress.ts';
import { currentOpenMonth, isClosed } from './months.ts';

type Q = Kysely<Database>;

/** The loads waiting that a month would pay: how many, their delivered volume, the first `items` of them in order. */
interface Pending {
  loads: number;
  quantity: number;
  items: LoadRow[];
}

/**
 * The loads still waiting for review that the month would pay: its own, and in the company's current open month
 * also the late loads of closed months (payroll/late.ts: approved, they are paid here), those first. The month's own
 * are counted and summed in SQL, read as rows only as far as `items` needs (a 200-truck carrier's running month
 * has thousands waiting; issue 35).
 */
export async function pendingLoads(db: Q, dialect: Dialect, companyId: number, month: string, items: number, run = LATE_RUN): Promise<Pending> {
  const { start, end } = monthRange(month);
  const earlier = await lateWaiting(db, dialect, companyId, month, start, items, run);
  const limit = items - earlier.items.length;
  const [own, first] = await Promise.all([
    monthUnapproved(db, dialect, companyId, start, end)
      .select([sql<number>`count(*)`.as('loads'), sql<number | null>`sum(${quantitySql(dialect, sql<number>`${sql.raw(DELIVERED_SQL)}`)})`.as('quantity')])
      .executeTakeFirstOrThrow(),
    limit <= 0
      ? []
      : dialect === 'postgres'
        ? monthUnapproved(db, dialect, companyId, start, end)
            .select('r.id')
            .orderBy('t.date')
            .orderBy('r.id')
            .limit(limit)
            .execute()
            .then((ids) => (ids.length ? selectLoads(db, { reportIds: ids.map((r) => r.id), review: 'unapproved' }) : []))
        : selectLoads(db, { companyId, start_date: start, end_date: end, review: 'unapproved', limit }),
  ]);
  return {
    loads: earlier.loads + Number(own.loads),
    quantity: roundQuantity(earlier.quantity + Number(own.quantity ?? 0)),
    items: [...earlier.items, ...first].slice(0, items),
  };
}

/**
 * The company's month's reports not approved, joined to their parts `td` and tasks `t`. The literal condition is the
 * unapproved reports' partial index's own (migration 029). On PostgreSQL the reports are a LATERAL subquery (kept
 * apart by `offset 0`), so each of the month's parts probes that index: as a plain join, PostgreSQL merged the
 * month's parts with every unapproved report of the company's history, reading each one's row (a closed month at
 * full size: 270–310 ms for 209 loads, against 45–60 ms so; docs/scale.md «PostgreSQL reads at full size»). SQLite
 * has no LATERAL and its plan already starts from the month's tasks: its SQL is unchanged.
 */
function monthUnapproved(db: Q, dialect: Dialect, companyId: number, start: string, end: string) {
  const month = db.selectFrom('tasks as t').innerJoin('task_drivers as td', 'td.task_id', 't.id');
  const joined =
    dialect === 'postgres'
      ? month.innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('reports as r')
              .select(['r.id', 'r.quantity', 'r.total_unloading_quantity'])
              .whereRef('r.association_id', '=', 'td.id')
              .where(sql<SqlBool>`r.review_status <> 'approved'`)
              .offset(0)
              .as('r'),
          (join) => join.onTrue(),
        )
      : month.innerJoin('reports as r', 'r.association_id', 'td.id').where(sql<SqlBool>`r.review_status <> 'approved'`);
  return joined.where('t.company_id', '=', companyId).where('t.date', '>=', start).where('t.date', '<=', end);
}

/**
 * The late loads of closed months still waiting, when `month` is the company's current open month (else none): their
 * count and volume summed in SQL, and the first `items` of them (by date, then report) as rows. A carrier's years
 * can leave thousands waiting in closed months (7 510 in the 3-year seed, 16 541 of all companies): reading them all
 * as rows for a page of 200 was most of the open month's `GET /payroll/` and of the close at full size, and one
 * statement over them all held the event loop 50–100 ms. So they are read in runs of report ids (`LATE_RUN`), each a
 * short statement with turns between (`giveWay`), the runs' first rows merged into the page (docs/scale.md).
 */
async function lateWaiting(db: Q, dialect: Dialect, companyId: number, month: string, start: string, items: number, runLength: number): Promise<{ loads: number; quantity: number; items: LoadRow[] }> {
  const none = { loads: 0, quantity: 0, items: [] };
  if ((await isClosed(db, companyId, month)) || month !== (await currentOpenMonth(db, companyId))) return none;
  const span = await db
    .selectFrom('reports as r')
    .select([sql<number | null>`min(r.id)`.as('first'), sql<number | null>`max(r.id)`.as('last')])
    .where(sql<SqlBool>`r.review_status <> 'approved'`)
    .executeTakeFirstOrThrow();
  if (span.first === null || span.last === null) return none;
  let loads = 0;
  let quantity = 0;
  const firsts: { id: number; date: string }[] = [];
  // PostgreSQL runs a statement in its own process, not in the event loop: one run there (each run re-reads the
  // partial index's rows from the heap for their ids: 11 runs cost ~1 s at full size against ~100 ms for one).
  const step = dialect === 'postgres' ? Number(span.last) - Number(span.first) + 1 : runLength;
  for (let from = Number(span.first); from <= Number(span.last); from += step) {
    // A load's month is closed: the month's row, by its (company_id, month) key.
    // `+r.id`: the run filters the unapproved reports' partial index (16 541 entries), not the reports by id (a
    // range of 250 000 rows each read for its review state: 36 ms a run instead of 3–9 at full size).
    const waiting = unapprovedBefore(db, companyId, start)
      .$if(dialect === 'sqlite', (qb) => qb.where(sql<SqlBool>`+r.id >= ${from} and +r.id < ${from + step}`))
      .where(sql<SqlBool>`exists (select 1 from payroll_months pm where pm.company_id = t.company_id and pm.month = substr(t.date, 1, 7) and pm.status = 'closed')`);
    await giveWay(dialect);
    const run = await waiting
      .clearSelect()
      .select([sql<number>`count(*)`.as('loads'), sql<number | null>`sum(${quantitySql(dialect, sql<number>`${sql.raw(DELIVERED_SQL)}`)})`.as('quantity')])
      .executeTakeFirstOrThrow();
    loads += Number(run.loads);
    quantity += Number(run.quantity ?? 0);
    if (items > 0 && Number(run.loads) > 0) {
      await giveWay(dialect);
      firsts.push(...(await waiting.select('t.date').orderBy('t.date').orderBy('r.id').limit(items).execute()));
    }
  }
  const page = firsts.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id)).slice(0, items);
  // The page by its ids only (already the company's): with the company's filter too, SQLite would walk its every task.
  const rows = page.length ? await selectLoads(db, { reportIds: page.map((r) => r.id), review: 'unapproved' }) : [];
  return { loads, quantity, items: rows };
}

/** Report ids a run of `lateWaiting` covers: ~2 400 waiting reports of all companies in the 3-year seed, ~10 ms a run. */
const LATE_RUN = 250_000;

/**
 * The company's reports not approved dated before `start`: read from the unapproved reports' partial index (the
 * literal condition is its own, migration 029) outward to their parts and tasks, so the cost is the few waiting,
 * not the years of history before the month.
 */
export const unapprovedBefore = (db: Q, companyId: number, start: string) =>
  db
    .selectFrom('reports as r')
    .crossJoin('task_drivers as td')
    .crossJoin('tasks as t')
    .select('r.id')
    .whereRef('td.id', '=', 'r.association_id')
    .whereRef('t.id', '=', 'td.task_id')
    .where(sql<boolean>`r.review_status <> 'approved'`)
    .where('t.company_id', '=', companyId)
    .where('t.date', '<', start);
