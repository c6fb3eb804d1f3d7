/**
 * The searches on their indexes (issue 35, docs/scale.md «The searches»): staff's task search and the review
 * list's search answer exactly the rows the plain LIKE/ILIKE over every spelling answered before (the oracle
 * below is that query, run beside them) — Cyrillic in any case, 1 and 2 characters, substrings in the middle,
 * drivers' names, cargo and places; a task written, edited or deleted is found (or not) at once; on SQLite the
 * plan reads the trigram index and the company's filter index, not every task of the period.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql, type SqlBool } from 'kysely';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, makeUser, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { searchCondition, spellings } from '../../server/tasks/search.ts';
import { staffTaskQuery } from '../../server/tasks/queries.ts';
import type { Page, Task } from '../../contract/entities.ts';
import type { ReportListItem } from '../../contract/calls/reports.ts';

const TEXT = ['t.cargo', 't.loading_place', 't.unloading_place'];

/** The plain condition of before: LIKE (SQLite) or ILIKE (PostgreSQL) over every spelling and column. */
const everySpelling = (dialect: string, q: string, columns: readonly string[]) => {
  const op = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
  const parts = columns.flatMap((c) => spellings(q).map((v) => sql`${sql.ref(c)} ${op} ${`%${v.replace(/[\\%_]/g, (x) => `\\${x}`)}%`} escape '\\'`));
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
};

/** Queries whose rows must not change: case, 1–2 characters, middles, names, places, LIKE's own characters. */
const QUERIES = [
  'щебень', 'Щебень', 'ЩЕБЕНЬ', 'щЕбЕнЬ', 'щ', 'Щ', 'ще', 'ЩЕ', 'бень', 'нит', 'ранит', 'Ёлк', 'ёлкино', 'елкино', 'Е', 'ё',
  'Карьер «Ол', 'Ольховка»', 'ленина, 5', 'pgs', 'PGS MIX', 'gs', '20–40', '%', '_', '"', 'a"b', '  ', 'петров', 'Семёнов',
  'СЕМЁН', 'пётр', 'тр с', 'нет такого',
];

