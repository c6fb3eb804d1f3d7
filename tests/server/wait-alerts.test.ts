/**
 * The long-wait alert while the wait runs (docs/trips.md «Оповещение о долгом простое»; server/trips/wait-alerts.ts):
 * an arrival without its departure past the company's `long_wait_minutes` alerts the company's staff once, on the
 * change feed; a departure before the threshold, a repeated pass, a second instance, a late offline delivery whose
 * wait had ended: no alert. The job's clock is the test's (`runDue(now)`), no sleeps.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends, type TestServer } from '../fixtures/server.ts';
import { serveSuite } from '../fixtures/suite.ts';
import { call, makePeople, type People, type SignedInUser } from '../fixtures/accounts.ts';
import { addDriver, createTask, dayFromToday } from '../fixtures/tasks.ts';
import { openSse, type SseReader } from '../fixtures/sse.ts';
import { memoryBus } from '../../server/events/bus.ts';
import { startWaitAlertJob, SETTLE_MS } from '../../server/trips/wait-alerts.ts';
import type { AddressedAlert } from '../../server/events/alerts.ts';
import type { StaffAlert } from '../../contract/alerts.ts';
import type { TripStep } from '../../contract/trips.ts';

const MIN = 60_000;
const at = (ms: number) => new Date(ms).toISOString();

describe.each(backends)('long-wait alerts ($name)', ({ databaseUrl }) => {
  let s: TestServer;
  let p: People;
  const open: SseReader[] = [];
  serveSuite(databaseUrl, (server) => void (s = server), { listen: true, config: { eventsHeartbeatMs: 200 } });
  beforeEach(async () => {
    p = await makePeople(s);
  });
  afterEach(() => {
    for (const r of open.splice(0)) r.close();
  });

  async function assignment(companyId: number, driver: SignedInUser, place = 'Карьер Гранит') {
    const task = await createTask(s, companyId, { date: dayFromToday(0), loading_place: place, unloading_place: 'ЖК «Северный»' });
    return addDriver(s, task, driver.id, { status: 'in_progress' });
  }
  async function threshold(companyId: number, admin: SignedInUser, minutes: number) {
    const body = { acceptance_mode: 'none', long_wait_minutes: minutes, geofence_dwell_seconds: 60, no_data_minutes: 90 };
    expect((await call(s, 'PUT', `/api/companies/${companyId}/trip-settings`, { token: admin.token, body })).status).toBe(200);
  }
  /**
   * A step stamped at device time `when`. `receivedAt` plants the server's receipt time (the request's own is now):
   * a live stamp reached the server when it was made.
   */
  async function stamp(uid: string, association: number, step: TripStep, when: number, driver: SignedInUser, receivedAt: number | 'now' = when) {
    const res = await call(s, 'PUT', `/api/trips/${uid}/steps/${step}`, { token: driver.token, body: { association_id: association, at: at(when) } });
    expect(res.status).toBe(201);
    if (receivedAt !== 'now') {
      const report = res.body.report_id as number;
      await s.db.kysely.updateTable('trip_stamps').set({ received_at: at(receivedAt) }).where('report_id', '=', report).where('step', '=', step).execute();
    }
  }
  const ours = (alerts: AddressedAlert[], companyId = p.company) => alerts.filter((a) => a.companyId === companyId);

  it('a wait past the threshold alerts the staff once, on the change feed, with its words', async () => {
    await threshold(p.company, p.admin, 40);
    const association = await assignment(p.company, p.driver);
    const manager = await openSse(`${s.url}/api/events/`, p.manager.auth);
    const stranger = await openSse(`${s.url}/api/events/`, p.otherManager.auth);
    open.push(manager, stranger);
    await manager.next((e) => e.event === 'ready');
    const arrived = Date.now() - 60 * MIN;
    await stamp(randomUUID(), association, 'loading_arrived', arrived, p.driver);

    // Under the threshold: nothing yet.
    expect(ours(await s.app.waitAlerts.runDue(new Date(arrived + 39 * MIN)))).toEqual([]);
    const alerts = ours(await s.app.waitAlerts.runDue(new Date(arrived + 41 * MIN)));
    const expected: StaffAlert = { kind: 'long_wait', text: 'Ожидание на погрузке дольше 40 мин: Иван Петров, Карьер Гранит', url: `/dispatch?date=${dayFromToday(0)}` };
    expect(alerts.map((a) => a.alert)).toEqual([expected]);
    await manager.next((e) => e.event === 'alert');
    expect(manager.events.filter((e) => e.event === 'alert').map((e) => JSON.parse(e.data) as StaffAlert)).toEqual([expected]);
    // The next minutes, and a pass after a restart (the claim is in the database): not again.
    expect(ours(await s.app.waitAlerts.runDue(new Date(arrived + 42 * MIN)))).toEqual([]);
    const restarted = startWaitAlertJob(s.db, memoryBus(), { timer: false });
    expect(ours(await restarted.runDue(new Date(arrived + 50 * MIN)))).toEqual([]);
    await restarted.close();
    expect(stranger.events.filter((e) => e.event === 'alert')).toEqual([]);
  });

  it('a departure stamped before the threshold: no alert; the unloading wait is watched on its own', async () => {
    await threshold(p.company, p.admin, 40);
    const association = await assignment(p.company, p.driver);
    const uid = randomUUID();
    const arrived = Date.now() - 3 * 60 * MIN;
    await stamp(uid, association, 'loading_arrived', arrived, p.driver);
    await stamp(uid, association, 'loading_departed', arrived + 30 * MIN, p.driver);
    await stamp(uid, association, 'unloading_arrived', arrived + 60 * MIN, p.driver);
    expect(ours(await s.app.waitAlerts.runDue(new Date(arrived + 90 * MIN)))).toEqual([]);
    const unloading = ours(await s.app.waitAlerts.runDue(new Date(arrived + 101 * MIN)));
    expect(unloading.map((a) => a.alert.text)).toEqual(['Ожидание на выгрузке дольше 40 мин: Иван Петров, ЖК «Северный»']);
  });

  it('two instances on one database, passes at once and again: one alert', async () => {
    await threshold(p.company, p.admin, 40);
    const association = await assignment(p.company, p.driver);
    const arrived = Date.now() - 60 * MIN;
    await stamp(randomUUID(), association, 'loading_arrived', arrived, p.driver);
    const one = startWaitAlertJob(s.db, memoryBus(), { timer: false });
    const two = startWaitAlertJob(s.db, memoryBus(), { timer: false });
    const when = new Date(arrived + 45 * MIN);
    const results = await Promise.all([one.runDue(when), two.runDue(when), one.runDue(when), two.runDue(when)]);
    expect(ours(results.flat())).toHaveLength(1);
    await Promise.all([one.close(), two.close()]);
  });

  it("each company's own threshold", async () => {
    await threshold(p.company, p.admin, 40);
    // The other company keeps the default, 60 min.
    const ours_ = await assignment(p.company, p.driver);
    const theirs = await assignment(p.otherCompany, p.otherDriver, 'Карьер Южный');
    const arrived = Date.now() - 90 * MIN;
    await stamp(randomUUID(), ours_, 'loading_arrived', arrived, p.driver);
    await stamp(randomUUID(), theirs, 'loading_arrived', arrived, p.otherDriver);
    const at45 = await s.app.waitAlerts.runDue(new Date(arrived + 45 * MIN));
    expect(ours(at45)).toHaveLength(1);
    expect(ours(at45, p.otherCompany)).toEqual([]);
    const at61 = await s.app.waitAlerts.runDue(new Date(arrived + 61 * MIN));
    expect(ours(at61)).toEqual([]);
    expect(ours(at61, p.otherCompany).map((a) => a.alert.text)).toEqual([expect.stringMatching(/^Ожидание на погрузке дольше 60 мин: .+, Карьер Южный$/)]);
  });

  it('an arrival delivered late from offline: weighed only once its trip had time to arrive; a wait that ended offline never alerts', async () => {
    await threshold(p.company, p.admin, 40);
    const association = await assignment(p.company, p.driver);
    const now = Date.now();
    // Stamped offline two hours ago, reaching the server now, its departure right behind it.
    const ended = randomUUID();
    await stamp(ended, association, 'loading_arrived', now - 120 * MIN, p.driver, now);
    expect(ours(await s.app.waitAlerts.runDue(new Date(now + MIN)))).toEqual([]);
    await stamp(ended, association, 'loading_departed', now - 100 * MIN, p.driver, now + MIN);
    expect(ours(await s.app.waitAlerts.runDue(new Date(now + SETTLE_MS + 2 * MIN)))).toEqual([]);

    // Stamped offline an hour ago, no departure behind it: still waiting, alerted once it has settled on the server.
    const other = await assignment(p.company, p.driver2, 'Карьер Северный');
    await stamp(randomUUID(), other, 'loading_arrived', now - 60 * MIN, p.driver2, now);
    expect(ours(await s.app.waitAlerts.runDue(new Date(now + MIN)))).toEqual([]);
    const settled = ours(await s.app.waitAlerts.runDue(new Date(now + SETTLE_MS)));
    expect(settled.map((a) => a.alert.text)).toEqual(['Ожидание на погрузке дольше 40 мин: Сергей Смирнов, Карьер Северный']);
  });
});
