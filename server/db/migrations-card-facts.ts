/**
 * Migration 051: the card facts the waybill's titles still lacked (issue 33; docs/documents.md «What is missing, and
 * where it lives»): the trailer's own ownership and, when not owned, its document and lessor's ИНН (on the vehicle's
 * card, where the trailer is held); the driver's licence series apart from its number (the format's `СерВУ` and
 * `НомВУ`); the cargo's state, packaging and kind of package per task (`СостГруз`, `СпУпак`, `ВидТар`; null: bulk).
 * Nullable columns only, so adding them rewrites no row of the big tables (tasks, vehicles); the one update splits
 * the licences stored whole («77 12 345678») on the users table, which holds people, not trips.
 * Append-only, as migrations.ts.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export function migration051(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('vehicles').addColumn('trailer_ownership', 'text').execute();
      for (const column of ['trailer_lease_doc_name', 'trailer_lease_doc_number', 'trailer_lease_doc_date', 'trailer_lessor_inn']) {
        await db.schema.alterTable('vehicles').addColumn(column, 'text').execute();
      }
      await db.schema.alterTable('users').addColumn('license_series', 'text').execute();
      await splitStoredLicences(db);
      for (const column of ['cargo_state', 'cargo_packaging', 'cargo_package_code']) {
        await db.schema.alterTable('tasks').addColumn(column, 'text').execute();
      }
    },
  };
}

/** The card stored «77 12 345678» (contract/payloads.ts before 051): its first five characters are the series. */
export async function splitStoredLicences(db: Kysely<unknown>): Promise<void> {
  await sql`update users set license_series = substr(license_number, 1, 5), license_number = substr(license_number, 7)
    where license_series is null and license_number is not null and length(license_number) = 12
      and substr(license_number, 3, 1) = ' ' and substr(license_number, 6, 1) = ' '`.execute(db);
}
