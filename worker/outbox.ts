/**
 * The report outbox (SPEC.md sections 3, 4, 9; ARCHITECTURE.md "The report outbox"): reports queued on the
 * device and delivered exactly once. Every browser primitive comes in through `OutboxDeps`, so the same code
 * runs in the SharedWorker, in a dedicated worker per tab, in the service worker and in Vitest.
 *
 * Exactly once, by construction:
 * - every flush, in every context, runs under the Web Lock 'outbox-flush', and inside one engine only one
 *   flush runs at a time; the batch is read from IndexedDB after the lock is granted;
 * - an item is marked sent right where its success was observed, in a strict transaction;
 * - a crash between the server's 201 and that mark sends it again with the same Idempotency-Key, and the
 *   server answers with the report it already stored.
 */
import { v4 as uuidv4 } from 'uuid';
import type { IDBPTransaction } from 'idb';
import type { EngineDb, EngineSchema, OutboxRecord } from './db.ts';
import type { NewReport, OutboxItemState, OutboxItemView, OutboxSnapshot, Result } from './api.ts';
import { compressPhoto } from './images.ts';
import { photoName } from './report-form.ts';

export const FLUSH_LOCK = 'outbox-flush';
export const FLUSH_INTERVAL_MS = 60_000;
/** Counted (non-network) failures after which an item is given up, when they happen while online. */
export const MAX_ATTEMPTS = 10;

export function retryDelayMs(attempts: number): number {
  return 2 ** attempts * 1000;
}

export type SendResult =
  | { ok: true; reportId: number }
  | { ok: false; network: boolean; status: number | null; message: string };

export interface LockManagerLike {
  request<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export interface OutboxDeps {
  db: EngineDb;
  now(): number;
  /** navigator.onLine and not in offline mode. */
  isOnline(): boolean;
  userId(): number | null;
  locks: LockManagerLike;
  /** Multipart POST /reports/ (buildReportForm) with the Idempotency-Key header; `onProgress` gets 0..1. */
  sendReport(record: OutboxRecord, photos: Blob[], onProgress: (progress: number) => void): Promise<SendResult>;
  /** The association ids of GET /tasks/assigned/, or null when that call failed. */
  assignedAssociationIds(): Promise<number[] | null>;
  /** Something in the outbox changed: push a new snapshot. */
  onChange(): void;
  /** Tell the driver (a toast), in Russian. */
  notify(message: string): void;
  /** Defaults to compressPhoto; tests pass a double. */
  compress?(photo: Blob): Promise<Blob>;
}

export interface OutboxScheduler {
  setInterval(fn: () => void, ms: number): unknown;
  addEventListener(type: 'online', fn: () => void): void;
}

export interface Outbox {
  queueReport(report: NewReport): Promise<Result<number>>;
  /** Sends what is due; resolves when this engine's flush (and any flush asked for meanwhile) is over. */
  flush(): Promise<void>;
  /** Fire-and-forget flush for timers, 'online', 'visibilitychange', and the service worker's sync events. */
  triggerFlush(): void;
  /** Deletes the sent items whose association left /tasks/assigned/; answers them, marked resolved. */
  resolve(): Promise<OutboxRecord[]>;
  discard(id: number): Promise<void>;
  /** Re-reads the store, for changes made by another engine or the service worker. */
  reload(): Promise<void>;
  snapshot(): OutboxSnapshot;
  start(scheduler: OutboxScheduler): void;
}

const STORES: ['outbox', 'photos'] = ['outbox', 'photos'];
type Tx = IDBPTransaction<EngineSchema, typeof STORES, 'readwrite'>;

const byAge = (a: OutboxRecord, b: OutboxRecord): number => a.createdAt - b.createdAt || (a.id ?? 0) - (b.id ?? 0);

const failure = (message: string): Result<number> => ({ ok: false, message, status: null, network: false });

/** Progress pushes are throttled: an upload reports far more often than a tab needs to redraw. */
const PROGRESS_STEP = 0.05;

export function createOutbox(deps: OutboxDeps): Outbox {
  const { db } = deps;
  const compress = deps.compress ?? ((photo: Blob) => compressPhoto(photo));
  let records: OutboxRecord[] = [];
  let flushing: Promise<void> | null = null;
  let flushAgain = false;
  let sending: { id: number; progress: number } | null = null;
  let started = false;

  /** Writes use durability 'strict': a report the driver saw as queued must survive a crash. */
  async function write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const tx = db.transaction(STORES, 'readwrite', { durability: 'strict' });
    // Observed below; this keeps an abort caused by fn's own error from also surfacing as unhandled.
    tx.done.catch(() => {});
    const result = await fn(tx);
    await tx.done;
    return result;
  }

