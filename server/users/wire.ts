/**
 * Users as the API answers them (contract/entities.ts): the role as `{name}` (the client flattens it),
 * the company's name and the current vehicle joined in, booleans as booleans.
 */
import type { Role } from '../../contract/roles.ts';
import type { Transport, UserWire } from '../../contract/entities.ts';
import type { Db } from '../db/connect.ts';
import type { TransportRow } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { queryTemplate } from '../db/template.ts';

const usersByIds = queryTemplate((db, ids: readonly number[]) =>
  db
    .selectFrom('users')
    .leftJoin('companies', 'companies.id', 'users.company_id')
    .select([
      'users.id',
      'users.email',
      'users.name',
      'users.phone',
      'users.role',
      'users.company_id',
      'users.is_active',
      'companies.name as company_name',
      'users.vehicle_id',
      'users.license_series',
      'users.license_number',
      'users.license_issued',
      'users.inn',
    ])
    .where('users.id', 'in', ids),
);

const vehiclesByIds = queryTemplate((db, ids: readonly number[]) =>
  db.selectFrom('vehicles').select(['id', 'plate', 'make', 'model', 'capacity_t']).where('id', 'in', ids),
);

const currentTransportsOf = queryTemplate((db, ids: readonly number[]) =>
  db.selectFrom('transports').selectAll().where('user_id', 'in', ids).where('is_current', '=', 1),
);

export function transportWire(row: Pick<TransportRow, 'id' | 'vehicle_number' | 'vehicle_brand' | 'vehicle_capacity' | 'is_current'>): Transport {
  return {
    id: row.id,
    vehicle_number: row.vehicle_number,
    vehicle_brand: row.vehicle_brand,
    vehicle_capacity: row.vehicle_capacity,
    is_current: Boolean(row.is_current),
  };
}

/** Loads users by id (all of them, or those of `ids`) and answers them in the wire shape, keyed by id. */
export async function loadUserWires(db: Db, ids: readonly number[]): Promise<Map<number, UserWire>> {
  const result = new Map<number, UserWire>();
  if (ids.length === 0) return result;
  const rows = await usersByIds(db.kysely, ids);
  const transports = await currentTransportsOf(db.kysely, ids);
  const current = new Map(transports.map((t) => [t.user_id, transportWire(t)]));
  const vehicleIds = [...new Set(rows.flatMap((r) => (r.vehicle_id === null ? [] : [r.vehicle_id])))];
  const vehicles = new Map(vehicleIds.length ? (await vehiclesByIds(db.kysely, vehicleIds)).map((v) => [v.id, v]) : []);
  for (const row of rows) {
    result.set(row.id, {
      id: row.id,
      email: row.email,
      name: row.name,
      phone: row.phone,
      company_id: row.company_id,
      company_name: row.company_name ?? null,
      role: { name: row.role as Role },
      is_active: Boolean(row.is_active),
      current_transport: current.get(row.id) ?? null,
      vehicle_id: row.vehicle_id,
      vehicle: row.vehicle_id === null ? null : (vehicles.get(row.vehicle_id) ?? null),
      license_series: row.license_series,
      license_number: row.license_number,
      license_issued: row.license_issued,
      inn: row.inn,
    });
  }
  return result;
}

export async function loadUserWire(db: Db, id: number): Promise<UserWire> {
  const user = (await loadUserWires(db, [id])).get(id);
  if (!user) throw notFound('Пользователь не найден');
  return user;
}
