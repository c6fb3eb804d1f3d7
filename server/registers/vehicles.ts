/** A company's fleet (docs/registers.md): the list, a vehicle saved; one plate per company. */
import type { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';
import type { VehiclesTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import { conflict } from '../errors.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { searchCondition } from '../tasks/search.ts';
import { pageOf } from './common.ts';
import type { Page } from '../../contract/entities.ts';
import { plateCharacters } from '../../contract/plates.ts';
import type { Vehicle, VehiclePayload, vehicleListQuery } from '../../contract/registers.ts';

type Row = Selectable<VehiclesTable>;

async function toVehicles(db: Db, rows: readonly Row[]): Promise<Vehicle[]> {
  const ids = rows.map((r) => r.id);
  const drivers = ids.length
    ? await db.kysely.selectFrom('users').select(['id', 'name', 'vehicle_id']).where('vehicle_id', 'in', ids).orderBy('name').orderBy('id').execute()
    : [];
  return rows.map((row) => ({
    id: row.id,
    company_id: row.company_id,
    plate: row.plate,
    make: row.make,
    model: row.model,
    body_type: row.body_type,
    ownership: row.ownership,
    capacity_t: row.capacity_t,
    volume_m3: row.volume_m3,
    trailer_plate: row.trailer_plate,
    lease_doc_name: row.lease_doc_name,
    lease_doc_number: row.lease_doc_number,
    lease_doc_date: row.lease_doc_date,
    lessor_inn: row.lessor_inn,
    trailer_type: row.trailer_type,
    trailer_make: row.trailer_make,
    trailer_capacity_t: row.trailer_capacity_t,
    trailer_volume_m3: row.trailer_volume_m3,
    trailer_ownership: row.trailer_ownership,
    trailer_lease_doc_name: row.trailer_lease_doc_name,
    trailer_lease_doc_number: row.trailer_lease_doc_number,
    trailer_lease_doc_date: row.trailer_lease_doc_date,
    trailer_lessor_inn: row.trailer_lessor_inn,
    is_foreign: row.is_foreign === 1,
    is_active: row.is_active === 1,
    drivers: drivers.filter((d) => d.vehicle_id === row.id).map((d) => ({ id: d.id, name: d.name })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

export async function loadVehicle(db: Db, id: number): Promise<Vehicle> {
  const row = await db.kysely.selectFrom('vehicles').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const [vehicle] = await toVehicles(db, [row]);
  return vehicle as Vehicle;
}

export async function listVehicles(db: Db, companyId: number, query: z.output<typeof vehicleListQuery>): Promise<Page<Vehicle>> {
  let list = db.kysely.selectFrom('vehicles').selectAll().where('company_id', '=', companyId);
  if (query.active === '1') list = list.where('is_active', '=', 1);
  if (query.q) {
    const q = query.q;
    // A plate is found as typed, with Latin look-alikes, spaces and case as the plate's own rule reads them.
    const plate = plateCharacters(q).replace(/[%_\\]/g, '');
    list = list.where((eb) => eb.or([...(plate ? [eb('plate_key', 'like', `%${plate}%`)] : []), searchCondition(db, q, ['make', 'model'])]));
  }
  const page = await pageOf(list.clearSelect(), list.orderBy('is_active', 'desc').orderBy('plate').orderBy('id'), query, (row) => row);
  return { ...page, items: await toVehicles(db, page.items) };
}

function samePlate(db: Db, companyId: number, key: string, exceptId: number) {
  return db.kysely
    .selectFrom('vehicles')
    .select(['id', 'plate'])
    .where('company_id', '=', companyId)
    .where('plate_key', '=', key)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
}

const duplicate = (other: { id: number; plate: string }) => conflict(`Госномер: машина ${other.plate} уже есть в парке (№${other.id})`);

/** Saves a vehicle: a new one (`id` null) or the whole card of an existing one; a plate the fleet has is 409. */
export async function saveVehicle(db: Db, companyId: number, id: number | null, card: VehiclePayload): Promise<Vehicle> {
  const other = await samePlate(db, companyId, card.plate_key, id ?? 0);
  if (other) throw duplicate(other);
  const now = nowIso();
  const values = { ...card, is_foreign: card.is_foreign ? 1 : 0, is_active: card.is_active ? 1 : 0, updated_at: now };
  try {
    if (id === null) {
      const row = await db.kysely.insertInto('vehicles').values({ ...values, company_id: companyId, created_at: now }).returning('id').executeTakeFirstOrThrow();
      return loadVehicle(db, row.id);
    }
    await db.kysely.updateTable('vehicles').set(values).where('id', '=', id).execute();
    return loadVehicle(db, id);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await samePlate(db, companyId, card.plate_key, id ?? 0);
    throw winner ? duplicate(winner) : error;
  }
}
