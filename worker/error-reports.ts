/**
 * A tab's uncaught errors sent to the server (docs/product.md §7 and §8): at most `PER_MINUTE` a minute from this engine (a
 * render loop that throws must not flood the server; it answers 429 beyond its own limit too), each clipped well
 * under the server's body cap, with the device id.
 */
import type { ClientErrorReport } from './api.ts';
import type { Http } from './http.ts';
import type { Clock } from './ports.ts';

const PER_MINUTE = 10;

export function createErrorReporter(deps: { clock: Pick<Clock, 'now'>; http: Pick<Http, 'request'>; deviceId(): string }): (report: ClientErrorReport) => Promise<void> {
  let windowStart = 0;
  let inWindow = 0;
  return async (report) => {
    const now = deps.clock.now();
    if (now - windowStart > 60_000) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow > PER_MINUTE) return;
    const deviceId = deps.deviceId();
    await deps.http.request({
      method: 'POST',
      url: 'log-client-error',
      data: clipReport(report),
      headers: deviceId ? { 'X-Device-Id': deviceId } : {},
      skipAuthRefresh: true,
    });
  };
}

/** Keeps a report well under the server's body cap. */
function clipReport(report: ClientErrorReport): ClientErrorReport {
  const clip = (text: string | null, max: number) => (text && text.length > max ? text.slice(0, max) : text);
  return {
    ...report,
    message: clip(report.message, 2000) ?? '',
    stack: clip(report.stack, 8000),
    source: clip(report.source, 2000),
    url: clip(report.url, 2000) ?? '',
    userAgent: clip(report.userAgent, 500) ?? '',
  };
}