  /** Deletes a record and every photo bound to its id (also any the record's list lost track of). */
  async function removeWithPhotos(tx: Tx, id: number): Promise<void> {
    const photos = tx.objectStore('photos');
    for (const key of await photos.index('byOutbox').getAllKeys(id)) await photos.delete(key);
    await tx.objectStore('outbox').delete(id);
  }

  async function reload(): Promise<void> {
    records = await db.getAll('outbox');
    deps.onChange();
  }

  async function queueReport(report: NewReport): Promise<Result<number>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему, чтобы отправить отчёт');
    if (!Number.isInteger(report.association_id) || report.association_id <= 0) {
      return failure('Не указано задание для отчёта');
    }
    try {
      const photos: Blob[] = [];
      // One at a time: a decoded 12 MP photo is ~48 MB, and phones are short of memory.
      for (const photo of report.photos) photos.push(await compress(photo));
      const now = deps.now();
      const record: OutboxRecord = {
        association_id: report.association_id,
        quantity: report.quantity,
        total_unloading_quantity: report.total_unloading_quantity,
        total_loading_quantity: report.total_loading_quantity,
        flags: { unloadingIsBuyer: report.unloadingIsBuyer, loadingIsBuyer: report.loadingIsBuyer },
        photos: [],
        attempts: 0,
        nextAttemptAt: now,
        sent: false,
        sentAt: null,
        resolved: false,
        idempotencyKey: uuidv4(),
        completedAt: new Date(now).toISOString(),
        createdAt: now,
        lastError: null,
        userId,
      };
      const id = await write(async (tx) => {
        const outbox = tx.objectStore('outbox');
        const newId = await outbox.add(record);
        const photoIds: number[] = [];
        for (const [index, blob] of photos.entries()) {
          photoIds.push(await tx.objectStore('photos').add({ outboxId: newId, blob, name: photoName(blob, index), type: blob.type }));
        }
        await outbox.put({ ...record, id: newId, photos: photoIds });
        return newId;
      });
      await reload();
      if (started) triggerFlush();
      return { ok: true, data: id };
    } catch (error) {
      console.error('queueing a report failed', error);
      return failure('Не удалось сохранить отчёт на устройстве');
    }
  }

  async function loadPhotos(record: OutboxRecord): Promise<Blob[]> {
    const found = await Promise.all(record.photos.map((id) => db.get('photos', id)));
    return found.flatMap((photo) => (photo ? [photo.blob] : []));
  }

  /** Applies `change` to the stored record, if it is still there (a discard wins over a late answer). */
  function update(id: number, change: (record: OutboxRecord) => OutboxRecord): Promise<void> {
    return write(async (tx) => {
      const stored = await tx.objectStore('outbox').get(id);
      if (stored) await tx.objectStore('outbox').put(change(stored));
    });
  }

  function giveUpMessage(record: OutboxRecord, reason: string): string {
    const when = new Date(record.completedAt).toLocaleString('ru-RU', { dateStyle: 'short', timeStyle: 'short' });
    return `Отчёт от ${when} не принят сервером после ${MAX_ATTEMPTS} попыток и удалён. Причина: ${reason}`;
  }

  /** Sends one item; answers false when the network failed and the batch should stop. */
  async function sendOne(id: number): Promise<boolean> {
    const record = await db.get('outbox', id);
    if (!record || record.sent) return true;
    const photos = await loadPhotos(record);
    sending = { id, progress: 0 };
    deps.onChange();
    let result: SendResult;
    try {
      result = await deps.sendReport(record, photos, (progress) => {
        if (sending?.id !== id) return;
        const clamped = Math.min(1, Math.max(0, progress));
        if (clamped - sending.progress < PROGRESS_STEP && clamped < 1) return;
        sending.progress = clamped;
        deps.onChange();
      });
    } catch (error) {
      // The sender is meant to answer, not throw; a throw tells us nothing about the report, so it does not count.
      result = { ok: false, network: true, status: null, message: String(error) };
    } finally {
      sending = null;
    }
    const now = deps.now();
    if (result.ok) {
      await update(id, (r) => ({ ...r, sent: true, sentAt: now, lastError: null }));
      return true;
    }
    if (result.network) {
      await update(id, (r) => ({ ...r, nextAttemptAt: now + retryDelayMs(r.attempts) }));
      return false;
    }
    const reason = result.message;
    const gaveUp = await write(async (tx) => {
      const stored = await tx.objectStore('outbox').get(id);
      if (!stored) return null;
      const attempts = stored.attempts + 1;
      // Offline, a failure says more about the connection than about the report: keep it.
      if (attempts >= MAX_ATTEMPTS && deps.isOnline()) {
        await removeWithPhotos(tx, id);
        return stored;
      }
      await tx.objectStore('outbox').put({ ...stored, attempts, lastError: reason, nextAttemptAt: now + retryDelayMs(attempts) });
      return null;
    });
    if (gaveUp) deps.notify(giveUpMessage(gaveUp, reason));
    return true;
  }

  /** One batch: what is due for the signed-in user when the lock was granted, oldest first, one by one. */
  async function runBatch(): Promise<void> {
    const userId = deps.userId();
    if (userId === null || !deps.isOnline()) return;
    const now = deps.now();
    const batch = (await db.getAll('outbox'))
      .filter((r) => r.userId === userId && !r.sent && r.nextAttemptAt <= now)
      .sort(byAge);
    for (const item of batch) {
      if (!deps.isOnline() || deps.userId() !== userId) break;
      const goOn = await sendOne(item.id as number);
      await reload();
      if (!goOn) break;
    }
    await resolve();
  }

  function flush(): Promise<void> {
    if (flushing) {
      // Whoever asked during a batch may have queued something the batch did not see: run once more after it.
      flushAgain = true;
      return flushing;
    }
    flushing = (async () => {
      try {
        do {
          flushAgain = false;
          await deps.locks.request(FLUSH_LOCK, runBatch);
        } while (flushAgain);
      } finally {
        flushing = null;
        deps.onChange();
      }
    })();
    deps.onChange();
    return flushing;
  }

  function triggerFlush(): void {
    flush().catch((error: unknown) => console.warn('outbox flush failed', error));
  }

  async function resolve(): Promise<OutboxRecord[]> {
    const userId = deps.userId();
    if (userId === null) return [];
    const sent = (await db.getAll('outbox')).filter((r) => r.userId === userId && r.sent);
    if (sent.length === 0) return [];
    const assigned = await deps.assignedAssociationIds();
    if (assigned === null) return [];
    const stillAssigned = new Set(assigned);
    const gone = sent.filter((r) => !stillAssigned.has(r.association_id));
    if (gone.length === 0) return [];
    const resolved = await write(async (tx) => {
      const done: OutboxRecord[] = [];
      for (const record of gone) {
        const stored = await tx.objectStore('outbox').get(record.id as number);
        if (!stored?.sent) continue;
        await removeWithPhotos(tx, record.id as number);
        done.push({ ...stored, resolved: true });
      }
      return done;
    });
    await reload();
    return resolved;
  }

  async function discard(id: number): Promise<void> {
    // An upload already under way may still reach the server; its late answer then finds no record to mark.
    await write((tx) => removeWithPhotos(tx, id));
    await reload();
  }

  function stateOf(record: OutboxRecord, now: number): OutboxItemState {
    if (sending?.id === record.id) return 'sending';
    if (record.sent) return 'sent';
    if (record.lastError !== null) return 'failed';
    return record.nextAttemptAt > now ? 'retry' : 'waiting';
  }

  function snapshot(): OutboxSnapshot {
    const userId = deps.userId();
    const now = deps.now();
    const current = sending;
    const mine = records.filter((r) => userId !== null && r.userId === userId && !r.resolved).sort(byAge);
    const items = mine.map(
      (r): OutboxItemView => ({
        id: r.id as number,
        association_id: r.association_id,
        state: stateOf(r, now),
        attempts: r.attempts,
        nextAttemptAt: r.sent ? null : r.nextAttemptAt,
        sentAt: r.sentAt,
        lastError: r.lastError,
        photoCount: r.photos.length,
        createdAt: r.createdAt,
        progress: current && current.id === r.id ? current.progress : null,
      }),
    );
    return { pending: mine.filter((r) => !r.sent).length, flushing: flushing !== null, items };
  }

  function start(scheduler: OutboxScheduler): void {
    if (started) return;
    started = true;
    scheduler.setInterval(triggerFlush, FLUSH_INTERVAL_MS);
    scheduler.addEventListener('online', triggerFlush);
    reload().then(triggerFlush, (error: unknown) => console.warn('reading the outbox failed', error));
  }

  return { queueReport, flush, triggerFlush, resolve, discard, reload, snapshot, start };
}
