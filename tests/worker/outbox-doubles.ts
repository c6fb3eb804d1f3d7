/**
 * Doubles for the outbox tests: a fake clock, network and user, a FIFO Web Lock manager, and a report
 * server that stores by Idempotency-Key like the real one. The database is a real idb over fake-indexeddb.
 */
import 'fake-indexeddb/auto';
import type { EngineDb, OutboxRecord } from '../../worker/db.ts';
import { createOutbox, type Outbox, type OutboxDeps, type SendResult } from '../../worker/outbox.ts';
import type { NewReport } from '../../worker/api.ts';
import type { Clock, Locks, NetworkStatus } from '../../worker/ports.ts';
import type { EngineStore } from '../../worker/store.ts';
import { trackedStore } from './harness.ts';

export const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);

export interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Grants each lock name to one holder at a time, in request order (as navigator.locks does). */
export function fifoLocks(): Locks {
  const tails = new Map<string, Promise<void>>();
  return {
    async request<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const mine = deferred();
      tails.set(name, previous.then(() => mine.promise));
      await previous;
      try {
        return await fn();
      } finally {
        mine.resolve();
      }
    },
  };
}

/** A lock that excludes nothing: shows what one engine guarantees on its own. */
export const noLocks: Locks = { request: (_name, fn) => fn() };

export type Answer = SendResult | 'network' | { status: number; message: string };

export interface SentCall {
  key: string;
  association_id: number;
  photos: Blob[];
}

/** POST /reports/ as the real server behaves: one report per Idempotency-Key, the stored one on a repeat. */
export class ServerDouble {
  readonly reports = new Map<string, { id: number; association_id: number }>();
  readonly calls: SentCall[] = [];
  /** Answers for the next calls, in order; when empty, the report is stored and 201 answered. */
  readonly script: Answer[] = [];
  assigned: number[] | null = [];
  inFlight = 0;
  maxInFlight = 0;
  /** While set, every send waits for it (an upload in progress). */
  hold: Deferred | null = null;
  /** Runs during the send, after the request "left" (e.g. to go offline or report progress). */
  during: ((onProgress: (p: number) => void) => void) | null = null;

  send = async (record: OutboxRecord, photos: Blob[], onProgress: (p: number) => void): Promise<SendResult> => {
    this.calls.push({ key: record.idempotencyKey, association_id: record.association_id, photos });
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      this.during?.(onProgress);
      if (this.hold) await this.hold.promise;
      const answer = this.script.shift();
      if (answer === 'network') return { ok: false, network: true, status: null, message: 'Network Error' };
      if (answer && 'status' in answer && !('ok' in answer)) {
        return { ok: false, network: false, status: answer.status, message: answer.message };
      }
      if (answer) return answer as SendResult;
      let report = this.reports.get(record.idempotencyKey);
      if (!report) {
        report = { id: this.reports.size + 1, association_id: record.association_id };
        this.reports.set(record.idempotencyKey, report);
      }
      return { ok: true, data: { id: report.id } };
    } finally {
      this.inFlight -= 1;
    }
  };

  sendsPerKey(): number[] {
    const counts = new Map<string, number>();
    for (const call of this.calls) counts.set(call.key, (counts.get(call.key) ?? 0) + 1);
    return [...counts.values()];
  }
}

/** A timer the outbox set on the harness's clock; `cleared` once it was cleared. */
export interface TimerCall {
  fn: () => void;
  ms: number;
  interval: boolean;
  cleared: boolean;
}

export interface Harness {
  /** The store's first connection: reads for assertions, spies. */
  db: EngineDb;
  store: EngineStore;
  dbName: string;
  /** The time the outbox reads; tests move it by hand. */
  clock: { now: number };
  /** Every timer the outbox set, in order. */
  timers: TimerCall[];
  /** The network the schedule listens to: `changed()` tells it (online follows `online.value`). */
  network: NetworkStatus & { changed(): void };
  online: { value: boolean };
  user: { id: number | null };
  server: ServerDouble;
  notes: string[];
  changes: { count: number };
  outbox: Outbox;
  /** Another engine (tab, dedicated worker, service worker) on the same database. */
  engine(overrides?: Partial<OutboxDeps>): Outbox;
}

let dbCounter = 0;

export async function setup(overrides: Partial<OutboxDeps> = {}): Promise<Harness> {
  const dbName = `outbox-test-${++dbCounter}`;
  const { store, connections } = trackedStore(dbName);
  await store.outbox.all();
  const db = connections[0] as EngineDb;
  const clock = { now: T0 };
  const online = { value: true };
  const user = { id: 7 as number | null };
  const server = new ServerDouble();
  const notes: string[] = [];
  const changes = { count: 0 };
  const locks = fifoLocks();
  const timers: TimerCall[] = [];
  const setTimer = (fn: () => void, ms: number, interval: boolean) => timers.push({ fn, ms, interval, cleared: false }) - 1;
  const clearTimer = (handle: unknown) => {
    const timer = timers[handle as number];
    if (timer) timer.cleared = true;
  };
  const timerClock: Clock = {
    now: () => clock.now,
    setTimeout: (fn, ms) => setTimer(fn, ms, false),
    clearTimeout: clearTimer,
    setInterval: (fn, ms) => setTimer(fn, ms, true),
    clearInterval: clearTimer,
  };
  const listeners = new Set<() => void>();
  const network = {
    online: () => online.value,
    effectiveType: () => null,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed: () => listeners.forEach((listener) => listener()),
  };
  const engine = (more: Partial<OutboxDeps> = {}): Outbox =>
    createOutbox({
      store: store.outbox,
      clock: timerClock,
      isOnline: () => online.value,
      userId: () => user.id,
      locks,
      sendReport: server.send,
      assignedAssociationIds: () => Promise.resolve(server.assigned && [...server.assigned]),
      onChange: () => (changes.count += 1),
      notify: (message) => notes.push(message),
      compress: (photo) => Promise.resolve(photo),
      ...overrides,
      ...more,
    });
  return { db, store, dbName, clock, timers, network, online, user, server, notes, changes, outbox: engine(), engine };
}

export function photo(text: string): Blob {
  return new Blob([text], { type: 'image/jpeg' });
}

export function report(associationId: number, photos: Blob[] = [], extra: Partial<NewReport> = {}): NewReport {
  return {
    association_id: associationId,
    quantity: 12.5,
    total_loading_quantity: null,
    total_unloading_quantity: null,
    unloadingIsBuyer: 0,
    loadingIsBuyer: 0,
    photos,
    ...extra,
  };
}

/** Queues a report and answers its id, failing the test if it was not queued. */
export async function queue(outbox: Outbox, newReport: NewReport): Promise<number> {
  const result = await outbox.queueReport(newReport);
  if (!result.ok) throw new Error(`not queued: ${result.message}`);
  return result.data;
}

export async function photoTexts(db: EngineDb, outboxId: number): Promise<string[]> {
  const photos = await db.getAllFromIndex('photos', 'byOutbox', outboxId);
  return Promise.all(photos.sort((a, b) => (a.id ?? 0) - (b.id ?? 0)).map((p) => p.blob.text()));
}
