/**
 * What the server stored, read straight from its database and its files: the source of truth for
 * "exactly one report with three JPEGs no wider than 1024 px".
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import type { TestServer } from '../../fixtures/server.ts';
import { DEMO } from '../harness/app.ts';

export interface StoredPhoto {
  storageKey: string;
  /** From the file's bytes, not from the row. */
  type: string | undefined;
  width: number;
  height: number;
}

export interface StoredReport {
  id: number;
  quantity: number | null;
  idempotencyKey: string | null;
  photos: StoredPhoto[];
}

export async function demoDriverId(server: TestServer): Promise<number> {
  const row = await server.db.kysely.selectFrom('users').select('id').where('email', '=', DEMO.driver).executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The demo driver's association on the task with this cargo (made by accepting it). */
export async function associationFor(server: TestServer, cargo: string): Promise<{ id: number; status: string }> {
  const driverId = await demoDriverId(server);
  const row = await server.db.kysely
    .selectFrom('task_drivers')
    .innerJoin('tasks', 'tasks.id', 'task_drivers.task_id')
    .select(['task_drivers.id as id', 'task_drivers.status as status'])
    .where('tasks.cargo', '=', cargo)
    .where('task_drivers.driver_id', '=', driverId)
    // The newest: the demo history holds an older, completed trip with the same cargo (row order differs by backend).
    .orderBy('task_drivers.id', 'desc')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), status: row.status };
}

export async function associationStatus(server: TestServer, associationId: number): Promise<string> {
  const row = await server.db.kysely.selectFrom('task_drivers').select('status').where('id', '=', associationId).executeTakeFirstOrThrow();
  return row.status;
}

export async function reportsOn(server: TestServer, associationId: number): Promise<StoredReport[]> {
  const reports = await server.db.kysely
    .selectFrom('reports')
    .select(['id', 'quantity', 'idempotency_key'])
    .where('association_id', '=', associationId)
    .orderBy('id')
    .execute();
  const stored: StoredReport[] = [];
  for (const report of reports) {
    const rows = await server.db.kysely
      .selectFrom('report_photos')
      .select('storage_key')
      .where('report_id', '=', Number(report.id))
      .orderBy('id')
      .execute();
    const photos: StoredPhoto[] = [];
    for (const { storage_key } of rows) {
      const bytes = await readFile(join(server.config.dataDir, 'files', storage_key));
      const size = imageSize(bytes);
      photos.push({ storageKey: storage_key, type: size.type, width: size.width, height: size.height });
    }
    stored.push({ id: Number(report.id), quantity: report.quantity, idempotencyKey: report.idempotency_key, photos });
  }
  return stored;
}
