/**
 * The contract of the engine's store (worker/store.ts) on its IndexedDB implementation (worker/idb-store.ts):
 * the operations the engine uses, and what happens to the database under it — closed, upgraded by another tab,
 * full, deleted. The engine keeps working or says what is wrong, and a queued report is never lost.
 */
import { forceCloseDatabase } from 'fake-indexeddb';
import { deleteDB, openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openEngineDb, type CacheEntry, type EngineDb, type OutboxRecord } from '../../worker/db.ts';
import { createIdbStore } from '../../worker/idb-store.ts';
import { newOutboxRecord } from '../../worker/outbox-store.ts';
import { isStoreError, StoreError, type EngineStore } from '../../worker/store.ts';
import { fillDisk, trackedStore } from './harness.ts';
import { photo, report, T0 } from './outbox-doubles.ts';

let names = 0;
const undo: (() => void)[] = [];
afterEach(() => undo.splice(0).forEach((fn) => fn()));

/** A store on a database of its own, opened; `connections` are the ones it opened, oldest first. */
async function setup() {
  const name = `store-contract-${++names}`;
  const tracked = trackedStore(name);
  undo.push(() => tracked.store.close());
  await tracked.store.kv.get('');
  return { name, ...tracked };
}

const record = (associationId: number): OutboxRecord => newOutboxRecord(report(associationId), 7, T0);
const entry = (key: string, userId: number | null): CacheEntry => ({ key, userId, path: 'tasks/', data: [key], storedAt: T0 });

/** Settles with the promise, or with 'blocked' when it has not settled within `ms` (an open or delete left waiting). */
function within<T>(promise: Promise<T>, ms = 1_000): Promise<T | 'blocked'> {
  return Promise.race([promise, new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), ms))]);
}

async function texts(blobs: Blob[]): Promise<string[]> {
  return Promise.all(blobs.map((blob) => blob.text()));
}

/** What every store does: the engine's operations. */
function contract(make: () => Promise<EngineStore>) {
  it('kv: get, getMany, set several at once, delete several at once', async () => {
    const store = await make();
    expect(await store.kv.get('token')).toBeUndefined();
    await store.kv.set({ token: 'a', refresh: 'r' });
    expect(await store.kv.getMany(['token', 'refresh', 'profile'])).toEqual(['a', 'r', undefined]);
    await store.kv.set({ profile: { id: 7 } });
    expect(await store.kv.get('profile')).toEqual({ id: 7 });
    await store.kv.delete(['token', 'refresh']);
    expect(await store.kv.getMany(['token', 'refresh', 'profile'])).toEqual([undefined, undefined, { id: 7 }]);
  });

  it('cache: put replaces by key, keepOnly drops other users and the anonymous, clear drops all', async () => {
    const store = await make();
    await store.cache.put(entry('7:a', 7));
    await store.cache.put({ ...entry('7:a', 7), data: 'newer' });
    await store.cache.put(entry('8:a', 8));
    await store.cache.put(entry('anonymous:a', null));
    expect((await store.cache.get('7:a'))?.data).toBe('newer');
    await store.cache.keepOnly(7);
    expect([await store.cache.get('7:a'), await store.cache.get('8:a'), await store.cache.get('anonymous:a')].map((e) => e?.key)).toEqual(['7:a', undefined, undefined]);
    await store.cache.clear();
    expect(await store.cache.get('7:a')).toBeUndefined();
  });

  it('outbox: a record with its photos in, read back together, the first photo, changed and removed in one write', async () => {
    const store = await make();
    const id = await store.outbox.add(record(41), [photo('a'), photo('b')]);
    const other = await store.outbox.add(record(42), []);
    const read = await store.outbox.read(id);
    expect(read?.record).toMatchObject({ id, association_id: 41 });
    expect(read?.record.photos).toHaveLength(2);
    expect(await texts(read?.photos ?? [])).toEqual(['a', 'b']);
    expect(await (await store.outbox.firstPhoto(id))?.text()).toBe('a');
    expect(await store.outbox.firstPhoto(other)).toBeNull();
    expect((await store.outbox.all()).map((r) => r.id)).toEqual([id, other]);

    await store.outbox.write(async (tx) => {
      const stored = await tx.get(id);
      await tx.deletePhotos(stored?.photos.slice(1) ?? []);
      await tx.put({ ...stored!, sent: true, photos: stored!.photos.slice(0, 1) });
      await tx.remove(other);
    });
    expect(await texts((await store.outbox.read(id))?.photos ?? [])).toEqual(['a']);
    expect(await store.outbox.read(other)).toBeNull();
    expect(await store.outbox.all()).toEqual([expect.objectContaining({ id, sent: true })]);
  });

  it('outbox: a write that fails keeps nothing of itself', async () => {
    const store = await make();
    const id = await store.outbox.add(record(41), [photo('a')]);
    const failing = store.outbox.write(async (tx) => {
      await tx.remove(id);
      throw new Error('changed its mind');
    });
    await expect(failing).rejects.toThrow('changed its mind');
    expect(await texts((await store.outbox.read(id))?.photos ?? [])).toEqual(['a']);
  });
}

describe('the store contract (IndexedDB)', () => {
  contract(async () => (await setup()).store);
});

