/**
 * The registers (issue 31; docs/registers.md): counterparties, places and the fleet as tables; the carrier's
 * requisites on its company; a driver's licence and current fleet vehicle; a task's customer, shipper, consignee
 * and places as links. Existing data moves in, nothing lost: each distinct loading or unloading text of a company
 * becomes one place (texts of the same normalised name, one place) linked to its tasks, whose texts stay as they
 * were; each company's per-driver vehicles become its fleet (one vehicle per plate), a driver's current one his
 * vehicle. Append-only, as migrations.ts: the normalising rules are copied here, so later changes to them do not
 * change what this migration did.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { Dialect } from './dialect.ts';
import { parsePlate } from '../../contract/plates.ts';

/** contract/registers.ts placeKey as of this migration. */
function placeKey(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[«»„“”"']/g, '"')
    .replace(/[‐‑‒–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

interface Untyped {
  [table: string]: Record<string, unknown>;
}

export function migration010(dialect: Dialect): Migration {
  const id = (c: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
  const real = 'double precision' as const;
  return {
    async up(untyped: Kysely<unknown>) {
      const db = untyped as unknown as Kysely<Untyped>;
      for (const column of ['full_name', 'inn', 'kpp', 'ogrn', 'address', 'phone']) {
        await db.schema.alterTable('companies').addColumn(column, 'text').execute();
      }

      await db.schema
        .createTable('counterparties')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('legal_form', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('full_name', 'text')
        .addColumn('inn', 'text')
        .addColumn('kpp', 'text')
        .addColumn('ogrn', 'text')
        // A JSON list of 'customer' | 'shipper' | 'consignee'.
        .addColumn('roles', 'text', (c) => c.notNull())
        .addColumn('address', 'text')
        .addColumn('contact_name', 'text')
        .addColumn('phone', 'text')
        .addColumn('edo_id', 'text')
        .addColumn('note', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One card per ИНН + КПП in a company (an entrepreneur's or a person's КПП is none: '' in the key).
      await sql`create unique index counterparties_inn_key on counterparties (company_id, inn, coalesce(kpp, '')) where inn is not null`.execute(db);
      await db.schema.createIndex('counterparties_company_idx').on('counterparties').columns(['company_id', 'name']).execute();

      await db.schema
        .createTable('places')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('address', 'text')
        .addColumn('lat', real)
        .addColumn('lon', real)
        .addColumn('radius_m', 'integer', (c) => c.notNull().defaultTo(150))
        .addColumn('counterparty_id', 'integer', (c) => c.references('counterparties.id').onDelete('set null'))
        .addColumn('driver_note', 'text')
        .addColumn('archived_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One place in use per name in a company (an archived one may share it).
      await sql`create unique index places_name_key on places (company_id, name_key) where archived_at is null`.execute(db);
      await db.schema.createIndex('places_counterparty_idx').on('places').column('counterparty_id').execute();

      await db.schema
        .createTable('vehicles')
        .addColumn('id', 'integer', id)
        .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('plate_key', 'text', (c) => c.notNull())
        .addColumn('plate', 'text', (c) => c.notNull())
        .addColumn('make', 'text')
        .addColumn('model', 'text')
        .addColumn('body_type', 'text')
        .addColumn('ownership', 'text')
        .addColumn('capacity_t', real)
        .addColumn('volume_m3', real)
        .addColumn('trailer_plate', 'text')
        .addColumn('is_foreign', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vehicles_plate_key').unique().on('vehicles').columns(['company_id', 'plate_key']).execute();

      await db.schema.alterTable('users').addColumn('license_number', 'text').execute();
      await db.schema.alterTable('users').addColumn('license_issued', 'text').execute();
      await db.schema.alterTable('users').addColumn('vehicle_id', 'integer', (c) => c.references('vehicles.id').onDelete('set null')).execute();

      for (const column of ['customer_id', 'shipper_id', 'consignee_id']) {
        await db.schema.alterTable('tasks').addColumn(column, 'integer', (c) => c.references('counterparties.id').onDelete('set null')).execute();
        await db.schema.createIndex(`tasks_${column}_idx`).on('tasks').column(column).execute();
      }
      for (const column of ['loading_place_id', 'unloading_place_id']) {
        await db.schema.alterTable('tasks').addColumn(column, 'integer', (c) => c.references('places.id').onDelete('set null')).execute();
        await db.schema.createIndex(`tasks_${column}_idx`).on('tasks').column(column).execute();
      }

      await placesFromTexts(db);
      await fleetFromDrivers(db);
    },
  };
}

/** Each company's distinct loading and unloading texts → its places (one per normalised name), linked to the tasks. */
async function placesFromTexts(db: Kysely<Untyped>): Promise<void> {
  const texts = (await sql<{ company_id: number; text: string; n: number | string }>`
    select company_id, text, count(*) as n from (
      select company_id, loading_place as text from tasks
      union all
      select company_id, unloading_place as text from tasks
    ) t group by company_id, text order by company_id, text`.execute(db)).rows;
  // Per company and key: the most used spelling names the place (ties: the first in text order).
  const groups = new Map<string, { company_id: number; key: string; name: string; uses: number; texts: string[] }>();
  for (const row of texts) {
    const key = placeKey(row.text);
    if (key === '') continue;
    const id = `${row.company_id}\u0000${key}`;
    const group = groups.get(id) ?? { company_id: row.company_id, key, name: row.text.trim(), uses: 0, texts: [] };
    if (Number(row.n) > group.uses) {
      group.name = row.text.trim().replace(/\s+/g, ' ');
      group.uses = Number(row.n);
    }
    group.texts.push(row.text);
    groups.set(id, group);
  }
  if (groups.size === 0) return;
  await db.schema
    .createTable('migration_place_texts')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('place_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('migration_place_texts_pk', ['company_id', 'text'])
    .execute();
  const now = new Date().toISOString();
  for (const group of groups.values()) {
    const place = await db
      .insertInto('places')
      .values({ company_id: group.company_id, name: group.name, name_key: group.key, radius_m: 150, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const values = group.texts.map((text) => ({ company_id: group.company_id, text, place_id: Number(place.id) }));
    for (let i = 0; i < values.length; i += 200) await db.insertInto('migration_place_texts').values(values.slice(i, i + 200)).execute();
  }
  for (const [link, column] of [
    ['loading_place_id', 'loading_place'],
    ['unloading_place_id', 'unloading_place'],
  ] as const) {
    await sql`update tasks set ${sql.ref(link)} = (select m.place_id from migration_place_texts m where m.company_id = tasks.company_id and m.text = tasks.${sql.ref(column)})`.execute(db);
  }
  await db.schema.dropTable('migration_place_texts').execute();
}

/** Each company's per-driver vehicles → its fleet, one vehicle per plate; a driver's current vehicle, his fleet vehicle. */
async function fleetFromDrivers(db: Kysely<Untyped>): Promise<void> {
  const rows = (await sql<{ user_id: number; company_id: number; vehicle_number: string; vehicle_brand: string; vehicle_capacity: number | null; is_current: number }>`
    select t.user_id, u.company_id, t.vehicle_number, t.vehicle_brand, t.vehicle_capacity, t.is_current
    from transports t join users u on u.id = t.user_id
    where u.company_id is not null
    order by t.is_current desc, t.id`.execute(db)).rows;
  const now = new Date().toISOString();
  const fleet = new Map<string, number>();
  for (const row of rows) {
    // A plate that is not a Russian one is kept as typed, marked foreign: staff correct it on the fleet's screen.
    const read = parsePlate(row.vehicle_number);
    const plate = read.ok ? read : parsePlate(row.vehicle_number, { foreign: true });
    if (!plate.ok) continue;
    const id = `${row.company_id}\u0000${plate.plate.normalized}`;
    let vehicleId = fleet.get(id);
    if (vehicleId === undefined) {
      const inserted = await db
        .insertInto('vehicles')
        .values({
          company_id: row.company_id,
          plate_key: plate.plate.normalized,
          plate: plate.plate.display,
          make: row.vehicle_brand.trim() === '' ? null : row.vehicle_brand.trim(),
          capacity_t: row.vehicle_capacity,
          is_foreign: read.ok ? 0 : 1,
          is_active: 1,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      vehicleId = Number(inserted.id);
      fleet.set(id, vehicleId);
    }
    if (Number(row.is_current) === 1) await db.updateTable('users').set({ vehicle_id: vehicleId }).where('id', '=', row.user_id).execute();
  }
}
