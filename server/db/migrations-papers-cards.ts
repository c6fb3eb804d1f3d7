/**
 * The card fields the trip's papers need (issue 33; docs/documents.md «What is missing, and where it lives»): on the
 * vehicle's card the document it is held under when not owned (its name, number and date, the lessor's ИНН) and the
 * trailer's type, make, capacity and volume; on the driver's card his ИНН; on an exchanged document the signature
 * the operator's answer gives for it (our own Т1 draft signed by the shipper: the Т2 cites it). Nullable columns
 * only: adding them rewrites no row, on either database. Append-only, as migrations.ts.
 */
import type { Kysely, Migration } from 'kysely';

export function migration033(): Migration {
  const real = 'double precision' as const;
  return {
    async up(db: Kysely<unknown>) {
      for (const column of ['lease_doc_name', 'lease_doc_number', 'lease_doc_date', 'lessor_inn', 'trailer_type', 'trailer_make']) {
        await db.schema.alterTable('vehicles').addColumn(column, 'text').execute();
      }
      await db.schema.alterTable('vehicles').addColumn('trailer_capacity_t', real).execute();
      await db.schema.alterTable('vehicles').addColumn('trailer_volume_m3', real).execute();
      await db.schema.alterTable('users').addColumn('inn', 'text').execute();
      await db.schema.alterTable('etrn_documents').addColumn('signature', 'text').execute();
    },
  };
}
