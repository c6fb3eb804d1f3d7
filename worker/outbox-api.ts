/**
 * The engine's side of the report outbox (worker/outbox.ts): the `OutboxDeps` it is built with (the upload as a
 * write, the assigned tasks from the GET cache, throttled snapshot pushes, notices relayed to the other engines),
 * photo compression, the flush once sending becomes possible, what the device lost when its database was
 * deleted, and the `OutboxApi` the tabs call.
 */
import type { OutboxApi, OutboxSnapshot, Result } from './api.ts';
import { associationIdsOf } from './assigned-ids.ts';
import type { AuthState } from './auth-store.ts';
import type { GetCache } from './cache.ts';
import type { CrossTabMessage } from './cross-tab.ts';
import type { Http } from './http.ts';
import { compressPhoto } from './images.ts';
import type { OutboxFactory } from './outbox-types.ts';
import { throttlePushes } from './outbox-view.ts';
import type { Channel, Clock, Locks, NetworkStatus } from './ports.ts';
import type { Recovery } from './recovery.ts';
import { IDEMPOTENCY_HEADER } from './report-form.ts';
import { answeredId, outboxRequest } from './trip-form.ts';
import { shiftAcceptanceSchema, tripStepBodySchema } from '../contract/trips.ts';
import { newAcceptanceKey } from './shift-acceptance.ts';
import { odometerSchema } from '../contract/trip-sheets.ts';
import type { Snapshots } from './snapshots.ts';
import type { EngineStore } from './store.ts';

/** Told when the database was deleted under the engine: what the device no longer holds. */
export function storeResetNotice(lostReports: number): string {
  return lostReports > 0
    ? `Данные приложения на устройстве были удалены: неотправленные отчёты (${lostReports}) потеряны, создайте их заново.`
    : 'Данные приложения на устройстве были удалены: при необходимости войдите снова.';
}

export interface OutboxApiDeps {
  store: Pick<EngineStore, 'outbox' | 'onReset'>;
  clock: Clock;
  locks: Locks;
  network: NetworkStatus;
  /** Dedicated-worker mode: queue changes and notices are told to the other tabs' engines. */
  channel?: Channel<CrossTabMessage>;
  /** Builds the outbox (worker/outbox.ts createOutbox, `noOutbox`, or a test double). */
  outbox: OutboxFactory;
  /** Photo compression; worker/images.ts compressPhoto unless given. */
  compress?: (photo: Blob) => Promise<Blob>;
  state: AuthState;
  http: Http;
  cache: Pick<GetCache, 'get'>;
  /** No network, or offline mode. */
  offline(): boolean;
  /** The session's check after a write met a dead connection (worker/session.ts). */
  afterNetworkFailure<T>(result: Result<T>): Result<T>;
  recovery: Pick<Recovery, 'wake'>;
  snapshots: Pick<Snapshots, 'push' | 'notice'>;
}

export interface EngineOutbox {
  api: OutboxApi;
  /** The compression the queue uses (sendForm compresses its files the same way). */
  compress(photo: Blob): Promise<Blob>;
  snapshot(): OutboxSnapshot;
  /**
   * The auth state changed. The outbox sends only for a known user outside offline mode, and both arrive after
   * the events it listens to: the user is known once startup has read the cached profile (after the engine's own
   * start-up flush found nobody signed in), and offline mode ends only when the refresh or profile fetch that
   * follows 'online' succeeds. Without this, a report queued earlier would wait for the 60 s timer.
   */
  authChanged(): void;
  /** Another engine changed the queue: re-read it without announcing the change back to them. */
  reload(): void;
  /** Every unsent report goes now, also one waiting out its retry delay. */
  flushEverything(): void;
  /** Starts the queue's schedule. */
  start(): void;
  /** Stops the schedule, a throttled push and the store listener. */
  stop(): void;
}