describe('a connection closed under the engine', () => {
  it('closed by anyone (close()): the next call opens the database again and works', async () => {
    const { store, connections } = await setup();
    await store.kv.set({ token: 'kept' });
    connections[0]?.close();
    expect(await store.kv.get('token')).toBe('kept');
    await store.outbox.add(record(41), [photo('a')]);
    expect(connections).toHaveLength(2);
  });

  it("closed by the browser (the 'close' event): the next call opens it again", async () => {
    const { store, connections } = await setup();
    const id = await store.outbox.add(record(41), [photo('a')]);
    forceCloseDatabase(connections[0] as unknown as Parameters<typeof forceCloseDatabase>[0]);
    expect(await texts((await store.outbox.read(id))?.photos ?? [])).toEqual(['a']);
    expect(connections).toHaveLength(2);
  });

  it('a database that cannot be opened again is a clear typed error, and the call after it works once it can', async () => {
    const name = `store-contract-${++names}`;
    let refuse = false;
    const store = createIdbStore(name, (dbName, events) =>
      refuse ? Promise.reject(new DOMException('The user denied permission to access the database.', 'UnknownError')) : openEngineDb(dbName, events),
    );
    undo.push(() => store.close());
    await store.kv.set({ token: 'kept' });
    store.close();
    refuse = true;
    const failed = await store.kv.get('token').catch((error: unknown) => error);
    expect(isStoreError(failed, 'unavailable')).toBe(true);
    expect((failed as StoreError).message).toMatch(/cannot be opened \(UnknownError\)/);
    refuse = false;
    expect(await store.kv.get('token')).toBe('kept');
  });
});

describe('another tab opening a newer version meanwhile', () => {
  it('the store lets its connection go at once (the other tab is not blocked) and goes on, on the new version, with its data', async () => {
    const { name, store, connections } = await setup();
    const id = await store.outbox.add(record(41), [photo('a')]);
    await store.kv.set({ token: 'kept' });

    const newer = await within(openDB(name, 2, { upgrade: (db) => void db.createObjectStore('extra') }));
    expect(newer).not.toBe('blocked');

    expect(await store.kv.get('token')).toBe('kept');
    expect(await texts((await store.outbox.read(id))?.photos ?? [])).toEqual(['a']);
    await store.outbox.add(record(42), []);
    expect(connections.at(-1)?.version).toBe(2);
    // The newer tab is not blocked by the reopened store either.
    (newer as EngineDb).close();
  });

  it('a newer version without the stores the engine needs is a clear typed error', async () => {
    const { name, store } = await setup();
    await deleteDB(name);
    const foreign = await openDB(name, 5, { upgrade: (db) => void db.createObjectStore('something-else') });
    foreign.close();
    const failed = await store.kv.get('token').catch((error: unknown) => error);
    expect(isStoreError(failed, 'unavailable')).toBe(true);
  });
});

describe('a full device (QuotaExceededError)', () => {
  it('a report that does not fit fails with a typed error, keeps nothing of itself, and the queued one is untouched', async () => {
    const { store } = await setup();
    const queued = await store.outbox.add(record(41), [photo('a')]);
    undo.push(fillDisk('photos'));
    const failed = await store.outbox.add(record(42), [photo('b')]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StoreError);
    expect(failed).toMatchObject({ kind: 'quota' });
    expect(await store.outbox.all()).toEqual([expect.objectContaining({ id: queued, association_id: 41 })]);
    expect(await texts((await store.outbox.read(queued))?.photos ?? [])).toEqual(['a']);
    // Room again: the store goes on.
    expect(await store.outbox.add(record(43), [photo('c')])).toBeGreaterThan(queued);
  });

  it('a change to a queued report that does not fit leaves the report as it was', async () => {
    const { store } = await setup();
    const queued = await store.outbox.add(record(41), [photo('a'), photo('b')]);
    undo.push(fillDisk('outbox'));
    const marking = store.outbox.write(async (tx) => {
      const stored = (await tx.get(queued))!;
      await tx.deletePhotos(stored.photos.slice(1));
      await tx.put({ ...stored, sent: true });
    });
    await expect(marking).rejects.toMatchObject({ name: 'StoreError', kind: 'quota' });
    const read = await store.outbox.read(queued);
    expect(read?.record).toMatchObject({ sent: false });
    expect(await texts(read?.photos ?? [])).toEqual(['a', 'b']);
  });

  it('kv and cache writes fail with the same typed error', async () => {
    const { store } = await setup();
    undo.push(fillDisk('kv'), fillDisk('cache'));
    await expect(store.kv.set({ token: 'a' })).rejects.toMatchObject({ kind: 'quota' });
    await expect(store.cache.put(entry('7:a', 7))).rejects.toMatchObject({ kind: 'quota' });
  });
});

describe('the database deleted meanwhile', () => {
  it('the deletion is not blocked; the store creates the database again, says so, and goes on', async () => {
    const { name, store } = await setup();
    await store.outbox.add(record(41), [photo('a')]);
    await store.kv.set({ token: 'gone' });
    const resets = vi.fn();
    store.onReset(resets);

    expect(await within(deleteDB(name))).not.toBe('blocked');

    expect(await store.outbox.all()).toEqual([]);
    expect(resets).toHaveBeenCalledExactlyOnceWith({ reason: 'deleted' });
    expect(await store.kv.get('token')).toBeUndefined();
    const id = await store.outbox.add(record(42), [photo('b')]);
    expect(await texts((await store.outbox.read(id))?.photos ?? [])).toEqual(['b']);
    expect(resets).toHaveBeenCalledTimes(1);
  });

  it('a first open that creates the database is no reset', async () => {
    const resets = vi.fn();
    const store = createIdbStore(`store-contract-${++names}`);
    undo.push(() => store.close());
    store.onReset(resets);
    await store.kv.get('token');
    store.close();
    await store.kv.get('token');
    expect(resets).not.toHaveBeenCalled();
  });
});
