/**
 * A driver's cycle (docs/trips.md): from one trip's loading arrival to the next's. A loading arrival reaching the
 * server late (the outbox delivers out of order) changes its neighbour's cycle: the driver's next trip is scored again.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { scoreReport } from '../reports/score.ts';
import { neighbourArrival } from './facts.ts';

type Q = Kysely<Database>;

export async function rescoreCycleNeighbours(db: Q, reportId: number): Promise<void> {
  const own = await db
    .selectFrom('trip_stamps as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .select(['s.at', 'r.driver_id'])
    .where('s.report_id', '=', reportId)
    .where('s.step', '=', 'loading_arrived')
    .executeTakeFirst();
  if (!own) return;
  const next = await neighbourArrival(db, own.driver_id, reportId, own.at, 'next');
  if (next) await scoreReport(db, next.report_id);
}
