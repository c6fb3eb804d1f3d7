/**
 * The money invariants over random months (fast-check): random scale versions, drivers with or without their own
 * rate, approved and pending loads. For every generated month — checked against a reference written here from
 * WAGES.md, not against the server's own code —
 * - each approved load is paid delivered × (own rate, else the version in force on its date at the band reached by
 *   the driver's approved volume of the month), to the kopeck; pending loads are not paid;
 * - each driver's statistics, the company's line for the driver and /payroll agree; the drivers sum to the company;
 * - closing stores the month: a scale rewritten afterwards moves nothing.
 */
import { closeAndWait } from '../fixtures/payroll-close.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { makeCompany, makeUser, withAccessToken, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, addLoad, createTask } from '../fixtures/tasks.ts';
import { nowIso } from '../../server/db/connect.ts';
import { confirmedOf, type CompanyWages, type DriverWages, type PayrollItems, type PayrollMonth } from '../../contract/money.ts';

interface Band {
  min: number;
  max: number | null;
  rate: number;
}
interface Version {
  from: string;
  bands: Band[];
}
interface Load {
  driver: number;
  day: number;
  quantity: number;
  ownRate: number | null;
  approved: boolean;
}

/** A valid ladder: boundaries rising from 0, the top one open. */
const ladder = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 150 }), { maxLength: 3 }), fc.array(fc.integer({ min: 100, max: 900 }), { minLength: 4, maxLength: 4 }))
  .map(([cuts, rates]): Band[] => {
    const bounds = [0, ...[...cuts].sort((a, b) => a - b)];
    return bounds.map((min, i) => ({ min, max: bounds[i + 1] ?? null, rate: rates[i] as number }));
  });
const day = (d: number) => `2026-10-${String(d).padStart(2, '0')}`;
const scenario = fc.record({
  versions: fc.uniqueArray(fc.integer({ min: 1, max: 31 }), { minLength: 1, maxLength: 3 }).chain((days) =>
    fc.tuple(...days.map((d, i) => ladder.map((bands): Version => ({ from: i === 0 ? '2000-01-01' : day(d), bands })))),
  ),
  loads: fc.array(
    fc.record({
      driver: fc.integer({ min: 0, max: 2 }),
      day: fc.integer({ min: 1, max: 31 }),
      quantity: fc.integer({ min: 1, max: 400 }).map((n) => n / 10),
      ownRate: fc.option(fc.integer({ min: 300, max: 700 }), { nil: null }),
      approved: fc.boolean(),
    }),
    { minLength: 1, maxLength: 12 },
  ),
});

/** The reference: WAGES.md's rule, written out here. */
function expectedKop(s: { versions: Version[]; loads: Load[] }, load: Load): number | null {
  if (!load.approved) return null;
  if (load.ownRate !== null) return Math.round(load.quantity * load.ownRate * 100);
  const volume = s.loads.filter((l) => l.approved && l.driver === load.driver).reduce((sum, l) => sum + l.quantity, 0);
  const version = [...s.versions].filter((v) => v.from <= day(load.day)).sort((a, b) => a.from.localeCompare(b.from)).at(-1);
  const band = version?.bands.find((b) => volume + 1e-9 >= b.min && (b.max === null || volume + 1e-9 < b.max));
  return band ? Math.round(load.quantity * band.rate * 100) : 0;
}

describe.each(backends)('money invariants ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  serveSuite(databaseUrl, (server) => {
    s = server;
  });

  it('random months: each load priced by the rule, every view agrees, a closed month does not move', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        const company = await makeCompany(s);
        const admin = await withAccessToken(s, await makeUser(s, 'admin', company));
        const drivers: SignedInUser[] = [];
        for (let i = 0; i < 3; i++) drivers.push(await withAccessToken(s, await makeUser(s, 'driver', company, { name: `Водитель ${i}` })));
        for (const v of sc.versions) {
          for (const b of v.bands) {
            await s.db.kysely.insertInto('progressive_rates').values({ company_id: company, min_quantity: b.min, max_quantity: b.max, rate: b.rate, valid_from: v.from, created_at: nowIso() }).execute();
          }
        }
        for (const l of sc.loads) {
          const association = await addDriver(s, await createTask(s, company, { date: day(l.day), rate: 650.37 }), (drivers[l.driver] as SignedInUser).id, { transport_rate: l.ownRate });
          await addLoad(s, association, l.quantity, { review: l.approved ? 'approved' : 'pending' });
        }
        const get = async <T>(url: string): Promise<T> => (await s.app.inject({ method: 'GET', url: `/api${url}`, headers: admin.auth })).json() as T;
        const period = 'start_date=2026-10-01&end_date=2026-10-31';
        const month = await get<PayrollMonth>(`/payroll/?month=2026-10`);
        const companyWages = await get<CompanyWages>(`/wages/company/${company}?${period}`);

        // Each load as the rule says, to the kopeck; pending ones not paid.
        const expected = sc.loads.map((l) => expectedKop(sc, l)).filter((k): k is number => k !== null);
        const items = (await Promise.all(month.drivers.map((d) => get<PayrollItems>(`/payroll/items?month=2026-10&driver_id=${d.driver_id}`)))).flatMap((answer) => answer.items);
        expect(items.map((i) => Math.round(i.amount * 100)).sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
        expect(month.loads).toBe(expected.length);
        expect(month.pending.loads).toBe(sc.loads.filter((l) => !l.approved).length);
        const totalKop = expected.reduce((a, b) => a + b, 0);
        expect(Math.round(month.total_amount * 100)).toBe(totalKop);
        expect(Math.round(companyWages.total_amount * 100)).toBe(totalKop);

        // Every driver the same in the three views; the drivers sum to the company.
        let sum = 0;
        for (const d of drivers) {
          const own = await get<DriverWages>(`/wages/driver/${d.id}?${period}`);
          const line = month.drivers.find((x) => x.driver_id === d.id);
          const inCompany = companyWages.drivers.find((x) => x.driver_id === d.id);
          expect([own.total_quantity, own.total_amount]).toEqual([line?.quantity ?? 0, line?.total_amount ?? 0]);
          expect(inCompany?.total_amount ?? 0).toBe(own.total_amount);
          sum += Math.round(own.total_amount * 100);
        }
        expect(sum).toBe(totalKop);

        // Closed, then the scale rewritten behind the API: nothing moves.
        expect((await closeAndWait(s.app, admin.auth, { month: '2026-10', confirmed: confirmedOf(month) })).statusCode).toBe(200);
        // The closed month's figures are summed in SQL from its stored lines (revenue rounded per load there too):
        // the same to the kopeck as the open month priced load by load.
        const closed = await get<CompanyWages>(`/wages/company/${company}?${period}`);
        expect(closed.losses.items.every((i) => i.frozen)).toBe(true);
        expect({ ...closed, losses: { ...closed.losses, items: closed.losses.items.map((i) => ({ ...i, frozen: false })) } }).toEqual(companyWages);
        await s.db.kysely.updateTable('progressive_rates').set({ rate: 1 }).where('company_id', '=', company).execute();
        expect(Math.round((await get<PayrollMonth>(`/payroll/?month=2026-10`)).total_amount * 100)).toBe(totalKop);
      }),
      { numRuns: databaseUrl ? 15 : 40 },
    );
  }, 120_000);
});
