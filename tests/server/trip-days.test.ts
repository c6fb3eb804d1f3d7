/**
 * Trips per day with their cycle times and waits (GET /tasks/trip-days/; docs/trips.md «Рейсы по дням») on planted
 * timelines: the figures per driver and day and per task, the period's bounds, another company's trips not counted,
 * bad periods refused in Russian.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask } from '../fixtures/tasks.ts';
import type { TripDays } from '../../contract/calls/trips.ts';
import type { TripStep } from '../../contract/trips.ts';

const DAY = '2026-10-05';

describe.each(backends)('trips per day ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  serveSuite(databaseUrl, async (server) => {
    s = server;
    p = await makePeople(server);
  });

  async function assignment(companyId: number, driver: SignedInUser, date = DAY) {
    const task = await createTask(s, companyId, { date });
    return { task, association: await addDriver(s, task, driver.id, { status: 'in_progress' }) };
  }
  /** A trip's stamps at the given device times (any subset of the steps, in order). */
  async function trip(association: number, driver: SignedInUser, stamps: Partial<Record<TripStep, string>>) {
    const uid = randomUUID();
    for (const [step, at] of Object.entries(stamps)) {
      expect((await call(s, 'PUT', `/api/trips/${uid}/steps/${step}`, { token: driver.token, body: { association_id: association, at } })).status).toBe(201);
    }
  }
  const days = async (query: string, user = p.manager) => call<TripDays>(s, 'GET', `/api/tasks/trip-days/?${query}`, { token: user.token });

  it("a day's trips per driver and per task: counts, median and mean cycle, waits at loading and unloading", async () => {
    const one = await assignment(p.company, p.driver);
    const two = await assignment(p.company, p.driver);
    await trip(one.association, p.driver, { loading_arrived: `${DAY}T08:00:00Z`, loading_departed: `${DAY}T08:20:00Z`, unloading_arrived: `${DAY}T09:00:00Z`, unloading_departed: `${DAY}T09:10:00Z` });
    // Device time with its offset: 09:40 UTC.
    await trip(one.association, p.driver, { loading_arrived: `${DAY}T12:40:00+03:00`, loading_departed: `${DAY}T10:10:00Z`, unloading_arrived: `${DAY}T10:50:00Z`, unloading_departed: `${DAY}T11:05:00Z` });
    await trip(two.association, p.driver, { loading_arrived: `${DAY}T11:30:00Z`, loading_departed: `${DAY}T11:40:00Z` });
    await trip(two.association, p.driver, { loading_arrived: `${DAY}T12:30:00Z` });
    // Another driver's one trip that day; a trip of the next day (outside the period); another company's trip.
    const other = await assignment(p.company, p.driver2);
    await trip(other.association, p.driver2, { loading_arrived: `${DAY}T07:00:00Z`, loading_departed: `${DAY}T08:30:00Z` });
    const later = await assignment(p.company, p.driver, '2026-10-06');
    await trip(later.association, p.driver, { loading_arrived: '2026-10-06T08:00:00Z' });
    const theirs = await assignment(p.otherCompany, p.otherDriver);
    await trip(theirs.association, p.otherDriver, { loading_arrived: `${DAY}T08:00:00Z` });

    const res = await days(`start_date=${DAY}&end_date=${DAY}`);
    expect(res.status).toBe(200);
    expect(res.body.company_id).toBe(p.company);
    expect(res.body.days).toEqual([
      {
        date: DAY,
        driver_id: p.driver.id,
        driver_name: 'Иван Петров',
        // Cycles 100, 110 and 60 min: the median 100, the mean 90. Loading waits 20 + 30 + 10; unloading 10 + 15.
        trips: 4,
        cycles: 3,
        cycle_median_min: 100,
        cycle_avg_min: 90,
        loading_wait_total_min: 60,
        loading_wait_avg_min: 20,
        unloading_wait_total_min: 25,
        unloading_wait_avg_min: 13,
        tasks: [
          { task_id: one.task, trips: 2, cycles: 2, cycle_median_min: 105, cycle_avg_min: 105, loading_wait_total_min: 50, loading_wait_avg_min: 25, unloading_wait_total_min: 25, unloading_wait_avg_min: 13 },
          { task_id: two.task, trips: 2, cycles: 1, cycle_median_min: 60, cycle_avg_min: 60, loading_wait_total_min: 10, loading_wait_avg_min: 10, unloading_wait_total_min: 0, unloading_wait_avg_min: null },
        ],
      },
      {
        date: DAY,
        driver_id: p.driver2.id,
        driver_name: 'Сергей Смирнов',
        trips: 1,
        cycles: 0,
        cycle_median_min: null,
        cycle_avg_min: null,
        loading_wait_total_min: 90,
        loading_wait_avg_min: 90,
        unloading_wait_total_min: 0,
        unloading_wait_avg_min: null,
        tasks: [{ task_id: other.task, trips: 1, cycles: 0, cycle_median_min: null, cycle_avg_min: null, loading_wait_total_min: 90, loading_wait_avg_min: 90, unloading_wait_total_min: 0, unloading_wait_avg_min: null }],
      },
    ]);
    // The two days: the next day's trip is its own row.
    const both = await days(`start_date=${DAY}&end_date=2026-10-06`);
    expect(both.body.days.map((d) => [d.date, d.driver_id, d.trips])).toEqual([
      [DAY, p.driver.id, 4],
      [DAY, p.driver2.id, 1],
      ['2026-10-06', p.driver.id, 1],
    ]);
    // The other company sees its own trip only; a super-admin names the company.
    expect((await days(`start_date=${DAY}&end_date=${DAY}`, p.otherManager)).body.days.map((d) => d.driver_id)).toEqual([p.otherDriver.id]);
    expect((await days(`start_date=${DAY}&end_date=${DAY}&company_id=${p.company}`, p.superAdmin)).body.days).toHaveLength(2);
  });

  it('a period without stamped trips answers no days; a bad or too long period is refused in Russian', async () => {
    expect((await days('start_date=2026-01-01&end_date=2026-01-31')).body.days).toEqual([]);
    const reversed = await days('start_date=2026-02-01&end_date=2026-01-31');
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body)).toContain('раньше, чем start_date');
    const long = await days('start_date=2025-01-01&end_date=2026-01-31');
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('период не длиннее 366 дней');
    expect((await days('end_date=2026-01-31')).status).toBe(400);
    expect((await days(`start_date=${DAY}&end_date=${DAY}&company_id=${p.otherCompany}`)).status).toBe(404);
  });
});
