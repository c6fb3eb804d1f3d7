/**
 * End to end: a tab closed while its report is uploading. The proxy holds the POST (delayNext) so
 * the tab can be closed mid-send; the held request still reaches the server, whose answer then finds nobody.
 * - shared engine, a second tab open: the SharedWorker outlives the tab and finishes the send itself;
 * - dedicated engine: the closing tab's engine dies with it; the other tab's engine sends again with the
 *   same Idempotency-Key and the server answers 200 with the report it already stored;
 * - every tab closed (either engine): the engine goes too; a reopened tab sends again, same answer;
 * - every tab closed, with the service worker: its flush on the 'sync' asked for at queueing sends it again
 *   without any tab, same answer.
 * Exactly one report on the server each time.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext, trackErrors, type EngineMode } from './harness/browser.ts';
import { OutboxView } from './pages/driver-outbox.ts';
import { associationFor, associationStatus, reportsOn } from './pages/driver-records.ts';
import { signInAsDriver } from './pages/driver-session.ts';
import { waitForServiceWorker } from './harness/engine.ts';
import { AvailableTasksPage, CurrentTasksPage } from './pages/driver-tasks.ts';

const REPORTS_POST = /^\/api\/reports\/?$/;
/** Long enough to close a tab in, short enough not to slow the suite. */
const HOLD_MS = 3_000;

const suite = useDriverSuite(1);

interface Sending {
  context: BrowserContext;
  sender: Page;
  /** The other tabs, on /current-tasks. */
  others: Page[];
  associationId: number;
  errors: string[];
  /** Answers of the report POSTs made in this test, in order (null: none yet). */
  statuses(): (number | null)[];
}

/**
 * Signs in, takes the task, and submits a report in `sender` while the proxy holds its POST; resolves once
 * the whole body has reached the proxy, i.e. the tab is mid-send.
 */
interface HeldOptions {
  /**
   * Off by default: most tests here are about the engines, and the service worker's flush on the 'sync'
   * that queueing asks for takes the lock as soon as the closing tab's engine lets go and sends it itself.
   */
  serviceWorker?: boolean;
  /** The demo driver took this task in the seed already: no 'Взять'. */
  taken?: boolean;
}

async function sendHeld(mode: EngineMode, cargo: string, extraTabs: number, options: HeldOptions = {}): Promise<Sending> {
  const { server, proxy, browser, url } = suite.app;
  const context = await newContext(browser, mode, 390, { serviceWorkers: options.serviceWorker ? 'allow' : 'block' });
  const sender = await context.newPage();
  const errors = trackErrors(sender);
  await signInAsDriver(sender, url);
  // Registered and active before the report is queued, so queueing can ask it for a 'sync'.
  if (options.serviceWorker) await waitForServiceWorker(sender);
  if (!options.taken) await (await new AvailableTasksPage(sender, url).goto()).accept(cargo);
  const { id: associationId } = await associationFor(server, cargo);
  const others: Page[] = [];
  for (let i = 0; i < extraTabs; i++) {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await new CurrentTasksPage(page, url).goto();
    others.push(page);
  }

  const current = await new CurrentTasksPage(sender, url).goto();
  const form = await current.openReport(cargo);
  await form.fill({ quantity: '9' });
  await form.addPhotos(suite.photos);
  const first = proxy.requests.length;
  const held = proxy.delayNext('POST', REPORTS_POST, HOLD_MS);
  await form.submit();
  await expect.poll(() => held.received, { timeout: 30_000 }).toBe(1);
  expect(held.forwarded).toBe(0);
  const statuses = () =>
    proxy.requests
      .slice(first)
      .filter((r) => r.method === 'POST' && REPORTS_POST.test(r.path))
      .map((r) => r.status);
  return { context, sender, others, associationId, errors, statuses };
}