describe.each(backends)('searches on their indexes ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  let semenov: number;
  const tasks: number[] = [];
  const day = '2026-11-10';

  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  const get = async <T>(url: string, user: SignedInUser) => {
    const res = await s.app.inject({ method: 'GET', url: `/api${url}`, headers: user.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const taskSearch = async (q: string, extra = '') =>
    (await get<Page<Task>>(`/tasks/completed/?limit=200&search=${encodeURIComponent(q)}${extra}`, p.manager)).items.map((t) => t.id);
  const reportSearch = async (q: string) =>
    (await get<Page<ReportListItem>>(`/reports/?limit=200&date_from=2026-11-01&date_to=2026-11-30&search=${encodeURIComponent(q)}`, p.manager)).items.map((r) => r.id);

  /** What the task search answered before the index: LIKE/ILIKE over every spelling, a driver by name, a number. */
  const oldTaskSearch = async (q: string, f: { company?: number | null; status?: 'all' } = {}) => {
    const byDriver = sql<SqlBool>`t.id in (select sd.task_id from task_drivers sd where sd.driver_id in (select su.id from users su where ${everySpelling(s.db.dialect, q, ['su.name'])}))`;
    const company = f.company === undefined ? p.company : f.company;
    const rows = await s.db.kysely
      .selectFrom('tasks as t')
      .select('t.id')
      .$if(company !== null, (qb) => qb.where('t.company_id', '=', company as number))
      .$if(f.status !== 'all', (qb) => qb.where('t.status', '=', 'completed'))
      .where(sql<SqlBool>`(${everySpelling(s.db.dialect, q, TEXT)} or ${byDriver})`)
      .orderBy('t.date', 'desc')
      .orderBy('t.id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  };
  /** What the review list's search answered before: the same over the ticket, the task's texts and the driver. */
  const oldReportSearch = async (q: string, f: { company?: number | null; from?: string; to?: string } = {}) => {
    const company = f.company === undefined ? p.company : f.company;
    const rows = await s.db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .leftJoin('users as u', 'u.id', 'r.driver_id')
      .select('r.id')
      .$if(company !== null, (qb) => qb.where('t.company_id', '=', company as number))
      .where('t.date', '>=', f.from ?? '2026-11-01')
      .where('t.date', '<=', f.to ?? '2026-11-30')
      .where(everySpelling(s.db.dialect, q, ['r.ticket_number', ...TEXT, 'u.name']))
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  };

  const addReport = async (association: number, driver: number, ticket: string | null, minute: number) =>
    (
      await s.db.kysely
        .insertInto('reports')
        .values({
          association_id: association,
          driver_id: driver,
          loading_is_buyer: 0,
          unloading_is_buyer: 0,
          ticket_number: ticket,
          created_at: new Date(Date.parse('2026-11-10T08:00:00Z') + minute * 60_000).toISOString(),
          updated_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    p = await makePeople(s);
    semenov = (await makeUser(s, 'driver', p.company, { name: 'Пётр Семёнов' })).id;
    const rows = [
      { cargo: 'Щебень гранитный 20–40', loading_place: 'Карьер «Ольховка»', unloading_place: 'ул. Ленина, 5' },
      { cargo: 'щебень мелкий', loading_place: 'АБЗ «Дорстрой»', unloading_place: 'Ёлкино' },
      { cargo: 'ЩЕБЕНЬ', loading_place: 'Карьер «Гранит-М»', unloading_place: 'Елкино' },
      { cargo: 'Песок карьерный', loading_place: 'Склад 100%_готов', unloading_place: 'Объект "Север"' },
      { cargo: 'PGS mix', loading_place: 'Карьер «Лесной»', unloading_place: 'a"b' },
      { cargo: 'Глина', loading_place: 'Карьер  «Двойной»', unloading_place: 'Объект' },
    ];
    for (const [i, row] of rows.entries()) tasks.push(await createTask(s, p.company, { status: 'completed', date: `2026-11-${String(10 + i).padStart(2, '0')}`, ...row }));
    // Another company's task with the same text is never found; an open one is not in the completed list.
    await createTask(s, p.otherCompany, { status: 'completed', date: day, cargo: 'Щебень гранитный 20–40' });
    await createTask(s, p.company, { status: 'open', date: day, cargo: 'Щебень гранитный 20–40' });
    const parts = [
      await addDriver(s, tasks[0] as number, p.driver.id, { status: 'completed' }),
      await addDriver(s, tasks[3] as number, semenov, { status: 'completed' }),
      await addDriver(s, tasks[5] as number, p.driver2.id, { status: 'completed' }),
    ];
    await addReport(parts[0] as number, p.driver.id, 'Т-2040', 1);
    await addReport(parts[0] as number, p.driver.id, null, 2);
    await addReport(parts[1] as number, semenov, 'щеб-7', 3);
    await addReport(parts[2] as number, p.driver2.id, 'PGS-1', 4);
    await addReport(parts[2] as number, p.driver2.id, 'АБ 100%', 5);
  });

  it('answers exactly the rows the plain search answered, for every query of the set', async () => {
    for (const q of QUERIES) {
      const trimmed = q.trim();
      // The routes trim the query; a blank one is no search.
      if (trimmed === '') continue;
      expect({ q, rows: await taskSearch(q) }).toEqual({ q, rows: await oldTaskSearch(trimmed) });
      expect({ q, rows: await reportSearch(q) }).toEqual({ q, rows: await oldReportSearch(trimmed) });
    }
    // Sanity of the set: the data answers the cases it is there for.
    expect(await taskSearch('щебень')).toEqual([tasks[2], tasks[1], tasks[0]]);
    expect(await taskSearch('ще')).toEqual([tasks[2], tasks[1], tasks[0]]);
    expect(await taskSearch('ёлкино')).toEqual([tasks[1]]);
    expect(await taskSearch('Семёнов')).toEqual([tasks[3]]);
    // Better than before on SQLite, never worse: its index folds case letter by letter, so a query whose words are
    // cased unlike the text («карьер «ол» for «Карьер «Ольховка»») is found too; the spellings missed it there.
    // (PostgreSQL's ILIKE folds Cyrillic by the database's locale, before as now.)
    if (s.db.dialect === 'sqlite') expect(await oldTaskSearch('карьер «ол')).toEqual([]);
    else expect(await taskSearch('карьер «ол')).toEqual(await oldTaskSearch('карьер «ол'));
    if (s.db.dialect === 'sqlite') expect(await taskSearch('карьер «ол')).toEqual([tasks[0]]);
    expect(await taskSearch('рьер')).toEqual([tasks[5], tasks[4], tasks[3], tasks[2], tasks[0]]);
  });

  it('keeps the total and the pages of the list', async () => {
    const first = await get<Page<Task>>(`/tasks/completed/?limit=2&search=${encodeURIComponent('щебень')}`, p.manager);
    expect(first).toMatchObject({ total: 3, next_offset: 2 });
    const second = await get<Page<Task>>(`/tasks/completed/?limit=2&offset=2&search=${encodeURIComponent('щебень')}`, p.manager);
    expect([...first.items, ...second.items].map((t) => t.id)).toEqual([tasks[2], tasks[1], tasks[0]]);
    expect(await taskSearch('щебень', '&date_from=2026-11-11&date_to=2026-11-12')).toEqual([tasks[2], tasks[1]]);
    const reports = await get<Page<ReportListItem>>(`/reports/?limit=1&date_from=2026-11-01&date_to=2026-11-30&search=${encodeURIComponent('щеб')}`, p.manager);
    expect(reports.total).toBe((await oldReportSearch('щеб')).length);
  });

  it('finds a task written or edited at once, and no longer finds a deleted one', async () => {
    const created = await s.app.inject({
      method: 'POST',
      url: '/api/tasks/',
      headers: p.manager.auth,
      payload: { date: '2026-11-20', cargo: 'Керамзит свежий', loading_place: 'Карьер «Новый»', unloading_place: 'Объект 9', planned_quantity: 10 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as Task).id;
    const all = (q: string) => taskSearch(q, '&status=all');
    expect(await all('керамзит св')).toEqual([id]);
    const edited = await s.app.inject({ method: 'PUT', url: `/api/tasks/${id}/`, headers: p.manager.auth, payload: { cargo: 'Гравий речной' } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await all('керамзит')).toEqual([]);
    expect(await all('гравий реч')).toEqual([id]);
    expect(await all('новый')).toEqual([id]);
    const deleted = await s.app.inject({ method: 'DELETE', url: `/api/tasks/${id}/`, headers: p.manager.auth });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await all('гравий реч')).toEqual([]);
    if (s.db.dialect === 'sqlite') {
      // The index agrees with the table row for row (FTS5's own check raises an error otherwise).
      await sql`insert into tasks_search(tasks_search, rank) values ('integrity-check', 1)`.execute(s.db.kysely);
    }
  });

  it("asks PostgreSQL one ILIKE per column when its ILIKE folds Cyrillic (the database's ctype), every spelling when not", async () => {
    const ilikes = (foldsCase: boolean) => (searchCondition({ dialect: 'postgres', foldsCase }, 'Щебень', ['c']).compile(s.db.kysely).sql.match(/ ilike /g) ?? []).length;
    if (s.db.dialect === 'postgres') {
      // openDb probed this database and kept the answer on its Db (not in a module: two databases, two answers).
      const { rows } = await sql<{ folds: boolean }>`select 'ЁЖ' ilike 'ёж' as folds`.execute(s.db.kysely);
      expect(s.db.foldsCase).toBe(rows[0]?.folds === true);
    } else {
      expect(s.db.foldsCase).toBe(false);
    }
    expect(ilikes(true)).toBe(1);
    expect(ilikes(false)).toBe(3);
    expect(searchCondition({ dialect: 'sqlite', foldsCase: false }, 'Щебень', ['c']).compile(s.db.kysely).sql.match(/ like /g)).toHaveLength(3);
  });

  it('reads the trigram index and the company filter index, not every task of the period (SQLite plan)', async () => {
    if (s.db.dialect !== 'sqlite') return;
    const query = staffTaskQuery(s.db, { id: p.manager.id, role: 'manager', company_id: p.company } as never, { search: 'щебень', status: 'completed' }).select((eb) => eb.fn.countAll<number>().as('n'));
    const { sql: text, parameters } = query.compile();
    const { rows } = await s.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
    const plan = rows.map((r) => r.detail);
    expect(plan[0]).toBe('SEARCH t USING COVERING INDEX tasks_company_status_date_idx (company_id=? AND status=?)');
    // The text's ids come from the FTS5 index's MATCH (M), the drivers' from their index; nothing else is scanned.
    expect(plan.some((d) => /^SCAN tasks_search VIRTUAL TABLE INDEX \d+:M/.test(d))).toBe(true);
    expect(plan).toContain('SEARCH sd USING INDEX task_drivers_driver_idx (driver_id=?)');
    expect(plan.filter((d) => d.startsWith('SCAN ') && !d.startsWith('SCAN tasks_search') && d !== 'SCAN su')).toEqual([]);
  });

  // PostgreSQL bounds the text's tasks by the list's own filters (search.ts taskTextIds): under each filter — every
  // status, a period, a super-admin's every company or one — the rows are still exactly the plain search's. Last:
  // its rows would change the totals the tests above count.
  it("answers the plain search's rows under every filter the text is bounded by", async () => {
    // The text outside the period and in the other company, with reports, so the bounds have something to leave out.
    const october = await createTask(s, p.company, { status: 'completed', date: '2026-10-31', cargo: 'Щебень из октября' });
    const octoberPart = await addDriver(s, october, p.driver.id, { status: 'completed' });
    await addReport(octoberPart, p.driver.id, 'щеб-10', 6);
    const other = await s.db.kysely.selectFrom('tasks').select('id').where('company_id', '=', p.otherCompany).executeTakeFirstOrThrow();
    await addReport(await addDriver(s, other.id, p.otherDriver.id, { status: 'completed' }), p.otherDriver.id, 'Щ-1', 7);
    const reportsOf = async (q: string, user: SignedInUser, extra: string) =>
      (await get<Page<ReportListItem>>(`/reports/?limit=200&search=${encodeURIComponent(q)}${extra}`, user)).items.map((r) => r.id);
    for (const q of ['щебень', 'ще', 'Семёнов', 'щеб', 'рьер']) {
      expect({ q, rows: await taskSearch(q, '&status=all') }).toEqual({ q, rows: await oldTaskSearch(q, { status: 'all' }) });
      const all = await get<Page<Task>>(`/tasks/completed/?limit=200&search=${encodeURIComponent(q)}`, p.superAdmin);
      expect({ q, rows: all.items.map((t) => t.id) }).toEqual({ q, rows: await oldTaskSearch(q, { company: null }) });
      const one = await get<Page<Task>>(`/tasks/completed/?limit=200&company_id=${p.otherCompany}&search=${encodeURIComponent(q)}`, p.superAdmin);
      expect({ q, rows: one.items.map((t) => t.id) }).toEqual({ q, rows: await oldTaskSearch(q, { company: p.otherCompany }) });
      for (const [from, to] of [['2026-10-01', '2026-11-30'], ['2026-10-31', '2026-10-31'], ['2026-11-11', '2026-11-12']] as const) {
        const period = `&date_from=${from}&date_to=${to}`;
        expect({ q, from, rows: await reportsOf(q, p.manager, period) }).toEqual({ q, from, rows: await oldReportSearch(q, { from, to }) });
        expect({ q, from, rows: await reportsOf(q, p.superAdmin, period) }).toEqual({ q, from, rows: await oldReportSearch(q, { company: null, from, to }) });
      }
    }
    // Sanity: the October task is found by a period that holds it, the other company's by the super-admin.
    expect(await reportsOf('щебень', p.manager, '&date_from=2026-10-01&date_to=2026-10-31')).toHaveLength(1);
    expect(await oldTaskSearch('щебень', { company: null })).toHaveLength(5);
  });
});
