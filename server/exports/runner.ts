/**
 * Runs export jobs inside the server process, one at a time: woken when a job is created, and every few
 * seconds for jobs another instance queued. Jobs a dead process left 'running' (no heartbeat for a minute) end
 * as failed, looked for at start and every half minute; at close, the job in hand stops and ends failed (its
 * client may start it again).
 */
import type { Db } from '../db/connect.ts';
import type { FileStorage } from '../files/storage.ts';
import { claimNext, failInterrupted, runJob, sweepExpired } from './jobs.ts';

export interface ExportRunner {
  kick(): void;
  close(): Promise<void>;
}

const POLL_MS = 5_000;
const REAP_MS = 30_000;
const UNFINISHED_AFTER_MS = 60 * 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;

export function startExportRunner(db: Db, storage: FileStorage, retentionDays: number): ExportRunner {
  const stop = new AbortController();
  let running: Promise<void> | null = null;
  let again = false;

  async function drain(): Promise<void> {
    do {
      again = false;
      for (;;) {
        if (stop.signal.aborted) return;
        const id = await claimNext(db);
        if (id === null) break;
        await runJob(db, storage, id, stop.signal);
      }
    } while (again && !stop.signal.aborted);
  }

  function kick(): void {
    if (stop.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => console.error('export runner failed', error))
      .finally(() => {
        running = null;
      });
  }

  const ready = failInterrupted(db)
    .then(() => sweepExpired(db, storage, retentionDays))
    // Half-written photos and exports of a killed process (a live one keeps touching its own).
    .then(() => storage.sweepUnfinished(UNFINISHED_AFTER_MS))
    .then(() => kick())
    .catch((error: unknown) => console.error('export runner start failed', error));
  const poll = setInterval(kick, POLL_MS);
  poll.unref();
  const reap = setInterval(() => void failInterrupted(db).catch(() => undefined), REAP_MS);
  reap.unref();
  const sweep = setInterval(
    () =>
      void sweepExpired(db, storage, retentionDays)
        .then(() => storage.sweepUnfinished(UNFINISHED_AFTER_MS))
        .catch(() => undefined),
    SWEEP_MS,
  );
  sweep.unref();

  return {
    kick,
    async close() {
      stop.abort();
      clearInterval(poll);
      clearInterval(sweep);
      clearInterval(reap);
      await ready;
      await running;
    },
  };
}
