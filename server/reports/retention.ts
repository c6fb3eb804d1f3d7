/**
 * Photo retention (docs/scale.md «Хранение фото»): the photos of trips older than N years are moved to an archive
 * folder or deleted, in batches. The trip stays whole — the report, its quantity, ticket, review, payroll lines and
 * every figure — and its history says what became of its photos (one entry per report: «фото» n → 0, «срок
 * хранения фото» → archived / deleted). A report's age is its task's date, the date every figure uses.
 *
 * Rows go first, in one transaction per batch, then the files: a crash between the two leaves files no row names
 * (wasted space, nothing wrong shown), never a row naming a file that is gone.
 */
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import type { Db } from '../db/connect.ts';
import { nowIso } from '../db/connect.ts';

export interface RetentionRule {
  /** Photos of tasks dated more than this many whole years before `today` go. */
  years: number;
  action: 'archive' | 'delete';
  /** One company's photos; all companies' when absent. */
  companyId?: number | undefined;
  /** Count what would go, change nothing. */
  dryRun?: boolean | undefined;
  /** YYYY-MM-DD, the day the rule is applied on (default: the server's today). */
  today: string;
}

export interface RetentionPlaces {
  /** Where photo keys live (DATA_DIR/files). */
  filesDir: string;
  /** Where archived photos go, under the same key (DATA_DIR/archive by default). */
  archiveDir: string;
}

export interface RetentionResult {
  /** Tasks dated before this day lost their photos. */
  before: string;
  reports: number;
  photos: number;
  bytes: number;
}

const BATCH = 500;

/** The day N whole years before `today` (29 February falls back to the 28th). */
export function cutoffDate(today: string, years: number): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y - years, m - 1, d));
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

function inside(root: string, key: string): string {
  const path = normalize(join(root, key));
  if (!path.startsWith(normalize(root) + sep)) throw new Error(`storage key escapes the root: ${key}`);
  return path;
}

async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EXDEV') throw error;
    // Another disk: copied, then removed.
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

export async function retainPhotos(db: Db, places: RetentionPlaces, rule: RetentionRule): Promise<RetentionResult> {
  const before = cutoffDate(rule.today, rule.years);
  const result: RetentionResult = { before, reports: 0, photos: 0, bytes: 0 };
  let afterId = 0;
  for (;;) {
    // A batch of whole reports (their every photo), so each report gets one history entry with its count.
    const rows = await db.kysely
      .selectFrom('reports as r')
      .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
      .innerJoin('tasks as t', 't.id', 'td.task_id')
      .select(['r.id', 'td.task_id', 't.company_id'])
      .where('t.date', '<', before)
      .where('r.id', '>', afterId)
      .where(({ exists, selectFrom }) => exists(selectFrom('report_photos as p').select('p.id').whereRef('p.report_id', '=', 'r.id')))
      .$if(rule.companyId !== undefined, (qb) => qb.where('t.company_id', '=', rule.companyId as number))
      .orderBy('r.id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return result;
    afterId = (rows.at(-1) as { id: number }).id;
    const batch = await db.kysely.selectFrom('report_photos').select(['id', 'report_id', 'storage_key', 'size']).where('report_id', 'in', rows.map((r) => r.id)).execute();
    const reports = new Map(rows.map((r) => [r.id, { taskId: r.task_id, companyId: r.company_id, photos: 0 }]));
    for (const p of batch) {
      (reports.get(p.report_id) as { photos: number }).photos += 1;
      result.bytes += Number(p.size);
    }
    result.photos += batch.length;
    result.reports += reports.size;
    if (rule.dryRun) continue;
    const now = nowIso();
    await db.kysely.transaction().execute(async (trx) => {
      await trx.deleteFrom('report_photos').where('id', 'in', batch.map((p) => p.id)).execute();
      await trx
        .insertInto('audit_log')
        .values(
          [...reports].map(([reportId, r]) => ({
            company_id: r.companyId,
            task_id: r.taskId,
            entity: 'report' as const,
            entity_id: reportId,
            action: 'update' as const,
            changes: JSON.stringify([
              { field: 'photos', from: r.photos, to: 0 },
              { field: 'photo_retention', from: null, to: rule.action === 'archive' ? 'archived' : 'deleted' },
            ]),
            user_id: null,
            device_id: null,
            created_at: now,
          })),
        )
        .execute();
    });
    for (const p of batch) {
      const file = inside(places.filesDir, p.storage_key);
      if (rule.action === 'archive') await moveFile(file, inside(places.archiveDir, p.storage_key));
      else await rm(file, { force: true });
    }
  }
}
