/**
 * The report outbox (docs/product.md §3, §4 and §9): reports queued on the
 * device and delivered exactly once. Every browser primitive comes in through `OutboxDeps`, so the same code
 * runs in the SharedWorker, in a dedicated worker per tab, in the service worker and in Vitest.
 *
 * Exactly once, by construction:
 * - every flush, in every context, runs under the Web Lock 'outbox-flush', and inside one engine only one
 *   flush runs at a time; the batch is read from IndexedDB after the lock is granted;
 * - an item is marked sent as soon as its success was observed, in a strict transaction (the marks of items
 *   answered meanwhile share one), and every mark is committed before the lock is let go;
 * - a crash between the server's 201 and that mark sends it again with the same Idempotency-Key, and the
 *   server answers with the report it already stored.
 *
 * In order per association: a flush has up to FLUSH_CONCURRENCY uploads in flight, each of a different
 * association (keyed-pool.ts); within a batch a report goes only after the older one of its association was
 * answered. A refused report waiting out its retry time does not hold back its association's newer ones.
 */
import { runKeyed } from './keyed-pool.ts';
import type { OutboxRecord } from './db.ts';
import type { NewReport, OutboxSnapshot, Result } from './api.ts';
import type { NetworkStatus } from './ports.ts';
import { FLUSH_CONCURRENCY, FLUSH_INTERVAL_MS, FLUSH_LOCK, MAX_ATTEMPTS, retryDelayMs, type Outbox, type OutboxDeps, type SendResult } from './outbox-types.ts';
import { newOutboxRecord } from './outbox-store.ts';
import { isStoreError, type OutboxWrite } from './store.ts';
import { byAge, outboxSnapshot, waited } from './outbox-view.ts';
import { newOdometerRecord, ODOMETER_KEEP_MS, odometerRefusal, type NewOdometerReading } from './odometer.ts';
import { checkTripStep, heldForUndo, newTripStepRecord, stepIndex, waitsForEarlierStep, type NewTripStep } from './trip-steps.ts';
import type { Position, TripStep } from '../contract/trips.ts';
import { checkShiftAcceptance, keptForShift, newShiftAcceptanceRecord, type QueuedShiftAcceptance } from './shift-acceptance.ts';

export { FLUSH_CONCURRENCY, FLUSH_INTERVAL_MS, FLUSH_LOCK, MAX_ATTEMPTS, retryDelayMs } from './outbox-types.ts';
export type { Outbox, OutboxDeps, SendResult } from './outbox-types.ts';

/** How one send ended: delivered (or replayed), refused (a counted attempt), the network failed, or nothing to send. */
type SendOutcome = 'sent' | 'refused' | 'network' | 'skipped';

interface PendingWrite {
  id: number;
  change(record: OutboxRecord): OutboxRecord | null;
  done(written: OutboxRecord | null): void;
  fail(error: unknown): void;
}

const failure = (message: string, network = false): Result<never> => ({ ok: false, message, status: null, network });

/** A report the device had no room for; one already queued is never lost to it (a failed write keeps nothing). */
export const NO_SPACE_MESSAGE = 'Недостаточно места на устройстве: отчёт не сохранён';
/** The device's storage cannot be opened (private mode, storage switched off). */
export const NO_STORAGE_MESSAGE = 'Хранилище на устройстве недоступно: отчёт не сохранён';

/** Told in every open tab when a report that had to wait (outbox-view.ts `waited`) reaches the server. */
export const DELIVERED_NOTICE = 'Отчёт отправлен';
/** Told when a trip's last step that had to wait reaches the server (its earlier steps are not told one by one). */
export const TRIP_DELIVERED_NOTICE = 'Рейс отправлен';
/** Told when a shift acceptance that had to wait reaches the server. */
export const ACCEPTANCE_DELIVERED_NOTICE = 'Подпись за смену отправлена';
/** The undo came after the step's window: it may be on its way or delivered, so it stays. */
export const UNDO_TOO_LATE = 'Отменить уже нельзя: отметка отправляется или отправлена. Исправьте время отметки или сообщите диспетчеру.';

