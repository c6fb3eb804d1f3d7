/**
 * The outbox's IndexedDB side: records and their photos, written together in strict transactions.
 * Photos are bound to their record's id (never to "the current task"), so deleting a record takes exactly
 * its own photos with it.
 */
import { v4 as uuidv4 } from 'uuid';
import type { IDBPTransaction } from 'idb';
import type { EngineDb, EngineSchema, OutboxRecord } from './db.ts';
import type { NewReport } from './api.ts';
import { photoName } from './report-form.ts';

const STORES: ['outbox', 'photos'] = ['outbox', 'photos'];
export type OutboxTx = IDBPTransaction<EngineSchema, typeof STORES, 'readwrite'>;

/** Durability 'strict': a report the driver saw as queued must survive a crash or a power cut. */
export async function writeOutbox<T>(db: EngineDb, fn: (tx: OutboxTx) => Promise<T>): Promise<T> {
  const tx = db.transaction(STORES, 'readwrite', { durability: 'strict' });
  // Observed below; this keeps an abort caused by fn's own error from also surfacing as unhandled.
  tx.done.catch(() => {});
  const result = await fn(tx);
  await tx.done;
  return result;
}

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
    completedAt: new Date(now).toISOString(),
    createdAt: now,
    lastError: null,
    userId,
  };
}

/** Stores the record and its photos in one transaction; answers the record's id. */
export function addWithPhotos(db: EngineDb, record: OutboxRecord, photos: readonly Blob[]): Promise<number> {
  return writeOutbox(db, async (tx) => {
    const outbox = tx.objectStore('outbox');
    const id = await outbox.add(record);
    const photoIds: number[] = [];
    for (const [index, blob] of photos.entries()) {
      photoIds.push(await tx.objectStore('photos').add({ outboxId: id, blob, name: photoName(blob, index), type: blob.type }));
    }
    await outbox.put({ ...record, id, photos: photoIds });
    return id;
  });
}

/** Deletes a record and every photo bound to its id (also any the record's list lost track of). */
export async function removeWithPhotos(tx: OutboxTx, id: number): Promise<void> {
  const photos = tx.objectStore('photos');
  for (const key of await photos.index('byOutbox').getAllKeys(id)) await photos.delete(key);
  await tx.objectStore('outbox').delete(id);
}

/** Deletes every photo of a delivered record but its first (the thumbnail); `record.photos` is trimmed to match. */
export async function dropPhotosButFirst(tx: OutboxTx, record: OutboxRecord): Promise<void> {
  const [first, ...rest] = record.photos;
  const photos = tx.objectStore('photos');
  for (const key of rest) await photos.delete(key);
  record.photos = first === undefined ? [] : [first];
}

/** The first photo of a record (the queue's thumbnail), or null. */
export async function firstPhotoOf(db: EngineDb, id: number): Promise<Blob | null> {
  const tx = db.transaction(STORES, 'readonly');
  const record = await tx.objectStore('outbox').get(id);
  const first = record?.photos[0];
  const photo = first === undefined ? undefined : await tx.objectStore('photos').get(first);
  await tx.done;
  return photo?.blob ?? null;
}

/**
 * The record as stored now, with its photos, read in one transaction (a send reads this for every item,
 * so one transaction rather than one per photo); null when it is gone (discarded meanwhile).
 */
export async function readWithPhotos(db: EngineDb, id: number): Promise<{ record: OutboxRecord; photos: Blob[] } | null> {
  const tx = db.transaction(STORES, 'readonly');
  const record = await tx.objectStore('outbox').get(id);
  if (!record) return null;
  const found = await Promise.all(record.photos.map((photoId) => tx.objectStore('photos').get(photoId)));
  return { record, photos: found.flatMap((photo) => (photo ? [photo.blob] : [])) };
}
