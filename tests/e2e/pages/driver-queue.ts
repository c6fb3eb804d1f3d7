/**
 * The start of the outage tests: the demo driver signed in (service worker ready, so the app shell loads with
 * the server gone), a report with photos queued on `cargo` while the server is down but the browser says it is
 * online (a depot's Wi-Fi with no uplink), waiting in the outbox.
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { E2eApp } from '../harness/app.ts';
import { OutboxView } from './driver-outbox.ts';
import { associationFor } from './driver-records.ts';
import { signInAsDriver } from './driver-session.ts';
import { waitForServiceWorker } from '../harness/engine.ts';
import { CurrentTasksPage, type PhotoFile } from './driver-tasks.ts';

export async function queueWithServerDown(
  app: E2eApp,
  context: BrowserContext,
  report: { cargo: string; quantity: string; photos: PhotoFile[] },
): Promise<{ page: Page; associationId: number; outbox: OutboxView }> {
  const page = await context.newPage();
  await signInAsDriver(page, app.url);
  await waitForServiceWorker(page);
  const association = await associationFor(app.server, report.cargo);
  const current = await new CurrentTasksPage(page, app.url).goto();
  await current.card(report.cargo).waitFor();
  app.proxy.setDown(true);
  const form = await current.openReport(report.cargo);
  await form.fill({ quantity: report.quantity });
  await form.addPhotos(report.photos);
  await form.submit();
  const outbox = new OutboxView(page);
  await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(1);
  return { page, associationId: association.id, outbox };
}
