/**
 * The driver's confirmations of a trip (ПЭП; docs/documents.md «The driver's confirmation»): «Груз принят к
 * перевозке» at the loading departure, «Груз сдан» at the unloading departure — who, when, where, the mass, remarks.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ConfirmStep, DriverConfirmation } from '../../contract/trips.ts';
import { positionOf } from './facts.ts';

export type DriverConfirmations = Partial<Record<ConfirmStep, DriverConfirmation>>;

export async function driverConfirmationsOf(db: Kysely<Database>, reportId: number): Promise<DriverConfirmations> {
  const rows = await db
    .selectFrom('trip_confirmations as c')
    .innerJoin('users as u', 'u.id', 'c.driver_id')
    .select(['c.step', 'c.driver_id', 'u.name', 'c.at', 'c.lat', 'c.lon', 'c.accuracy', 'c.quantity', 'c.remarks'])
    .where('c.report_id', '=', reportId)
    .execute();
  const out: DriverConfirmations = {};
  for (const r of rows) {
    out[r.step] = {
      step: r.step,
      driver_id: r.driver_id,
      driver_name: r.name,
      at: r.at,
      position: positionOf(r),
      quantity: r.quantity === null ? null : Number(r.quantity),
      remarks: r.remarks,
    };
  }
  return out;
}
