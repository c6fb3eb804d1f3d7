/**
 * The duplicate checks as they are searched at scale (issue 35, docs/reports-review.md «Поиск повтора»): the
 * ticket compared by its stored key (any script's case), the photo found through its hash bands — every hash
 * within the threshold, in any band, and nothing of another company or outside the window.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { bandStatements, nearPhotos, scoreReport, ticketRepeat } from '../../server/reports/score.ts';
import { bandNeighbours, bandSql, hammingDistance } from '../../server/reports/phash.ts';
import { ticketKey } from '../../server/reports/ticket.ts';
import { backfillTicketKeys } from '../../server/db/migrations-scale.ts';

/** `hash` with the given bit positions (0 = most significant) flipped. */
function flip(hash: string, bits: readonly number[]): string {
  let value = BigInt(`0x${hash}`);
  for (const bit of bits) value ^= 1n << BigInt(63 - bit);
  return value.toString(16).padStart(16, '0');
}

const BASE = 'c3a5f0e1b2d49687';

describe('hash bands', () => {
  it('a band\'s neighbours are the values within 2 bits, the band itself first: 211 of a 20-bit band, 301 of the 24-bit one', () => {
    const values = bandNeighbours(BASE, 1);
    expect(values[0]).toBe('0e1b2');
    expect(new Set(values).size).toBe(211);
    for (const v of values) expect(hammingDistance(`00000${v}000000`, '000000e1b2000000')).toBeLessThanOrEqual(2);
    const last = bandNeighbours(BASE, 2);
    expect(last[0]).toBe('d49687');
    expect(new Set(last).size).toBe(301);
    for (const v of last) expect(hammingDistance(`0000000000${v}`, '0000000000d49687')).toBeLessThanOrEqual(2);
  });

  it('normalises a ticket as JavaScript does, Cyrillic too', () => {
    expect(ticketKey('  ав-12\t')).toBe('АВ-12');
    expect(ticketKey('   ')).toBeNull();
    expect(ticketKey(null)).toBeNull();
  });
});

