/**
 * Substring search that behaves the same on SQLite and PostgreSQL. Neither folds Cyrillic case reliably
 * (SQLite's LIKE folds ASCII only; PostgreSQL's depends on the database locale, often C), so we try the
 * spellings a Russian user actually meets: as typed, lower, upper and capitalised.
 *
 * A task's free text (cargo, places) has an index (migration 032, docs/scale.md «The searches»): SQLite's FTS5
 * trigram table `tasks_search` for 3+ characters — it folds case by Unicode, so it finds every spelling above and
 * also mixed ones («щЕбень») — and pg_trgm's GIN index, which PostgreSQL's `ILIKE` over the spellings uses. A
 * search of 1–2 characters reads the rows as before.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/migrations.ts';

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What a search needs of its database: the dialect, and whether its case-insensitive match folds Cyrillic —
 * PostgreSQL's `ILIKE` does under a ctype of C.UTF-8 or ru_RU.UTF-8, not under C (probed by openDb, kept on the `Db`,
 * so two databases in one process each keep their own). When it does, every spelling below is the same `ILIKE` and
 * one is enough: nine ILIKEs over three columns made PostgreSQL guess 163 000 of 281 000 tasks for «щебень» (it
 * matches 70 000) and read the table row by row (5.8 s at full size) instead of the trigram index (0.3 s).
 */
export interface SearchDb {
  dialect: Dialect;
  foldsCase: boolean;
}

export function spellings(query: string): string[] {
  const lower = query.toLocaleLowerCase('ru');
  const capitalised = lower.charAt(0).toLocaleUpperCase('ru') + lower.slice(1);
  return [...new Set([query, lower, query.toLocaleUpperCase('ru'), capitalised])];
}

/** `(col1 LIKE %q% OR col2 LIKE %q% ...)` over every spelling. */
export function searchCondition(db: SearchDb, query: string, columns: readonly string[]): RawBuilder<SqlBool> {
  const op = db.dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
  const variants = db.dialect === 'postgres' && db.foldsCase ? [query] : spellings(query);
  const parts = columns.flatMap((column) =>
    variants.map((v) => sql`${sql.ref(column)} ${op} ${`%${escapeLike(v)}%`} escape '\\'`),
  );
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** SQLite's trigram index answers a substring of at least this many characters. */
const TRIGRAM = 3;

/** The task text columns the search and its index cover, under the task table's alias. */
const taskTextColumns = (alias: string) => [`${alias}.cargo`, `${alias}.loading_place`, `${alias}.unloading_place`];

/** What the caller's list is bounded by anyway: its company, task status and dates (each optional). */
export interface TaskBounds {
  companyId?: number | null | undefined;
  status?: string | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/**
 * The ids of the tasks with `query` in their cargo or a place: from the trigram index (SQLite, 3+ characters; the
 * query as one FTS5 phrase, so a substring match), else the LIKE/ILIKE spellings (PostgreSQL's by its GIN index).
 *
 * On PostgreSQL the ids are also bounded by what the caller's list is bounded by (`within`): the text alone matches
 * every company's whole history (70 000 tasks for «щебень» at full size), which the caller then hashed or merged
 * against its own few thousand; bounded, the set is the list's own (docs/scale.md «PostgreSQL reads at full size»).
 * The same tasks pass the caller's filters either way. SQLite's FTS5 query stays as it was (its goals are met).
 */
export function taskTextIds(db: SearchDb, query: string, within: TaskBounds = {}): RawBuilder<unknown> {
  if (db.dialect === 'sqlite' && [...query].length >= TRIGRAM) {
    return sql`select rowid from tasks_search where tasks_search match ${`"${query.replaceAll('"', '""')}"`}`;
  }
  const bounds =
    db.dialect === 'postgres'
      ? [
          ...(within.companyId != null ? [sql`st.company_id = ${within.companyId}`] : []),
          ...(within.status !== undefined ? [sql`st.status = ${within.status}`] : []),
          ...(within.dateFrom !== undefined ? [sql`st.date >= ${within.dateFrom}`] : []),
          ...(within.dateTo !== undefined ? [sql`st.date <= ${within.dateTo}`] : []),
        ]
      : [];
  return sql`select st.id from tasks st where ${sql.join([...bounds, searchCondition(db, query, taskTextColumns('st'))], sql` and `)}`;
}

/**
 * The tasks that name a counterparty (customer, shipper or consignee) whose short or full name has `query`: the
 * company's counterparties first (a small set), then each link by its own index. The register's «Задачи» link searches a
 * card's name, so a counterparty finds its tasks though no task text holds its name.
 */
export function counterpartyTaskIds(db: SearchDb, query: string, companyId: number | null): RawBuilder<unknown> {
  const named = namedCounterparties(db, query, companyId);
  // PostgreSQL: `= any(array(…))`, the cards read once and each link by its index. As `in (…)`, a table of cards
  // without statistics (none yet, or never analyzed) let the planner guess every task for each link, and it then read
  // all the company's tasks to meet the union (search by a driver's name at full size: 580 → 250 ms).
  const links = (['customer_id', 'shipper_id', 'consignee_id'] as const).map((column) =>
    db.dialect === 'postgres'
      ? sql`select ct.id from tasks ct where ${sql.ref(`ct.${column}`)} = any(array${named})`
      : sql`select ct.id from tasks ct where ${sql.ref(`ct.${column}`)} in ${named}`,
  );
  return sql.join(links, sql` union `);
}

/** The counterparties whose short or full name has `query`: the caller's company's cards by their (company_id, name) index; all companies' only for a super-admin's list. */
function namedCounterparties(db: SearchDb, query: string, companyId: number | null): RawBuilder<unknown> {
  const company = companyId === null ? sql`` : sql`sc.company_id = ${companyId} and `;
  return sql`(select sc.id from counterparties sc where ${company}(${searchCondition(db, query, ['sc.name', 'sc.full_name'])}))`;
}

/** A search that is a task's number («123», «№123»): the number, else undefined. */
export const searchedNumber = (query: string): number | undefined => {
  const digits = /^№?\s*(\d{1,9})$/.exec(query.trim())?.[1];
  return digits === undefined ? undefined : Number(digits);
};

/**
 * PostgreSQL: the staff search's parts as conditions on the task `t` itself, each served by its own index — its text
 * (the trigram index), a driver on it by name, each counterparty link by name, its number — for a list that unions
 * the parts, each under the list's own filters (tasks/queries.ts `searchedList`).
 */
export function taskSearchConditions(db: SearchDb, query: string, companyId: number | null): RawBuilder<SqlBool>[] {
  const named = namedCounterparties(db, query, companyId);
  const number = searchedNumber(query);
  return [
    searchCondition(db, query, taskTextColumns('t')),
    sql<SqlBool>`t.id in (select sd.task_id from task_drivers sd where sd.driver_id in ${usersNamed(db, query)})`,
    ...(['customer_id', 'shipper_id', 'consignee_id'] as const).map((column) => sql<SqlBool>`${sql.ref(`t.${column}`)} = any(array${named})`),
    ...(number === undefined ? [] : [sql<SqlBool>`t.id = ${number}`]),
  ];
}

/** The users whose name has `query`, as a subquery of ids (the users table is small: read first, then indexes). */
export function usersNamed(db: SearchDb, query: string): RawBuilder<unknown> {
  return sql`(select su.id from users su where ${searchCondition(db, query, ['su.name'])})`;
}
