/**
 * A driver's vehicle as the board, the exports and the automatic checks read it: the fleet vehicle chosen on his
 * card (docs/registers.md), else — a driver not moved to the fleet yet — the current one of his own list.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface DriverVehicle {
  plate: string;
  /** Make and model as one text (the board's «brand»). */
  brand: string;
  capacity: number | null;
}

/** The vehicle of each of `driverIds` that has one. */
export async function driverVehicles(db: Kysely<Database>, driverIds: readonly number[]): Promise<Map<number, DriverVehicle>> {
  if (driverIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('vehicles as v', 'v.id', 'u.vehicle_id')
    .leftJoin('transports as tr', (join) => join.onRef('tr.user_id', '=', 'u.id').on('tr.is_current', '=', 1))
    .select(['u.id', 'v.plate', 'v.make', 'v.model', 'v.capacity_t', 'tr.vehicle_number', 'tr.vehicle_brand', 'tr.vehicle_capacity'])
    .where('u.id', 'in', [...new Set(driverIds)])
    .execute();
  const result = new Map<number, DriverVehicle>();
  for (const r of rows) {
    if (r.plate) result.set(r.id, { plate: r.plate, brand: [r.make, r.model].filter(Boolean).join(' '), capacity: r.capacity_t });
    else if (r.vehicle_number) result.set(r.id, { plate: r.vehicle_number, brand: r.vehicle_brand ?? '', capacity: r.vehicle_capacity });
  }
  return result;
}
