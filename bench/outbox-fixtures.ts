/**
 * The database side of the outbox benchmark, through the server's own Kysely: enough assigned tasks for
 * the demo driver (the seed gives three), and the count of stored reports that proves exactly-once.
 */
import type { Db } from '../server/db/connect.ts';
import { nowIso } from '../server/db/connect.ts';
import { DEMO } from '../tests/e2e/harness/app.ts';

/** The server's local date (tasks' date format): the tasks must count as today's. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Gives the demo driver at least `count` associations in /tasks/assigned/, adding tasks where needed. */
export async function ensureAssociations(db: Db, count: number): Promise<void> {
  const driver = await db.kysely.selectFrom('users').select(['id', 'company_id']).where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
  const manager = await db.kysely.selectFrom('users').select('id').where('email', '=', DEMO.manager).executeTakeFirstOrThrow();
  const { have } = await db.kysely
    .selectFrom('task_drivers')
    .select((eb) => eb.fn.countAll<number>().as('have'))
    .where('driver_id', '=', driver.id)
    .where('status', 'in', ['accepted', 'in_progress'])
    .executeTakeFirstOrThrow();
  const missing = count - Number(have);
  if (missing <= 0) return;
  const now = nowIso();
  await db.kysely.transaction().execute(async (trx) => {
    const tasks = await trx
      .insertInto('tasks')
      .values(
        Array.from({ length: missing }, (_, i) => ({
          company_id: driver.company_id as number,
          created_by: manager.id,
          date: today(),
          cargo: `Щебень гранитный, рейс ${i + 1}`,
          loading_place: 'Карьер «Лесной»',
          unloading_place: 'ЖК «Северный парк»',
          planned_quantity: 10,
          unit: 'т',
          status: 'in_progress',
          rate: 400,
          comment: null,
          max_drivers: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .returning('id')
      .execute();
    await trx
      .insertInto('task_drivers')
      .values(
        tasks.map(({ id }, i) => ({
          task_id: id,
          driver_id: driver.id,
          quantity: null,
          status: 'accepted',
          loading_quantity: null,
          unloading_quantity: null,
          transport_rate: 400,
          order_index: 100 + i,
          accepted_at: now,
          created_at: now,
        })),
      )
      .execute();
  });
}

export interface Stored {
  /** Report rows on the given associations. */
  rows: number;
  distinctKeys: number;
  distinctAssociations: number;
  /** Rows whose idempotency key the outbox never made (0 when no keys are given). */
  unknownKeys: number;
  /** Keys the outbox made that no row carries. */
  missingKeys: number;
}

/** What the server stored on `associationIds`, checked against the outbox's idempotency keys. */
export async function storedReports(db: Db, associationIds: number[], keys: string[] | null): Promise<Stored> {
  const rows = await db.kysely
    .selectFrom('reports')
    .select(['association_id', 'idempotency_key'])
    .where('association_id', 'in', associationIds)
    .execute();
  const rowKeys = new Set(rows.map((r) => r.idempotency_key));
  const expected = new Set(keys ?? []);
  return {
    rows: rows.length,
    distinctKeys: rowKeys.size,
    distinctAssociations: new Set(rows.map((r) => r.association_id)).size,
    unknownKeys: keys ? rows.filter((r) => !expected.has(r.idempotency_key ?? '')).length : 0,
    missingKeys: keys ? keys.filter((k) => !rowKeys.has(k)).length : 0,
  };
}