function giveUpMessage(record: OutboxRecord, reason: string): string {
  const when = new Date(record.completedAt).toLocaleString('ru-RU', { dateStyle: 'short', timeStyle: 'short' });
  return `Отчёт от ${when} не принят сервером после ${MAX_ATTEMPTS} попыток. Он сохранён в «Не доставлено»: отправьте его снова или удалите. Причина: ${reason}`;
}

export function createOutbox(deps: OutboxDeps): Outbox {
  const { store, compress, clock } = deps;
  /** What the snapshot shows: the store as last read, with this engine's own writes applied since. */
  let records: OutboxRecord[] = [];
  let flushing: Promise<void> | null = null;
  let flushAgain = false;
  /** The items being uploaded: id → progress (0..1). */
  const sending = new Map<number, number>();
  /** Changes to stored records waiting for the next strict transaction (see `update`). */
  let writeQueue: PendingWrite[] = [];
  let writing: Promise<void> | null = null;
  let started = false;
  let retryTimer: unknown = null;
  /** The next batch sends every unsent item (the driver pressed «Отправить сейчас»). */
  let everythingNext = false;

  async function reload({ announce = true }: { announce?: boolean } = {}): Promise<void> {
    records = await store.all();
    if (announce) deps.onChange(true);
  }

  /** Applies a write this engine committed to the view, instead of re-reading the whole queue per item. */
  function remember(id: number, record: OutboxRecord | null): void {
    const index = records.findIndex((r) => r.id === id);
    if (record && index >= 0) records[index] = record;
    else if (record) records.push(record);
    else if (index >= 0) records.splice(index, 1);
  }

  async function queueReport(report: NewReport): Promise<Result<number>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему, чтобы отправить отчёт');
    if (!compress) return failure('Отчёт можно сохранить только в приложении');
    if (!Number.isInteger(report.association_id) || report.association_id <= 0) {
      return failure('Не указано задание для отчёта');
    }
    try {
      const photos: Blob[] = [];
      // One at a time: a decoded 12 MP photo is ~48 MB, and phones are short of memory.
      for (const photo of report.photos) photos.push(await compress(photo));
      const record = newOutboxRecord(report, userId, clock.now());
      // It cannot go now: it waits, however soon the network returns, and its delivery will be told.
      if (!deps.isOnline()) record.heldBack = true;
      const id = await store.add(record, photos);
      await reload();
      if (started) triggerFlush();
      return { ok: true, data: id };
    } catch (error) {
      console.error('queueing a report failed', error);
      if (isStoreError(error, 'quota')) return failure(NO_SPACE_MESSAGE);
      if (isStoreError(error, 'unavailable')) return failure(NO_STORAGE_MESSAGE);
      return failure('Не удалось сохранить отчёт на устройстве');
    }
  }

  async function queueTripStep(input: NewTripStep): Promise<Result<{ id: number; trip_uid: string }>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему, чтобы отметить рейс');
    if (!compress) return failure('Отметку можно сохранить только в приложении');
    try {
      const blobs: Blob[] = [];
      if (input.photos.length > 0) {
        // Refused before the photos are compressed (seconds on a phone); checked again in the write below.
        const early = checkTripStep(input, await store.all(), userId);
        if (!early.ok) return failure(early.message);
        for (const photo of input.photos) blobs.push(await compress(photo));
      }
      // The signature stays a PNG as drawn: it is small, and its lines must stay sharp.
      if (input.signature) blobs.push(input.signature);
      // A tap's step goes to the device in one transaction: the trip's stamps read, the step checked and added.
      let uid = '';
      const added = await store.addChecked((stored) => {
        const checked = checkTripStep(input, stored, userId);
        if (!checked.ok) return checked.message;
        uid = checked.uid;
        const record = newTripStepRecord(checked.uid, input.step, input.body, input.signature !== null, userId, clock.now());
        if (!deps.isOnline()) record.heldBack = true;
        return record;
      }, blobs);
      if (!added.ok) return failure(added.message);
      // The queue as committed: no second read before the tabs are told.
      records = added.records;
      deps.onChange(true);
      // Sent once its undo window is over (scheduleRetry sets the timer for it).
      if (started) triggerFlush();
      return { ok: true, data: { id: added.id, trip_uid: uid } };
    } catch (error) {
      console.error('queueing a trip step failed', error);
      if (isStoreError(error, 'quota')) return failure('Недостаточно места на устройстве: отметка не сохранена');
      if (isStoreError(error, 'unavailable')) return failure('Хранилище на устройстве недоступно: отметка не сохранена');
      return failure('Не удалось сохранить отметку на устройстве');
    }
  }

  async function queueOdometer(input: NewOdometerReading): Promise<Result<{ id: number }>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему, чтобы записать показание');
    if (!compress) return failure('Показание можно сохранить только в приложении');
    try {
      records = await store.all();
      const refused = odometerRefusal(input, records, userId);
      if (refused) return failure(refused);
      const blobs = input.photo ? [await compress(input.photo)] : [];
      const record = newOdometerRecord(input, userId, clock.now());
      if (!deps.isOnline()) record.heldBack = true;
      const id = await store.add(record, blobs);
      await reload();
      if (started) triggerFlush();
      return { ok: true, data: { id } };
    } catch (error) {
      console.error('queueing an odometer reading failed', error);
      if (isStoreError(error, 'quota')) return failure('Недостаточно места на устройстве: показание не сохранено');
      if (isStoreError(error, 'unavailable')) return failure('Хранилище на устройстве недоступно: показание не сохранено');
      return failure('Не удалось сохранить показание на устройстве');
    }
  }

  /**
   * The receiver's one signature (or the refusal) for the shift's finished trips (worker/shift-acceptance.ts): one
   * record keyed by `body.key`, due at once (no undo: the receiver has signed), its signature stored as drawn.
   */
  async function queueShiftAcceptance(input: QueuedShiftAcceptance): Promise<Result<{ id: number; key: string }>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему, чтобы отправить подпись');
    if (!compress) return failure('Подпись можно сохранить только в приложении');
    try {
      records = await store.all();
      const refused = checkShiftAcceptance(input, records, userId);
      if (refused) return failure(refused);
      const record = newShiftAcceptanceRecord(input.body, input.signature !== null, userId, clock.now());
      if (!deps.isOnline()) record.heldBack = true;
      const id = await store.add(record, input.signature ? [input.signature] : []);
      await reload();
      if (started) triggerFlush();
      return { ok: true, data: { id, key: input.body.key } };
    } catch (error) {
      console.error('queueing a shift acceptance failed', error);
      if (isStoreError(error, 'quota')) return failure('Недостаточно места на устройстве: подпись не сохранена');
      if (isStoreError(error, 'unavailable')) return failure('Хранилище на устройстве недоступно: подпись не сохранена');
      return failure('Не удалось сохранить подпись на устройстве');
    }
  }

  /**
   * Takes a step back out of the queue while its undo window lasts (no engine sends it meanwhile, so it never
   * reached the server); its photos and signature go with it. Only the trip's last step can be taken back.
   */
  async function undoTripStep(uid: string, step: TripStep): Promise<Result<null>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему');
    try {
      records = await store.all();
      const found = records.find((r) => r.trip?.uid === uid && r.trip.step === step && r.userId === userId);
      if (found?.id === undefined) return failure('Отметка не найдена');
      if (records.some((r) => r.trip?.uid === uid && stepIndex(r.trip.step) > stepIndex(step))) return failure('Сначала отмените более позднюю отметку');
      const id = found.id;
      const outcome = await store.write(async (tx): Promise<string | null> => {
        // Read again in the write: another engine may have sent it meanwhile (only after its window, see heldForUndo).
        const stored = await tx.get(id);
        if (!stored) return 'Отметка не найдена';
        if (stored.sent || !heldForUndo(stored, clock.now())) return UNDO_TOO_LATE;
        await tx.remove(id);
        return null;
      });
      await reload();
      return outcome === null ? { ok: true, data: null } : failure(outcome);
    } catch (error) {
      console.error('undoing a trip step failed', error);
      return failure('Не удалось отменить отметку');
    }
  }

  /**
   * The driver's correction of a step's time (an automatic stamp, a late tap): the step's one record changes its
   * time and source ('corrected') and goes again, sent or not (the server takes a repeated step only as a correction).
   */
  async function correctTripStep(uid: string, step: TripStep, at: string): Promise<Result<null>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему');
    if (Number.isNaN(Date.parse(at))) return failure('Неверное время');
    records = await store.all();
    const found = records.find((r) => r.trip?.uid === uid && r.trip.step === step && r.userId === userId);
    if (found?.id === undefined) return failure('Отметка не найдена');
    if (sending.has(found.id)) return failure('Отметка сейчас отправляется: исправьте через минуту');
    try {
      const now = clock.now();
      await update(found.id, (r) => {
        if (!r.trip) return r;
        const trip = { ...r.trip, body: { ...r.trip.body, at, source: 'corrected' as const }, correction: r.sent || r.trip.correction === true };
        return { ...r, trip, completedAt: at, sent: false, sentAt: null, attempts: 0, lastError: null, givenUp: false, nextAttemptAt: Math.max(now, r.holdUntil ?? now) };
      });
      if (started) triggerFlush();
      return { ok: true, data: null };
    } catch (error) {
      console.error('correcting a trip step failed', error);
      return failure('Не удалось исправить отметку');
    }
  }

  /** The position read after the tap, added to the step while it is still on the device and not on its way. */
  async function placeTripStep(uid: string, step: TripStep, position: Position): Promise<Result<null>> {
    const userId = deps.userId();
    if (userId === null) return failure('Войдите в систему');
    records = await store.all();
    const found = records.find((r) => r.trip?.uid === uid && r.trip.step === step && r.userId === userId);
    if (found?.id === undefined) return failure('Отметка не найдена');
    if (found.sent || sending.has(found.id)) return failure('Отметка уже отправлена без координат');
    try {
      await update(found.id, (r) => (r.trip && !r.sent ? { ...r, trip: { ...r.trip, body: { ...r.trip.body, position } } } : r));
      return { ok: true, data: null };
    } catch (error) {
      console.error('placing a trip step failed', error);
      return failure('Не удалось добавить координаты к отметке');
    }
  }

  /**
   * Applies `change` to the stored record, if it is still there (a discard wins over a late answer); null
   * deletes. Resolves once committed. Changes asked for while a transaction commits go together in the next
   * one: a flush with several uploads answered meanwhile pays for one strict commit, not one each.
   */
  function update(id: number, change: (record: OutboxRecord) => OutboxRecord | null): Promise<OutboxRecord | null> {
    return new Promise((done, fail) => {
      writeQueue.push({ id, change, done, fail });
      writing ??= writeQueued();
    });
  }

  async function writeQueued(): Promise<void> {
    // A turn first: changes asked for in the same turn go in this transaction, and `writing` is set before it ends.
    await Promise.resolve();
    try {
      await writeGroups();
    } finally {
      writing = null;
    }
  }

  async function writeGroups(): Promise<void> {
    while (writeQueue.length > 0) {
      const group = writeQueue;
      writeQueue = [];
      try {
        const written = await store.write(async (tx) => {
          const results: (OutboxRecord | null)[] = [];
          for (const { id, change } of group) results.push(await applyChange(tx, id, change));
          return results;
        });
        group.forEach(({ id }, index) => remember(id, written[index] ?? null));
        deps.onChange(true);
        group.forEach(({ done }, index) => done(written[index] ?? null));
      } catch (error) {
        for (const { fail } of group) fail(error);
      }
    }
  }

  async function applyChange(tx: OutboxWrite, id: number, change: (record: OutboxRecord) => OutboxRecord | null): Promise<OutboxRecord | null> {
    const stored = await tx.get(id);
    if (!stored) return null;
    const next = change(stored);
    if (next?.sent && !stored.sent) {
      // Delivered: the server holds the photos now. A task carried in many trips keeps its sent items until the
      // driver finishes it (docs/loads.md), so only the first photo stays, as the queue's thumbnail.
      const [first, ...rest] = next.photos;
      await tx.deletePhotos(rest);
      next.photos = first === undefined ? [] : [first];
    }
    await (next ? tx.put(next) : tx.remove(id));
    return next;
  }

  /**
   * Sends one item and answers as soon as the server (or the network) did: its record is written in the
   * background, and `written` settles when that write (and what follows it: the notices) is done.
   */
  async function sendOne(id: number): Promise<{ outcome: SendOutcome; written: Promise<void> }> {
    // Read again right before sending: a discard (from any tab) since the batch was read must win.
    const loaded = await store.read(id);
    if (!loaded || loaded.record.sent) {
      remember(id, loaded?.record ?? null);
      return { outcome: 'skipped', written: Promise.resolve() };
    }
    const { record, photos } = loaded;
    sending.set(id, 0);
    deps.onChange(false);
    let result: SendResult;
    try {
      result = await deps.sendReport(record, photos, (progress) => {
        if (!sending.has(id)) return;
        sending.set(id, Math.min(1, Math.max(0, progress)));
        deps.onChange(false);
      });
    } catch (error) {
      // The sender is meant to answer, not throw; a throw tells us nothing about the report, so it does not count.
      result = failure(String(error), true);
    } finally {
      sending.delete(id);
    }
    const now = clock.now();
    if (result.ok) {
      const written = update(id, (r) => ({ ...r, sent: true, sentAt: now, lastError: null })).then(() => {
        if (!waited(loaded.record, now)) return;
        if (record.acceptance) deps.notify(ACCEPTANCE_DELIVERED_NOTICE);
        else if (!record.trip) deps.notify(DELIVERED_NOTICE);
        else if (record.trip.step === 'unloading_departed') deps.notify(TRIP_DELIVERED_NOTICE);
      });
      return { outcome: 'sent', written };
    }
    if (result.network || result.unreachable === true) {
      const written = update(id, (r) => ({ ...r, nextAttemptAt: now + retryDelayMs(r.attempts) })).then(() => undefined);
      return { outcome: 'network', written };
    }
    const { message } = result;
    let givenUp: OutboxRecord | null = null;
    const written = update(id, (r) => {
      const attempts = r.attempts + 1;
      // Offline, a failure says more about the connection than about the report: keep it.
      if (attempts < MAX_ATTEMPTS || !deps.isOnline()) {
        return { ...r, attempts, lastError: message, nextAttemptAt: now + retryDelayMs(attempts) };
      }
      givenUp = r;
      // Out of the queue, not thrown away: kept with its photos until the driver decides.
      return { ...r, attempts, lastError: message, givenUp: true };
    }).then(() => {
      if (givenUp) deps.notify(giveUpMessage(givenUp, message));
    });
    return { outcome: 'refused', written };
  }

  /**
   * What a batch sends, oldest first: the signed-in user's unsent items that are due. A refused item waiting out
   * its retry time does not hold back its association's newer ones (as before several went at once): a driver's
   * later trips reach the dispatcher while one report is being argued over; the order within a batch holds.
   */
  function batchOf(userId: number, now: number, everything: boolean): OutboxRecord[] {
    return records
      .filter((r) => r.userId === userId && !r.sent && !r.givenUp && !heldForUndo(r, now) && (everything || r.nextAttemptAt <= now))
      // A trip's step goes in the batch only along with every earlier step of its trip still unsent.
      .filter((r, _index, due) => !waitsForEarlierStep(records, r, due))
      .sort(byAge);
  }

  /**
   * One batch: what is due for the signed-in user when the lock was granted (batchOf), up to
   * FLUSH_CONCURRENCY uploads at once, one per association: an association's next item goes only after its
   * previous one was answered (delivered or refused). A network failure stops
   * the batch (what is in flight still lands). Every record written before the batch ends.
   */
  async function runBatch(): Promise<void> {
    const everything = deps.everythingDue === true || everythingNext;
    everythingNext = false;
    const userId = deps.userId();
    if (userId === null || !deps.isOnline()) return;
    records = await store.all();
    const writes: Promise<void>[] = [];
    let width = 1;
    let failure: { error: unknown } | null = null;
    try {
      await runKeyed(
        batchOf(userId, clock.now(), everything),
        (r) => r.association_id,
        async (item) => {
          // A trip's later step goes only once its earlier ones are delivered (they went before it, in this batch).
          if (waitsForEarlierStep(records, item)) return 'go';
          const { outcome, written } = await sendOne(item.id as number);
          writes.push(written);
          // Its mark first: the trip's next step reads it.
          if (item.trip) await written;
          if (outcome === 'network') return 'stop';
          // The server answered: the network carries reports, more may go at once.
          if (outcome !== 'skipped') width = FLUSH_CONCURRENCY;
          return 'go';
        },
        { width: () => width, mayStart: () => deps.isOnline() && deps.userId() === userId },
      );
    } catch (error) {
      failure = { error };
    }
    // Every record written before the batch ends (and the lock is let go), whatever stopped it.
    const settled = await Promise.allSettled(writes);
    if (failure) throw failure.error;
    const rejected = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (rejected) throw rejected.reason;
    await resolve();
  }

  function flush(options: { everything?: boolean } = {}): Promise<void> {
    if (options.everything) everythingNext = true;
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
        scheduleRetry();
        deps.onChange(false);
      }
    })();
    deps.onChange(false);
    return flushing;
  }

  /**
   * A failed item is due again after 2^attempts s (1 s after a network error): flush then, not at the next
   * 60 s tick — a network that flaps while coming back would otherwise hold a report for a minute. Only
   * items not yet due count, so an item a batch could not reach never spins a zero-delay loop; offline,
   * the 'online' event starts the next flush instead.
   */
  function scheduleRetry(): void {
    if (!started) return;
    if (retryTimer !== null) clock.clearTimeout(retryTimer);
    retryTimer = null;
    const userId = deps.userId();
    const now = clock.now();
    if (userId === null || !deps.isOnline()) return;
    const next = Math.min(...records.filter((r) => r.userId === userId && !r.sent && !r.givenUp && r.nextAttemptAt > now).map((r) => r.nextAttemptAt));
    if (!Number.isFinite(next)) return;
    retryTimer = clock.setTimeout(() => {
      retryTimer = null;
      triggerFlush();
    }, next - now);
  }

  function triggerFlush(): void {
    flush().catch((error: unknown) => console.warn('outbox flush failed', error));
  }

  async function resolve(): Promise<OutboxRecord[]> {
    const userId = deps.userId();
    if (userId === null) return [];
    const sent = (await store.all()).filter((r) => r.userId === userId && r.sent);
    if (sent.length === 0) return [];
    const assigned = await deps.assignedAssociationIds();
    if (assigned === null) return [];
    const stillAssigned = new Set(assigned);
    const now = clock.now();
    // The day's finished trips and their shift acceptance stay for the end-of-day signature (shift-acceptance.ts); a
    // reading belongs to no task: it stays its sheet's day and a half, the screen reads it meanwhile.
    const gone = sent.filter((r) => (r.odometer ? now - r.createdAt > ODOMETER_KEEP_MS : !stillAssigned.has(r.association_id) && !keptForShift(r, now)));
    if (gone.length === 0) return [];
    const resolved = await store.write(async (tx) => {
      const done: OutboxRecord[] = [];
      for (const record of gone) {
        const stored = await tx.get(record.id as number);
        if (!stored?.sent || keptForShift(stored, now)) continue;
        await tx.remove(record.id as number);
        done.push({ ...stored, resolved: true });
      }
      return done;
    });
    await reload();
    return resolved;
  }

  async function discard(id: number): Promise<void> {
    // An upload already under way may still reach the server; its late answer then finds no record to mark.
    await store.write((tx) => tx.remove(id));
    await reload();
  }

  async function resend(id: number): Promise<void> {
    await update(id, (r) => (r.givenUp ? { ...r, givenUp: false, attempts: 0, lastError: null, nextAttemptAt: clock.now() } : r));
    if (started) triggerFlush();
  }

  function snapshot(): OutboxSnapshot {
    return outboxSnapshot(records, { userId: deps.userId(), now: clock.now(), flushing: flushing !== null, sending });
  }

  function start(network: NetworkStatus): () => void {
    if (started) return () => undefined;
    started = true;
    const tick = clock.setInterval(triggerFlush, FLUSH_INTERVAL_MS);
    const unsubscribe = network.subscribe(() => {
      if (network.online()) triggerFlush();
    });
    reload().then(triggerFlush, (error: unknown) => console.warn('reading the outbox failed', error));
    return () => {
      clock.clearInterval(tick);
      if (retryTimer !== null) clock.clearTimeout(retryTimer);
      retryTimer = null;
      unsubscribe();
    };
  }

  return { queueReport, queueTripStep, queueShiftAcceptance, queueOdometer, undoTripStep, correctTripStep, placeTripStep, flush, triggerFlush, resolve, discard, resend, reload, snapshot, start };
}
