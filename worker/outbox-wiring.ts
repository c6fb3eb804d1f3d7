/**
 * Plugs the report outbox (outbox.ts) into the engine's ports (outbox-port.ts): the multipart POST with the
 * Idempotency-Key header, the schedule on the engine's clock and network, the throttled snapshot pushes, and
 * the photo compression (here, not in outbox.ts, so the service worker's flush does not bundle it).
 */
import { compressPhoto } from './images.ts';
import { createOutbox, type SendResult } from './outbox.ts';
import type { OutboxFactory } from './outbox-port.ts';
import { throttlePushes } from './outbox-view.ts';
import { buildReportForm, IDEMPOTENCY_HEADER } from './report-form.ts';
import { firstPhotoOf } from './outbox-store.ts';

export const reportOutbox: OutboxFactory = (ports) => {
  const pushes = throttlePushes(ports.clock, (stored) => ports.onChange(stored));
  const outbox = createOutbox({
    db: ports.db,
    now: ports.now,
    isOnline: ports.isOnline,
    userId: ports.userId,
    locks: ports.locks,
    async sendReport(record, photos, onProgress): Promise<SendResult> {
      const result = await ports.postForm<{ id: number }>('reports/', buildReportForm(record, photos), {
        headers: { [IDEMPOTENCY_HEADER]: record.idempotencyKey },
        onProgress,
      });
      return result.ok
        ? { ok: true, reportId: result.data.id }
        : // A busy or unreachable server (503 during a restart, a proxy's 502) did not refuse the report: not an attempt.
          { ok: false, network: result.network || result.unreachable === true, status: result.status, message: result.message };
    },
    assignedAssociationIds: () => ports.assignedAssociationIds(),
    onChange: (stored) => pushes.change(stored),
    compress: (photo) => compressPhoto(photo),
    notify: (message) => ports.notify(message),
  });

  return {
    queueReport: (report) => outbox.queueReport(report),
    flush: (options) => outbox.flush(options),
    discard: (id) => outbox.discard(id),
    resend: (id) => outbox.resend(id),
    snapshot: () => outbox.snapshot(),
    // Another engine changed the queue: re-read it without announcing the change back to them.
    reload: () => outbox.reload({ announce: false }),
    compressPreview: (photo) => compressPhoto(photo),
    firstPhoto: (id) => firstPhotoOf(ports.db, id),
    start() {
      const handles: unknown[] = [];
      let unsubscribe = () => {};
      outbox.start({
        setInterval: (fn, ms) => handles.push(ports.clock.setInterval(fn, ms)),
        setTimeout: (fn, ms) => ports.clock.setTimeout(fn, ms),
        clearTimeout: (handle) => ports.clock.clearTimeout(handle),
        addEventListener: (_type, fn) => {
          unsubscribe = ports.network.subscribe(() => {
            if (ports.network.online()) fn();
          });
        },
      });
      return () => {
        for (const handle of handles) ports.clock.clearInterval(handle);
        unsubscribe();
        pushes.cancel();
      };
    },
  };
};
