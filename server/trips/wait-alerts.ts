/**
 * The long-wait alert while the wait runs (issue 32; docs/trips.md «Оповещение о долгом простое»): a driver stamped
 * his arrival at loading (or unloading) and not yet his departure, and the company's `long_wait_minutes` have passed
 * since the arrival → the company's staff get one alert of kind `long_wait` on the change feed («Ожидание на
 * погрузке дольше 40 мин: Иван Петров, Карьер Гранит»), as the writes' alerts travel (server/events/alerts.ts).
 *
 * A timer runs a pass every minute (and 10 s after start). A pass reads the running waits (an arrival whose trip has
 * no later step, received in the last 12 hours, not yet alerted) and, for each past its threshold, claims it by
 * setting the stamp's `wait_alerted_at` in one conditional UPDATE (`IS NULL`): of two instances on one database, or a
 * pass repeated after a restart, only one raises it. The state is in the database, so a restart loses nothing either:
 * the next pass finds the wait still running and unclaimed. At most once: an instance stopped between its claim and
 * the publish loses that one alert (the feed keeps no alerts for later anyway).
 *
 * Times: the wait is measured from the arrival's device time (`at`, what the driver saw) to the server's clock. An
 * arrival that reaches the server late (stamped offline) is only looked at once it has been on the server for
 * `SETTLE_MS`: the outbox sends a trip's later steps right behind it, so a wait that ended offline has its departure
 * here by then and is never alerted. A wait that ends offline after the threshold but before the phone is back is
 * alerted: the server cannot know.
 */
import type { Db } from '../db/connect.ts';
import type { ChangeBus } from '../events/bus.ts';
import { alertChange, type AddressedAlert } from '../events/alerts.ts';
import type { TripStep } from '../../contract/trips.ts';
import { parseTripSettings } from './settings.ts';

const EVERY_MS = 60_000;
const FIRST_MS = 10_000;
/** An arrival is weighed only after it has been this long on the server (its trip's later steps had time to come). */
export const SETTLE_MS = 5 * 60_000;
/** Arrivals received longer ago than this are not looked at (a departure never stamped must not alert days later). */
const LOOKBACK_MS = 12 * 3_600_000;

/** The steps that end the wait begun by each arrival. */
const ENDS: Record<'loading_arrived' | 'unloading_arrived', TripStep[]> = {
  loading_arrived: ['loading_departed', 'unloading_arrived', 'unloading_departed'],
  unloading_arrived: ['unloading_departed'],
};

export interface WaitAlertJob {
  /** One pass at `now` (tests call it with a clock of their choice): the alerts it raised. */
  runDue(now?: Date): Promise<AddressedAlert[]>;
  close(): Promise<void>;
}

/**
 * The running waits: arrivals received since `since` with no later step of their trip and no alert yet. The device
 * time's date bounds the read on the (step, at) index first (a device time carries its own offset, so its text is
 * compared by date only, two days early), so a pass never scans years of stamps.
 */
async function runningWaits(db: Db, since: string) {
  const fromDay = new Date(Date.parse(since) - 2 * 86_400_000).toISOString().slice(0, 10);
  return db.kysely
    .selectFrom('trip_stamps as s')
    .innerJoin('reports as r', 'r.id', 's.report_id')
    .innerJoin('task_drivers as td', 'td.id', 'r.association_id')
    .innerJoin('tasks as t', 't.id', 'td.task_id')
    .innerJoin('users as u', 'u.id', 'r.driver_id')
    .innerJoin('companies as c', 'c.id', 't.company_id')
    .select(['s.id', 's.step', 's.at', 's.received_at', 'u.name', 't.company_id', 't.date', 't.loading_place', 't.unloading_place', 'c.trip_settings'])
    .where('s.step', 'in', ['loading_arrived', 'unloading_arrived'])
    .where('s.at', '>=', fromDay)
    .where('s.wait_alerted_at', 'is', null)
    .where('s.received_at', '>=', since)
    .where('td.status', '!=', 'cancelled')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('trip_stamps as e')
            .select('e.id')
            .whereRef('e.report_id', '=', 's.report_id')
            .where((w) =>
              w.or([
                w.and([w('s.step', '=', 'loading_arrived'), w('e.step', 'in', ENDS.loading_arrived)]),
                w.and([w('s.step', '=', 'unloading_arrived'), w('e.step', 'in', ENDS.unloading_arrived)]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('s.id')
    .execute();
}

export function startWaitAlertJob(db: Db, bus: ChangeBus, { timer = true, clock = () => new Date() } = {}): WaitAlertJob {
  let running: Promise<AddressedAlert[]> = Promise.resolve([]);
  let closed = false;

  async function pass(now: Date): Promise<AddressedAlert[]> {
    const nowMs = now.getTime();
    const raised: AddressedAlert[] = [];
    for (const wait of await runningWaits(db, new Date(nowMs - LOOKBACK_MS).toISOString())) {
      if (closed) break;
      const threshold = parseTripSettings(wait.trip_settings).long_wait_minutes;
      const arrived = Date.parse(wait.at);
      if (!(nowMs - arrived > threshold * 60_000) || nowMs - Date.parse(wait.received_at) < SETTLE_MS) continue;
      const claim = await db.kysely
        .updateTable('trip_stamps')
        .set({ wait_alerted_at: now.toISOString() })
        .where('id', '=', wait.id)
        .where('wait_alerted_at', 'is', null)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue; // another instance raised it
      const loading = wait.step === 'loading_arrived';
      const where = loading ? 'на погрузке' : 'на выгрузке';
      const place = loading ? wait.loading_place : wait.unloading_place;
      const alert: AddressedAlert = {
        companyId: wait.company_id,
        alert: { kind: 'long_wait', text: `Ожидание ${where} дольше ${threshold} мин: ${wait.name}${place ? `, ${place}` : ''}`, url: `/dispatch?date=${wait.date}` },
      };
      bus.publish(alertChange(alert));
      raised.push(alert);
    }
    return raised;
  }

  function runDue(now = clock()): Promise<AddressedAlert[]> {
    // One pass at a time in this process.
    running = running.catch(() => []).then(() => (closed ? [] : pass(now)));
    return running;
  }

  const tick = () => void runDue().catch((error: unknown) => console.error('long-wait alerts failed', error));
  const first = timer ? setTimeout(tick, FIRST_MS) : null;
  const every = timer ? setInterval(tick, EVERY_MS) : null;
  first?.unref();
  every?.unref();

  return {
    runDue,
    async close() {
      closed = true;
      if (first) clearTimeout(first);
      if (every) clearInterval(every);
      await running.catch(() => undefined);
    },
  };
}
