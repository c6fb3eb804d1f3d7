/**
 * A company's statistics hold no long turn of the event loop (issue 35: no call delays another by more than
 * 100 ms). On SQLite a statement runs to its end inside one turn, and the driver turns the loop before each
 * statement outside a transaction (server/db/sqlite-driver.ts), so what bounds a turn is the work of one statement:
 * here every statement of a period's statistics is recorded, and each one that sums the approved loads reads at
 * most SLICE_DAYS days of them — an open month, a closed month the period cuts, the loss loads of a whole closed
 * month — and the unapproved loads are counted a month at a time. (PostgreSQL runs a statement outside the event
 * loop: there a month a statement, one plan reading its assignments once.) The figures themselves are the other
 * suites' (statistics-summary, money-properties, reconciliation). Which statements were long needs no clock: their
 * date bounds say it (before this, an open month was one statement over the whole month, a cut closed month thirds
 * of ten days, the unapproved loads one statement over the whole period).
 */
import { closeAndWait } from '../fixtures/payroll-close.ts';
import { createQueryId, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryId, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makeCompany, makeUser, withAccessToken } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { companyStatistics } from '../../server/wages/statistics.ts';
import { SLICE_DAYS } from '../../server/wages/open-month.ts';
import { confirmedOf, type PayrollMonth } from '../../contract/money.ts';

/**
 * Records the queries a Kysely instance runs. A builder passes its node through the plugins whenever it becomes a
 * node (a subquery too), so a node is kept only when a result comes back under its query id: a statement run.
 */
class Recorder implements KyselyPlugin {
  readonly #nodes = new Map<QueryId, RootOperationNode>();
  readonly run: RootOperationNode[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.#nodes.set(args.queryId, args.node);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.#nodes.get(args.queryId);
    if (node) this.run.push(node);
    return args.result;
  }
}

const days = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

/** The value bound at the placeholder that follows `column op` in the SQL (SQLite `?`, PostgreSQL `$n`). */
function bound(sqlText: string, parameters: readonly unknown[], column: string, op: '>=' | '<='): string | undefined {
  const at = sqlText.indexOf(`${column} ${op} `);
  if (at < 0) return undefined;
  const after = sqlText.slice(at + column.length + op.length + 2);
  const pg = /^\$(\d+)/.exec(after);
  const index = pg ? Number(pg[1]) - 1 : (sqlText.slice(0, at).match(/\?/g) ?? []).length;
  return parameters[index] as string;
}

describe.each(backends)('statistics in short statements ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  it('on SQLite each statement that sums the loads reads at most SLICE_DAYS days of them, the unapproved loads a month', async () => {
    const companyId = await makeCompany(s);
    const admin = await withAccessToken(s, await makeUser(s, 'admin', companyId));
    const drivers = [(await makeUser(s, 'driver', companyId)).id, (await makeUser(s, 'driver', companyId)).id];
    // Loads on every day of July (closed below) and August (open), some priced at a loss, some not approved.
    for (const month of ['2026-07', '2026-08']) {
      for (let day = 1; day <= 31; day++) {
        const task = await createTask(s, companyId, { date: `${month}-${String(day).padStart(2, '0')}`, rate: day % 4 === 0 ? 100 : 600 });
        const part = await addDriver(s, task, drivers[day % 2] as number, { transport_rate: 450 });
        await addLoad(s, part, 10 + day / 8, { review: day % 5 === 0 ? 'pending' : 'approved' });
      }
    }
    const send = (method: 'GET' | 'POST', url: string, payload?: object) => s.app.inject({ method, url: `/api${url}`, headers: admin.auth, ...(payload ? { payload } : {}) });
    const july = (await send('GET', `/payroll/?month=2026-07&company_id=${companyId}`)).json() as PayrollMonth;
    expect((await closeAndWait(s.app, admin.auth, { company_id: companyId, month: '2026-07', confirmed: confirmedOf(july) })).statusCode).toBe(200);

    // A period cutting closed July, the whole open August; «Всё время» (July whole: its loss loads from its lines).
    for (const period of [{ start_date: '2026-07-05', end_date: '2026-08-31' }, {}]) {
      const recorder = new Recorder();
      const kysely = s.db.kysely.withPlugin(recorder);
      const figures = await companyStatistics({ ...s.db, kysely }, companyId, period);
      expect(figures.loads).toBeGreaterThan(40);
      expect(figures.losses.count).toBeGreaterThan(0);
      expect(figures.pending.loads).toBeGreaterThan(0);
      const spans: { what: string; days: number }[] = [];
      for (const node of recorder.run) {
        const { sql: text, parameters } = s.db.kysely.getExecutor().compileQuery(node, createQueryId());
        // Statements over the loads (their reports or stored lines), but those that read a list of ids given.
        if (!/"(reports|payroll_lines)"/.test(text) || /"(id|task_id|report_id|association_id)" in \(/.test(text)) continue;
        const from = bound(text, parameters, '"t"."date"', '>=');
        const to = bound(text, parameters, '"t"."date"', '<=');
        const what = /review_status" <> /.test(text) ? 'unapproved' : 'approved';
        spans.push({ what, days: from && to ? days(from, to) : Infinity });
      }
      const sqlite = databaseUrl === undefined;
      expect(spans.filter((x) => x.what === 'approved').length).toBeGreaterThan(sqlite ? 10 : 1);
      for (const x of spans) expect(x.days, `${x.what} loads summed over ${x.days} days`).toBeLessThanOrEqual(sqlite && x.what === 'approved' ? SLICE_DAYS : 62);
    }
  });
});
