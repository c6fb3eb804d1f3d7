/**
 * The duplicate checks as they are searched at scale (issue 35, docs/reports-review.md «Поиск повтора»): the
 * ticket compared by its stored key (any script's case), the photo found through its hash bands — every hash
 * within the threshold, in any band, and nothing of another company or outside the window.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makePeople, type People } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { scoreReport } from '../../server/reports/score.ts';
import { bandNeighbours, hammingDistance } from '../../server/reports/phash.ts';
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
  it('a band\'s neighbours are the 137 values within 2 bits, the band itself first', () => {
    const values = bandNeighbours(BASE, 1);
    expect(values[0]).toBe('f0e1');
    expect(new Set(values).size).toBe(137);
    for (const v of values) expect(hammingDistance(`0000${v}00000000`, '0000f0e100000000')).toBeLessThanOrEqual(2);
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
    // 8 bits spread 2 per band: the hardest case for the band search (no band equal).
    const spread = await load(p.company, p.driver.id, { phash: flip(BASE, [0, 9, 16, 31, 32, 40, 50, 63]), daysAgo: 2 });
    await load(p.company, p.driver.id, { phash: flip(BASE, [0, 1, 2, 3, 4, 5, 6, 7, 8]), daysAgo: 1 });
    await load(p.otherCompany, p.otherDriver.id, { phash: BASE, daysAgo: 1 });
    await load(p.company, p.driver.id, { phash: BASE, daysAgo: 61 });
    const mine = await load(p.company, p.driver2.id, { phash: BASE });
    const flags = await scoreReport(server.db.kysely, mine);
    expect(codes(flags)).toEqual(['duplicate_photo']);
    expect(flags[0]?.detail).toContain(`№${spread}`);

    // All 8 bits in one band: found through the other three, which are equal.
    const packed = await load(p.company, p.driver.id, { phash: flip('0f0f0f0f0f0f0f0f', [16, 17, 18, 19, 20, 21, 22, 23]) });
    const near = await load(p.company, p.driver2.id, { phash: '0f0f0f0f0f0f0f0f' });
    expect((await scoreReport(server.db.kysely, near))[0]?.detail).toContain(`№${packed}`);
  });

  it('the migration writes the key of the tickets stored before it, as JavaScript normalises them', async () => {
    const ids = [await load(p.company, p.driver.id, { ticket: ' ав-12\t' }), await load(p.company, p.driver.id, { ticket: 'ab-7 ' }), await load(p.company, p.driver.id)];
    await server.db.kysely.updateTable('reports').set({ ticket_key: null }).where('id', 'in', ids).execute();
    await backfillTicketKeys(server.db.kysely as never, server.db.dialect);
    const rows = await server.db.kysely.selectFrom('reports').select(['id', 'ticket_key']).where('id', 'in', ids).orderBy('id').execute();
    expect(rows.map((r) => r.ticket_key)).toEqual(['АВ-12', 'AB-7', null]);
  });
});
