/**
 * The daily run of each company's photo-retention rule (docs/scale.md «Хранение фото»). Every hour (and at start)
 * the server looks for companies with a rule not yet run today; it claims one by moving its `photo_retention_ran_on`
 * to today in a single conditional UPDATE — of two instances sharing a database only one wins the claim — then
 * applies the rule (server/reports/retention.ts: batches of 500 reports, one transaction each) and stores what it did.
 */
import { join } from 'node:path';
import type { Db } from '../db/connect.ts';
import type { PhotoRetentionRule, PhotoRetentionRun } from '../../contract/calls/retention.ts';
import { localToday } from '../tasks/scope.ts';
import { retainPhotos } from './retention.ts';

const EVERY_MS = 60 * 60 * 1000;

export interface RetentionJob {
  /** One pass over the companies due on `today` (tests call it with a day of their choice). */
  runDue(today?: string): Promise<PhotoRetentionRun[]>;
  close(): Promise<void>;
}

export function parseRule(text: string | null): PhotoRetentionRule | null {
  if (!text) return null;
  try {
    const rule = JSON.parse(text) as PhotoRetentionRule;
    return Number.isInteger(rule.years) && rule.years >= 1 && (rule.action === 'archive' || rule.action === 'delete') ? rule : null;
  } catch {
    return null;
  }
}

export function startRetentionJob(db: Db, dataDir: string, { timer = true } = {}): RetentionJob {
  let running: Promise<PhotoRetentionRun[]> = Promise.resolve([]);
  let closed = false;

  async function pass(today: string): Promise<PhotoRetentionRun[]> {
    const due = await db.kysely
      .selectFrom('companies')
      .select(['id', 'photo_retention'])
      .where('photo_retention', 'is not', null)
      .where((eb) => eb.or([eb('photo_retention_ran_on', 'is', null), eb('photo_retention_ran_on', '<', today)]))
      .orderBy('id')
      .execute();
    const done: PhotoRetentionRun[] = [];
    for (const company of due) {
      if (closed) break;
      const rule = parseRule(company.photo_retention);
      if (!rule) continue;
      const claim = await db.kysely
        .updateTable('companies')
        .set({ photo_retention_ran_on: today })
        .where('id', '=', company.id)
        .where((eb) => eb.or([eb('photo_retention_ran_on', 'is', null), eb('photo_retention_ran_on', '<', today)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue; // another instance has it today
      const result = await retainPhotos(db, { filesDir: join(dataDir, 'files'), archiveDir: join(dataDir, 'archive') }, { years: rule.years, action: rule.action, companyId: company.id, today });
      const run: PhotoRetentionRun = { on: today, before: result.before, reports: result.reports, photos: result.photos, bytes: result.bytes, action: rule.action };
      await db.kysely.updateTable('companies').set({ photo_retention_last: JSON.stringify(run) }).where('id', '=', company.id).execute();
      done.push(run);
    }
    return done;
  }

  function runDue(today = localToday()): Promise<PhotoRetentionRun[]> {
    // One pass at a time in this process.
    running = running.catch(() => []).then(() => (closed ? [] : pass(today)));
    return running;
  }

  const tick = () => void runDue().catch((error: unknown) => console.error('photo retention failed', error));
  const first = timer ? setTimeout(tick, 30_000) : null;
  const hourly = timer ? setInterval(tick, EVERY_MS) : null;
  first?.unref();
  hourly?.unref();

  return {
    runDue,
    async close() {
      closed = true;
      if (first) clearTimeout(first);
      if (hourly) clearInterval(hourly);
      await running.catch(() => undefined);
    },
  };
}