export function createOutboxApi(deps: OutboxApiDeps): EngineOutbox {
  const { store, clock, channel, state, snapshots } = deps;
  const compress = deps.compress ?? ((photo: Blob) => compressPhoto(photo));
  // A flush changes something per item and per progress event: the pushes to the tabs are throttled.
  const pushes = throttlePushes(clock, (stored) => {
    snapshots.push();
    if (stored) channel?.postMessage({ type: 'outbox' });
  });
  const outbox = deps.outbox({
    store: store.outbox,
    clock,
    locks: deps.locks,
    isOnline: () => !deps.offline(),
    userId: () => state.get().user?.id ?? null,
    // A report that met a dead connection is a sign the server is down, as for any write.
    sendReport: async (record, photos, onProgress) => {
      const { method, path, form } = outboxRequest(record, photos);
      const result = deps.afterNetworkFailure(
        await deps.http.sendForm<unknown>(method, path, form, { headers: { [IDEMPOTENCY_HEADER]: record.idempotencyKey }, onProgress }),
      );
      return result.ok ? { ok: true, data: { id: answeredId(result.data) } } : result;
    },
    async assignedAssociationIds() {
      const result = await deps.cache.get('tasks/assigned/');
      return result.ok && !result.data.fromCache ? associationIdsOf(result.data.data) : null;
    },
    onChange: (stored) => pushes.change(stored),
    notify(message) {
      snapshots.notice(message);
      // The tabs of other engines (fallback mode) are told too.
      channel?.postMessage({ type: 'notice', message });
    },
    compress,
  });

  // The database was deleted meanwhile and created again, empty: say what was lost, and show the queue as it is now.
  const unsubscribeStore = store.onReset(() => {
    const { pending, undelivered = 0 } = outbox.snapshot();
    snapshots.notice(storeResetNotice(pending + undelivered));
    outbox.reload().then(snapshots.push, (error: unknown) => console.warn('reading the outbox failed', error));
  });

  let couldSend = false;
  let stopSchedule: (() => void) | null = null;

  return {
    api: {
      queueReport: (report) => outbox.queueReport(report),
      queueTripStep: (step) => {
        // Checked here, in the engine: the contract's schemas stay out of the service worker's bundle.
        const parsed = tripStepBodySchema.safeParse(step.body);
        if (!parsed.success) {
          const message = `Отметка не сохранена: ${parsed.error.issues[0]?.message ?? 'неверные данные'}`;
          return Promise.resolve({ ok: false, message, status: null, network: false });
        }
        return outbox.queueTripStep({ ...step, body: parsed.data });
      },
      queueShiftAcceptance: ({ signature, ...fields }) => {
        // Its key is made once, here: the record keeps it, so every resend is the same acceptance to the server.
        const parsed = shiftAcceptanceSchema.safeParse({ key: newAcceptanceKey(), ...fields });
        if (!parsed.success) {
          const message = `Подпись не сохранена: ${parsed.error.issues[0]?.message ?? 'неверные данные'}`;
          return Promise.resolve({ ok: false, message, status: null, network: false });
        }
        return outbox.queueShiftAcceptance({ body: parsed.data, signature });
      },
      undoTripStep: (uid, step) => outbox.undoTripStep(uid, step),
      queueOdometer: (reading) => {
        // The contract's bounds, checked here (the service worker's bundle stays without zod).
        const parsed = odometerSchema.safeParse({ value: reading.value, at: reading.at });
        if (!parsed.success) return Promise.resolve({ ok: false, message: `Показание не сохранено: ${parsed.error.issues[0]?.message ?? 'неверные данные'}`, status: null, network: false });
        return outbox.queueOdometer(reading);
      },
      correctTripStep: (uid, step, at) => outbox.correctTripStep(uid, step, at),
      placeTripStep: (uid, step, position) => outbox.placeTripStep(uid, step, position),
      // «Отправить сейчас» always tries: in offline mode it first asks the server (docs/product.md §4: the profile fetch
      // that succeeds ends offline mode), then the queue goes.
      flushNow: async () => {
        await deps.recovery.wake();
        // Asked for by the driver: every unsent report goes now, also one waiting out its retry delay.
        await outbox.flush({ everything: true });
      },
      discard: (id) => outbox.discard(id),
      resend: (id) => outbox.resend(id),
      compressPreview: (photo) => compress(photo),
      outboxPhoto: (id) => store.outbox.firstPhoto(id),
    },
    compress,
    snapshot: () => outbox.snapshot(),
    authChanged() {
      const { user, offlineMode } = state.get();
      const canSend = user !== null && !offlineMode;
      const became = canSend && !couldSend;
      couldSend = canSend;
      if (became && deps.network.online()) outbox.flush().catch((error: unknown) => console.warn('outbox flush failed', error));
    },
    reload() {
      void outbox.reload({ announce: false }).then(snapshots.push);
    },
    flushEverything() {
      outbox.flush({ everything: true }).catch((error: unknown) => console.warn('outbox flush failed', error));
    },
    start() {
      stopSchedule = outbox.start(deps.network);
    },
    stop() {
      stopSchedule?.();
      pushes.cancel();
      unsubscribeStore();
    },
  };
}
