/**
 * The outbox's IndexedDB side (worker/store.ts `OutboxStore`): records and their photos, written together in
 * strict transactions. Photos are bound to their record's id (never to "the current task"), so deleting a record
 * takes exactly its own photos with it. Also the shape of a new record.
 */
import { v4 as uuidv4 } from 'uuid';
import type { IDBPTransaction } from 'idb';
import type { EngineSchema, OutboxRecord, RunOnDb } from './db.ts';
import type { NewReport } from './api.ts';
import type { OutboxStore, OutboxWrite } from './store.ts';
import { photoName } from './report-form.ts';
import { markTripStepStored } from './trip-steps.ts';

const STORES: ['outbox', 'photos'] = ['outbox', 'photos'];
type OutboxTx = IDBPTransaction<EngineSchema, typeof STORES, 'readwrite'>;

/** A new item: unsent, never tried, due now, with its own idempotency key and the device's time. */
export function newOutboxRecord(report: NewReport, userId: number, now: number): OutboxRecord {
  return {
    association_id: report.association_id,
    quantity: report.quantity,
    total_unloading_quantity: report.total_unloading_quantity,
    total_loading_quantity: report.total_loading_quantity,
    flags: { unloadingIsBuyer: report.unloadingIsBuyer, loadingIsBuyer: report.loadingIsBuyer },
    trips: report.trips ?? 1,
    ticketNumber: report.ticketNumber ?? null,
    final: report.final ?? true,
    photos: [],
    attempts: 0,
    nextAttemptAt: now,
    sent: false,
    sentAt: null,
    resolved: false,
    // uuid rather than crypto.randomUUID: the latter exists only in secure contexts (not on a plain-http LAN).
    idempotencyKey: uuidv4(),
    // Typed after the fact: the trip's last typed time is its completion (the server checks them in order).
    completedAt: report.times?.unloading_departed_at ?? new Date(now).toISOString(),
    createdAt: now,
    lastError: null,
    userId,
    ...(report.times ? { typedTimes: { ...report.times } } : {}),
  };
}

/** Deletes a record and every photo bound to its id (also any the record's list lost track of). */
async function removeWithPhotos(tx: OutboxTx, id: number): Promise<void> {
  const photos = tx.objectStore('photos');
  for (const key of await photos.index('byOutbox').getAllKeys(id)) await photos.delete(key);
  await tx.objectStore('outbox').delete(id);
}

function outboxWrite(tx: OutboxTx): OutboxWrite {
  return {
    get: (id) => tx.objectStore('outbox').get(id),
    put: async (record) => void (await tx.objectStore('outbox').put(record)),
    remove: (id) => removeWithPhotos(tx, id),
    async deletePhotos(ids) {
      for (const id of ids) await tx.objectStore('photos').delete(id);
    },
  };
}

export function idbOutboxStore(run: RunOnDb): OutboxStore {
  /** Durability 'strict': a report the driver saw as queued must survive a crash or a power cut. */
  const write = <T>(fn: (tx: OutboxTx) => Promise<T>): Promise<T> =>
    run(async (db) => {
      const tx = db.transaction(STORES, 'readwrite', { durability: 'strict' });
      // Observed below; this keeps an abort caused by fn's own error from also surfacing as unhandled.
      tx.done.catch(() => {});
      let result: T;
      try {
        result = await fn(tx);
      } catch (error) {
        // Nothing of a failed write is kept, also when fn failed on its own (the transaction would commit).
        try {
          tx.abort();
        } catch {
          // Already aborted by the failed request.
        }
        throw error;
      }
      await tx.done;
      return result;
    });

  /** The record and its photos; without photos one request (the record's key is its id, filled in on add). */
  async function addWithPhotos(tx: OutboxTx, record: OutboxRecord, photos: readonly Blob[]): Promise<OutboxRecord & { id: number }> {
    const outbox = tx.objectStore('outbox');
    const id = await outbox.add({ ...record, photos: [] });
    const photoIds: number[] = [];
    for (const [index, blob] of photos.entries()) {
      photoIds.push(await tx.objectStore('photos').add({ outboxId: id, blob, name: photoName(blob, index), type: blob.type }));
    }
    const stored = { ...record, id, photos: photoIds };
    if (photoIds.length > 0) await outbox.put(stored);
    return stored;
  }

  return {
    all: () => run((db) => db.getAll('outbox')),
    add: (record, photos) => write(async (tx) => (await addWithPhotos(tx, record, photos)).id),
    addChecked: (make, photos) =>
      write(async (tx) => {
        const records = await tx.objectStore('outbox').getAll();
        const record = make(records);
        if (typeof record === 'string') return { ok: false as const, message: record };
        const stored = await addWithPhotos(tx, record, photos);
        // The moment a trip step is on the device: its transaction's `complete` (bench trip-step-tap reads the mark).
        if (stored.trip) tx.addEventListener('complete', () => markTripStepStored(stored.idempotencyKey));
        return { ok: true as const, id: stored.id, records: [...records, stored] };
      }),
    read: (id) =>
      run(async (db) => {
        // One transaction rather than one per photo: a send reads this for every item.
        const tx = db.transaction(STORES, 'readonly');
        const record = await tx.objectStore('outbox').get(id);
        if (!record) return null;
        const found = await Promise.all(record.photos.map((photoId) => tx.objectStore('photos').get(photoId)));
        return { record, photos: found.flatMap((photo) => (photo ? [photo.blob] : [])) };
      }),
    firstPhoto: (id) =>
      run(async (db) => {
        const tx = db.transaction(STORES, 'readonly');
        const record = await tx.objectStore('outbox').get(id);
        const first = record?.photos[0];
        const photo = first === undefined ? undefined : await tx.objectStore('photos').get(first);
        await tx.done;
        return photo?.blob ?? null;
      }),
    write: (fn) => write((tx) => fn(outboxWrite(tx))),
  };
}
