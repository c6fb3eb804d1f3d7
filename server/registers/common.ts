/** What the three registers share: whose card it is, the company a new card joins, archiving a used card. */
import type { Db } from '../db/connect.ts';
import type { AuthUser } from '../auth/guard.ts';
import { staffCompany, assertStaffSeesCompany } from '../tasks/scope.ts';
import type { RegisterRemoval } from '../../contract/registers.ts';
import { nowIso } from '../db/connect.ts';
import { notFound } from '../errors.ts';
import { toPage } from '../tasks/load.ts';
import type { Page } from '../../contract/entities.ts';
import { sql, type SelectQueryBuilder } from 'kysely';

export type RegisterTable = 'counterparties' | 'places' | 'vehicles';

/** The card's company, when the caller may see it; otherwise 404 with `missing` («Контрагент не найден»). */
export async function cardCompany(db: Db, user: AuthUser, table: RegisterTable, id: number, missing: string): Promise<number> {
  const row = await db.kysely.selectFrom(table).select('company_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(missing);
  assertStaffSeesCompany(user, row.company_id, missing);
  return row.company_id;
}

/** The company a list or a new card is about: the caller's own; a super-admin names it (`?company_id=`). */
export async function listCompany(db: Db, user: AuthUser, asked: number | undefined): Promise<number> {
  return (await staffCompany(db, user, asked)).id;
}

/** A used card is archived (it stays on what uses it), an unused one erased; the answer says which. */
export async function removeOrArchive(
  db: Db,
  table: 'counterparties' | 'places',
  id: number,
  companyId: number,
  used: boolean,
  words: { archived: string; deleted: string },
): Promise<RegisterRemoval> {
  if (used) {
    const now = nowIso();
    await db.kysely
      .updateTable(table)
      .set({ archived_at: now, updated_at: now })
      .where('id', '=', id)
      .where('archived_at', 'is', null)
      .execute();
    return { id, company_id: companyId, outcome: 'archived', detail: words.archived };
  }
  await db.kysely.deleteFrom(table).where('id', '=', id).execute();
  return { id, company_id: companyId, outcome: 'deleted', detail: words.deleted };
}

/** What a card of a register with an archive answers besides its own fields: archived when, used by how many tasks, its times. */
export function cardStamps(row: { archived_at: string | null; task_count: number | string; created_at: string; updated_at: string }) {
  return { archived_at: row.archived_at, task_count: Number(row.task_count), created_at: row.created_at, updated_at: row.updated_at };
}

/** A list's `archived` flag as the test of `archived_at`: `1` the archive only, else the cards in use. */
export const archivedOp = (archived: '0' | '1' | undefined) => (archived === '1' ? 'is not' : 'is');

/** An archived card back in use (one in use stays as it is). */
export async function unarchive(db: Db['kysely'], table: 'counterparties' | 'places', id: number): Promise<void> {
  await db.updateTable(table).set({ archived_at: null, updated_at: nowIso() }).where('id', '=', id).where('archived_at', 'is not', null).execute();
}

/**
 * One page of a register's list: `counted` is the filtered query without its columns (it is counted), `ordered` the
 * same with them, in the list's order.
 */
export async function pageOf<DB, TB extends keyof DB, Row, T>(
  counted: SelectQueryBuilder<DB, TB, object>,
  ordered: SelectQueryBuilder<DB, TB, Row>,
  page: { limit: number; offset: number },
  wire: (row: Row) => T,
): Promise<Page<T>> {
  const [total, rows] = await Promise.all([
    counted.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow() as Promise<{ n: number | string }>,
    ordered.limit(page.limit).offset(page.offset).execute(),
  ]);
  return toPage(rows.map(wire), Number(total.n), page.offset);
}
