/**
 * 011_late_payments on a database made before it: the system's late payments made so far (no author, a load) are
 * marked `late`; staff's adjustments, with or without a load, are not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databaseBefore, type OlderDatabase } from '../fixtures/migrations.ts';
import { openDb } from '../../server/db/connect.ts';

describe('011_late_payments', () => {
  const made: OlderDatabase[] = [];
  afterEach(() => {
    for (const database of made.splice(0)) database.remove();
  });

  it('marks the late payments an older database holds, and only them', async () => {
    // The database as the release before 011 left it.
    const database = await databaseBefore('_late_payments');
    made.push(database);
    const { file, old } = database;
    const row = (reportId: number | null, createdBy: number | null) => ({ company_id: 1, driver_id: 2, date: '2026-11-02', amount_kop: 100, reason: 'x', report_id: reportId, concerns_month: reportId === null ? null : '2026-10', created_by: createdBy, created_at: '2026-11-02T00:00:00Z' });
    await old.insertInto('payroll_adjustments').values([row(7, null), row(8, 3), row(null, 3)]).execute();
    await old.destroy();

    const db = await openDb({ sqliteFile: file });
    try {
      const marked = await db.kysely.selectFrom('payroll_adjustments').select(['report_id', 'created_by', 'late']).orderBy('id').execute();
      expect(marked.map((a) => [a.report_id, a.created_by, Number(a.late)])).toEqual([
        [7, null, 1],
        [8, 3, 0],
        [null, 3, 0],
      ]);
    } finally {
      await db.close();
    }
  });
});
