/**
 * Substring search that behaves the same on SQLite and PostgreSQL. Neither folds Cyrillic case reliably
 * (SQLite's LIKE folds ASCII only; PostgreSQL's depends on the database locale, often C), so we try the
 * spellings a Russian user actually meets: as typed, lower, upper and capitalised.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from '../db/migrations.ts';

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function spellings(query: string): string[] {
  const lower = query.toLocaleLowerCase('ru');
  const capitalised = lower.charAt(0).toLocaleUpperCase('ru') + lower.slice(1);
  return [...new Set([query, lower, query.toLocaleUpperCase('ru'), capitalised])];
}

/** `(col1 LIKE %q% OR col2 LIKE %q% ...)` over every spelling. */
export function searchCondition(dialect: Dialect, query: string, columns: readonly string[]): RawBuilder<SqlBool> {
  const op = dialect === 'postgres' ? sql.raw('ilike') : sql.raw('like');
  const parts = columns.flatMap((column) =>
    spellings(query).map((v) => sql`${sql.ref(column)} ${op} ${`%${escapeLike(v)}%`} escape '\\'`),
  );
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