async function expectOneReport(associationId: number): Promise<number> {
  const reports = await reportsOn(suite.app.server, associationId);
  expect(reports).toHaveLength(1);
  expect(reports[0]!.photos.map((p) => [p.type, p.width])).toEqual([['jpg', 1024]]);
  expect(await associationStatus(suite.app.server, associationId)).toBe('completed');
  return reports[0]!.id;
}

describe('a tab closed while its report is sending', () => {
  it('shared engine, another tab open: the SharedWorker finishes the send, one POST, one report', async () => {
    const { context, sender, others, associationId, errors, statuses } = await sendHeld('shared', 'Щебень гранитный 5–20', 1);
    try {
      await sender.close();
      // The upload goes on without the tab that started it, and the other tab shows it under way.
      const [other] = others as [Page];
      const outbox = new OutboxView(other);
      await outbox.open();
      await outbox.items.getByText(/^отправляется/).waitFor();

      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
      await expectOneReport(associationId);
      expect(statuses()).toEqual([201]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('dedicated engine: the other tab sends it again and the server answers the stored report', async () => {
    const { context, sender, others, associationId, errors, statuses } = await sendHeld('dedicated', 'Щебень известняковый 20–40', 1);
    try {
      await sender.close();
      // The held request reaches the server after the tab is gone: stored, its 201 heard by nobody.
      await expect.poll(() => reportsOn(suite.app.server, associationId), { timeout: 30_000 }).toHaveLength(1);
      await expect.poll(() => statuses(), { timeout: 10_000 }).toEqual([201]);
      const [stored] = await reportsOn(suite.app.server, associationId);

      const [other] = others as [Page];
      const outbox = new OutboxView(other);
      await outbox.open();
      // Nothing tells this engine that the other one died mid-send: it would try at its 60 s tick; the
      // driver's 'Отправить сейчас' tries now.
      await outbox.panel.getByRole('button', { name: 'Отправить сейчас' }).click();
      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
      expect(await expectOneReport(associationId)).toBe(stored!.id);
      expect(statuses()).toEqual([201, 200]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each([
    ['shared', 'ПГС (песчано-гравийная смесь)'],
    ['dedicated', 'Асфальтобетонная смесь'],
  ] as const)('%s engine, every tab closed mid-send: a reopened tab sends it again, still one report', async (mode, cargo) => {
    const { context, sender, associationId, errors, statuses } = await sendHeld(mode, cargo, 0);
    try {
      await sender.close();
      await expect.poll(() => reportsOn(suite.app.server, associationId), { timeout: 30_000 }).toHaveLength(1);
      await expect.poll(() => statuses(), { timeout: 10_000 }).toEqual([201]);
      const [stored] = await reportsOn(suite.app.server, associationId);

      const reopened = await context.newPage();
      reopened.on('pageerror', (e) => errors.push(e.message));
      await new CurrentTasksPage(reopened, suite.app.url).goto();
      const outbox = new OutboxView(reopened);
      await outbox.open();
      await outbox.panel.getByText('Очередь пуста: все отчёты отправлены.').waitFor({ timeout: 30_000 });
      expect(await expectOneReport(associationId)).toBe(stored!.id);
      expect(statuses()).toEqual([201, 200]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('service worker, every tab closed mid-send: it sends the report again itself, still one report', async () => {
    const { context, sender, associationId, errors, statuses } = await sendHeld('dedicated', 'Песок мытый', 0, {
      serviceWorker: true,
      taken: true,
    });
    try {
      await sender.close();
      // No tab is left: only the service worker can make the second POST.
      await expect.poll(() => reportsOn(suite.app.server, associationId), { timeout: 30_000 }).toHaveLength(1);
      // The held POST and the service worker's carry one Idempotency-Key: one stored it, the other got it back.
      await expect.poll(() => [...statuses()].sort(), { timeout: 30_000 }).toEqual([200, 201]);
      await expectOneReport(associationId);
      expect(context.pages()).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
