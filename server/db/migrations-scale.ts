/**
 * A carrier's years of history (issue 35): the indexes the hot calls need so their cost stays flat as history
 * grows. Append-only, as migrations.ts.
 * - `reports.ticket_key`: the ticket number as the duplicate-ticket check compares it (trimmed, upper case —
 *   Cyrillic too, which SQLite's upper() leaves alone), written with the ticket; indexed with the time, so the
 *   check reads the few reports with that key in its window instead of the company's whole window.
 * - the photo hash's four 16-bit bands, each an expression index with the photo's time (reports/phash.ts): the
 *   duplicate-photo check probes the bands instead of comparing every photo of the window in JavaScript.
 * - the reports waiting for review (a partial index): the review queue's count reads those, not the history.
 * - a driver's reports by completion time: the fast-cycle check's previous trip is one index step.
 * - a driver's stored payroll lines by month: their closed months read their own lines.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';
import { bandSql, PHASH_BANDS } from '../reports/phash.ts';
import { ticketKey } from '../reports/ticket.ts';

/** Writes the ticket key of every report that has a ticket but no key (the migration's backfill). */
export async function backfillTicketKeys(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // ASCII tickets the database normalises as JavaScript does; the rest (Cyrillic, tabs) are normalised here.
  await sql`update reports set ticket_key = upper(trim(ticket_number)) where ticket_number is not null and ticket_key is null`.execute(db);
  const other = dialect === 'postgres' ? sql`ticket_number ~ '[^ -~]'` : sql`ticket_number glob '*[^ -~]*'`;
  // Page by id: years of tickets are not read at once; only a key the database got wrong is rewritten.
  for (let after = 0; ; ) {
    const page = await sql<{ id: number; ticket_number: string; ticket_key: string | null }>`select id, ticket_number, ticket_key from reports where id > ${after} and ticket_number is not null and ${other} order by id limit 5000`.execute(db);
    for (const r of page.rows) {
      const key = ticketKey(r.ticket_number);
      if (key !== r.ticket_key) await sql`update reports set ticket_key = ${key} where id = ${r.id}`.execute(db);
    }
    if (page.rows.length < 5000) break;
    after = (page.rows.at(-1) as { id: number }).id;
  }
}

export function migration010(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('reports').addColumn('ticket_key', 'text').execute();
      await backfillTicketKeys(db, dialect);
      await db.schema.dropIndex('reports_ticket_idx').execute();
      await db.schema.createIndex('reports_ticket_key_idx').on('reports').columns(['ticket_key', 'created_at']).execute();

      for (let i = 0; i < PHASH_BANDS; i++) {
        await db.schema.createIndex(`report_photos_band${i}_idx`).on('report_photos').expression(sql.raw(`${bandSql(i)}, created_at`)).execute();
      }
      await db.schema.createIndex('reports_pending_idx').on('reports').column('association_id').where(sql<boolean>`review_status = 'pending'`).execute();
      await db.schema.createIndex('reports_driver_completed_idx').on('reports').columns(['driver_id', 'completed_at']).execute();
      await db.schema.createIndex('payroll_lines_driver_idx').on('payroll_lines').columns(['driver_id', 'month']).execute();
    },
  };
}
