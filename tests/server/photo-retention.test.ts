/**
 * Photo retention (server/reports/retention.ts, `npm run photos:retain`, docs/scale.md): photos of trips older than
 * N years are archived or deleted; the trip, its figures and the rest stay, and the report's history says so.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { cutoffDate, retainPhotos, type RetentionRule } from '../../server/reports/retention.ts';
import type { CompanyWages } from '../../contract/money.ts';

const TODAY = '2026-11-28';

describe('cutoffDate', () => {
  it('is the same day N years before; 29 February falls back to the 28th', () => {
    expect(cutoffDate(TODAY, 3)).toBe('2023-11-28');
    expect(cutoffDate('2028-02-29', 1)).toBe('2027-02-28');
  });
});

describe.each(backends)('photo retention ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let admin: SignedInUser;
  const companies: number[] = [];
  /** Per company: the old report (2022) with two photos and the recent one (2026) with one. */
  const reports: { old: number; recent: number; oldKeys: string[]; recentKey: string }[] = [];
  const files = () => join(s.config.dataDir, 'files');
  const archive = () => join(s.config.dataDir, 'archive');
  const run = (rule: Partial<RetentionRule>) => retainPhotos(s.db, { filesDir: files(), archiveDir: archive() }, { years: 3, action: 'archive', today: TODAY, ...rule });

  serveSuite(databaseUrl, async (server) => {
    s = server;
  });

  beforeAll(async () => {
    for (let c = 0; c < 2; c++) {
      const company = await makeCompany(s);
      companies.push(company);
      const driver = await makeUser(s, 'driver', company);
      const made: number[] = [];
      const keys: string[] = [];
      for (const [date, photos] of [['2022-05-10', 2], ['2026-11-20', 1]] as const) {
        const association = await addDriver(s, await createTask(s, company, { date, status: 'completed' }), driver.id, { status: 'completed', transport_rate: 400 });
        const report = await addLoad(s, association, 20);
        made.push(report);
        for (let p = 0; p < photos; p++) {
          const key = `photos/${company}-${date}-${p}.jpg`;
          mkdirSync(join(files(), 'photos'), { recursive: true });
          writeFileSync(join(files(), key), Buffer.from('jpeg bytes'));
          await s.db.kysely.insertInto('report_photos').values({ report_id: report, storage_key: key, mime: 'image/jpeg', size: 1000, width: 10, height: 10, created_at: nowIso(), phash: null }).execute();
          keys.push(key);
        }
      }
      reports.push({ old: made[0] as number, recent: made[1] as number, oldKeys: keys.slice(0, 2), recentKey: keys[2] as string });
    }
    admin = await withAccessToken(s, await makeUser(s, 'admin', companies[0] as number));
  });

  const photoRows = async (reportId: number) => (await s.db.kysely.selectFrom('report_photos').select('id').where('report_id', '=', reportId).execute()).length;
  const wages = async () => (await call<CompanyWages>(s, 'GET', `/api/wages/company/${companies[0]}?start_date=2022-05-01&end_date=2022-05-31`, { token: admin.token })).body;

  it('a dry run counts what would go and changes nothing', async () => {
    const result = await run({ dryRun: true });
    expect(result).toMatchObject({ before: '2023-11-28', reports: 2, photos: 4, bytes: 4000 });
    expect(await photoRows(reports[0]!.old)).toBe(2);
    expect(existsSync(join(files(), reports[0]!.oldKeys[0]!))).toBe(true);
  });

  it("archives one company's old photos: files moved under their keys, rows gone, the trip and its pay kept, the history saying so", async () => {
    const before = await wages();
    const result = await run({ companyId: companies[0] });
    expect(result).toMatchObject({ reports: 1, photos: 2 });
    const r = reports[0]!;
    expect(await photoRows(r.old)).toBe(0);
    for (const key of r.oldKeys) {
      expect(existsSync(join(files(), key))).toBe(false);
      expect(existsSync(join(archive(), key))).toBe(true);
    }
    // The recent trip and the other company's old one keep theirs.
    expect(await photoRows(r.recent)).toBe(1);
    expect(existsSync(join(files(), r.recentKey))).toBe(true);
    expect(await photoRows(reports[1]!.old)).toBe(2);

    const report = await call<{ quantity: number; photos: unknown[] }>(s, 'GET', `/api/reports/${r.old}`, { token: admin.token });
    expect(report.status).toBe(200);
    expect(report.body.quantity).toBe(20);
    expect(report.body.photos).toEqual([]);
    const after = await wages();
    expect(after.total_amount).toBe(before.total_amount);
    expect(after.total_amount).toBe(8000);
    const history = await call<{ changes: { field: string; from: unknown; to: unknown }[] }[]>(s, 'GET', `/api/audit/?entity=report&id=${r.old}`, { token: admin.token });
    expect(history.body.map((h) => h.changes)).toContainEqual([
      { field: 'photos', from: 2, to: 0 },
      { field: 'photo_retention', from: null, to: 'archived' },
    ]);
  });

  it('deletes when the rule says so (nothing archived), and a second run finds nothing left', async () => {
    const result = await run({ action: 'delete' });
    expect(result).toMatchObject({ reports: 1, photos: 2 });
    for (const key of reports[1]!.oldKeys) {
      expect(existsSync(join(files(), key))).toBe(false);
      expect(existsSync(join(archive(), key))).toBe(false);
    }
    expect(await run({ action: 'delete' })).toMatchObject({ reports: 0, photos: 0 });
  });
});