describe.each(backends)('duplicate checks at scale ($name)', ({ databaseUrl }) => {
  let server: TestServer;
  let p: People;
  serveSuite(databaseUrl, (s) => void (server = s));
  beforeEach(async () => {
    p = await makePeople(server);
  });

  async function load(companyId: number, driverId: number, fields: { ticket?: string; phash?: string; daysAgo?: number } = {}): Promise<number> {
    const task = await createTask(server, companyId, { date: dayFromToday(-(fields.daysAgo ?? 0)) });
    const association = await addDriver(server, task, driverId);
    const id = await addLoad(server, association, 10, { review: 'pending', ticket: fields.ticket ?? null });
    const at = new Date(Date.now() - (fields.daysAgo ?? 0) * 86_400_000).toISOString();
    await server.db.kysely.updateTable('reports').set({ created_at: at, completed_at: at }).where('id', '=', id).execute();
    if (fields.phash) {
      await server.db.kysely
        .insertInto('report_photos')
        .values({ report_id: id, storage_key: `k-${id}`, mime: 'image/jpeg', size: 1, width: 1, height: 1, created_at: at, phash: fields.phash })
        .execute();
    }
    return id;
  }
  const codes = (flags: { code: string }[]) => flags.map((f) => f.code);

  it('finds a ticket filed in lower-case Cyrillic when it comes again in upper case', async () => {
    const first = await load(p.company, p.driver.id, { ticket: 'ав-4711', daysAgo: 1 });
    const again = await load(p.company, p.driver2.id, { ticket: ' АВ-4711 ' });
    const flags = await scoreReport(server.db.kysely, again);
    expect(codes(flags)).toEqual(['duplicate_ticket']);
    expect(flags[0]?.detail).toContain(`№${first}`);
  });

  it('finds a photo 8 bits away whichever bands the bits fall in, not one 9 away, another company\'s or an older one', async () => {
    // The bands are bits 0–19, 20–39 and 40–63. 8 bits spread 3, 3 and 2: the hardest case for the band search
    // (only the last band is within 2 bits).
    const spread = await load(p.company, p.driver.id, { phash: flip(BASE, [0, 9, 19, 20, 31, 39, 40, 63]), daysAgo: 2 });
    // Outside the bound, and none of them can be a repeat: 9 bits is another picture by the hash's threshold (and
    // 3 bits in every band is the nearest such a hash can be, which the bands leave out: 9 > 8); another company's
    // photo is not its driver's to re-use; a photo older than the window is past the repeat rule's 60 days.
    await load(p.company, p.driver.id, { phash: flip(BASE, [0, 9, 19, 20, 31, 39, 40, 50, 63]), daysAgo: 1 });
    await load(p.otherCompany, p.otherDriver.id, { phash: BASE, daysAgo: 1 });
    await load(p.company, p.driver.id, { phash: BASE, daysAgo: 61 });
    const mine = await load(p.company, p.driver2.id, { phash: BASE });
    const flags = await scoreReport(server.db.kysely, mine);
    expect(codes(flags)).toEqual(['duplicate_photo']);
    expect(flags[0]?.detail).toContain(`№${spread}`);

    // All 8 bits in one band: found through the other two, which are equal.
    const packed = await load(p.company, p.driver.id, { phash: flip('0f0f0f0f0f0f0f0f', [40, 41, 43, 47, 52, 55, 60, 63]) });
    const near = await load(p.company, p.driver2.id, { phash: '0f0f0f0f0f0f0f0f' });
    expect((await scoreReport(server.db.kysely, near))[0]?.detail).toContain(`№${packed}`);

    // Inside the window, another driver's, at the window's edge (59 days): caught.
    const old = await load(p.company, p.driver.id, { phash: flip('123456789abcdef0', [5, 25, 45]), daysAgo: 59 });
    const late = await load(p.company, p.driver2.id, { phash: '123456789abcdef0' });
    expect((await scoreReport(server.db.kysely, late))[0]?.detail).toContain(`№${old}`);
  });

  it('searches the photos through the hash bands\' indexes and the ticket through its key\'s, never the company\'s tasks', async () => {
    const since = new Date(Date.now() - 60 * 86_400_000).toISOString();
    const bands = nearPhotos(server.db.kysely, BASE, since).map((q) => q.compile());
    const ticket = ticketRepeat(server.db.kysely, 'AB-1', 0, p.company, since).compile();
    if (server.db.dialect === 'sqlite') {
      const plan = async (q: { sql: string; parameters: readonly unknown[] }) =>
        (await server.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows.map((r) => r.detail);
      // Each band its own index's ranges (its values, since the window's start) over the recent photos alone
      // (migration 039); nothing else is read. A window older than they go back: every photo's bands.
      for (const [i, band] of bands.entries()) expect(await plan(band)).toEqual([`SEARCH p USING INDEX recent_photo_hashes_band${i}_idx (<expr>=? AND created_at>?)`]);
      // As run: one statement, a UNION ALL whose every part is still its band's index ranges.
      const run = bandStatements(server.db.kysely, nearPhotos(server.db.kysely, BASE, since)).map((q) => q.compile());
      expect(run).toHaveLength(1);
      expect(await plan(run[0]!)).toEqual([
        'COMPOUND QUERY',
        'LEFT-MOST SUBQUERY',
        'SEARCH p USING INDEX recent_photo_hashes_band0_idx (<expr>=? AND created_at>?)',
        'UNION ALL',
        'SEARCH p USING INDEX recent_photo_hashes_band1_idx (<expr>=? AND created_at>?)',
        'UNION ALL',
        'SEARCH p USING INDEX recent_photo_hashes_band2_idx (<expr>=? AND created_at>?)',
      ]);
      const older = nearPhotos(server.db.kysely, BASE, new Date(Date.now() - 100 * 86_400_000).toISOString()).map((q) => q.compile());
      for (const [i, band] of older.entries()) expect(await plan(band)).toEqual([`SEARCH p USING INDEX report_photos_hash${i}_idx (<expr>=? AND created_at>?)`]);
      expect(await plan(ticket)).toEqual([
        'SEARCH o USING INDEX reports_ticket_key_idx (ticket_key=? AND created_at>?)',
        'SEARCH td USING INTEGER PRIMARY KEY (rowid=?)',
        'SEARCH t USING INTEGER PRIMARY KEY (rowid=?)',
        'USE TEMP B-TREE FOR ORDER BY',
      ]);
    } else {
      // A test database is small enough for a sequential scan to win; with it priced out, the plan shows that the
      // band and key indexes serve these expressions as written (the planner matches an expression index textually).
      const plan = (q: { sql: string; parameters: readonly unknown[] }) =>
        server.db.kysely.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]));
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        });
      // A test's few rows give no true costs (the plan at scale is in docs/scale.md) and any index with the time
      // serves the window: with the scan priced out, each band's values alone are read from its own index (the
      // planner matches an expression index by its text).
      for (let i = 0; i < bands.length; i++) {
        // The window's search reads the recent photos (migration 039), each band from its own index there.
        expect(bands[i]?.sql).toContain('from "recent_photo_hashes" as "p"');
        const recent = server.db.kysely.selectFrom('recent_photo_hashes as p').select('p.photo_id').where(sql.raw(bandSql(i, 'p.phash')), 'in', bandNeighbours(BASE, i)).compile();
        expect(await plan(recent)).toContain(`Index Cond: (substr(phash, ${[1, 6, 11][i]}, ${[5, 5, 6][i]}) = ANY`);
        expect(await plan(recent)).toContain(`recent_photo_hashes_band${i}_idx`);
        const band = server.db.kysely.selectFrom('report_photos as p').select('p.id').where(sql.raw(bandSql(i, 'p.phash')), 'in', bandNeighbours(BASE, i)).compile();
        const text = await plan(band);
        expect(text).toContain(`report_photos_hash${i}_idx`);
        expect(text).toContain(`Index Cond: (substr(phash, ${[1, 6, 11][i]}, ${[5, 5, 6][i]}) = ANY`);
      }
      expect(await plan(ticket)).toContain('reports_ticket_key_idx');
    }
  });

  it('keeps the last 90 days of hashed photos for the search: older ones pruned as a photo is stored, a deleted photo gone; a report older than that is still scored against every photo', async () => {
    const recentIds = async () => (await server.db.kysely.selectFrom('recent_photo_hashes').select('report_id').execute()).map((r) => r.report_id);
    // A photo of 100 days ago and a report of 70 days ago with the same picture (its window reaches 130 days back).
    const first = await load(p.company, p.driver.id, { phash: '0123456789abcdef', daysAgo: 100 });
    const repeat = await load(p.company, p.driver2.id, { phash: flip('0123456789abcdef', [1, 30, 50]), daysAgo: 70 });
    const fresh = await load(p.company, p.driver.id, { phash: 'fedcba9876543210' });
    // Storing today's photo pruned the one older than 90 days; the 70-day-old one stays.
    expect(await recentIds()).toEqual(expect.arrayContaining([repeat, fresh]));
    expect(await recentIds()).not.toContain(first);
    const flags = await scoreReport(server.db.kysely, repeat);
    expect(codes(flags)).toEqual(['duplicate_photo']);
    expect(flags[0]?.detail).toContain(`№${first}`);
    // A deleted photo leaves the search with its row.
    await server.db.kysely.deleteFrom('report_photos').where('report_id', '=', fresh).execute();
    expect(await recentIds()).not.toContain(fresh);
  });

  it('the migration writes the key of the tickets stored before it, as JavaScript normalises them', async () => {
    const ids = [await load(p.company, p.driver.id, { ticket: ' ав-12\t' }), await load(p.company, p.driver.id, { ticket: 'ab-7 ' }), await load(p.company, p.driver.id)];
    await server.db.kysely.updateTable('reports').set({ ticket_key: null }).where('id', 'in', ids).execute();
    await backfillTicketKeys(server.db.kysely as never, server.db.dialect);
    const rows = await server.db.kysely.selectFrom('reports').select(['id', 'ticket_key']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.ticket_key)).toEqual(['АВ-12', 'AB-7', null]);
  });
});
