/** GET /tasks/suggestions (contract/calls/tasks.ts): the company's earlier values of a task field, most used first. */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import type { suggestionsQuerySchema } from '../../contract/calls/tasks.ts';
import { staffCompany } from '../tasks/scope.ts';

const LIMIT = 8;
const MAX_DISTINCT = 2_000;

export async function suggestions(db: Db, user: AuthUser, query: z.output<typeof suggestionsQuerySchema>): Promise<string[]> {
  const company = await staffCompany(db, user, query.company_id);
  const column = sql.ref(`t.${query.field}`);
  // SQLite's lower() knows only ASCII: the company's distinct values are few (hundreds), so they are matched here,
  // case- and ё-insensitive, as the console's search is (ui/search-text.ts).
  const rows = await db.kysely
    .selectFrom('tasks as t')
    .select([sql<string>`${column}`.as('value'), sql<number>`count(*)`.as('uses'), sql<string>`max(t.date)`.as('last')])
    .where('t.company_id', '=', company.id)
    .groupBy(column)
    .orderBy('uses', 'desc')
    .orderBy('last', 'desc')
    .limit(MAX_DISTINCT)
    .execute();
  const norm = (text: string) => text.toLocaleLowerCase('ru').replace(/ё/g, 'е');
  const q = norm(query.q.trim());
  return rows
    .filter((r) => q === '' || norm(r.value).includes(q))
    .slice(0, LIMIT)
    .map((r) => r.value);
}
