/**
 * Firefox ESR (vitest project e2e-firefox): the driver's day where Firefox differs from Chromium — the service
 * worker's offline navigations (Firefox answers a failed navigation preload with a network-error response, which
 * showed «Problem loading page»: issue 30 item 18) and the engine's photo compression in a fresh profile with the
 * server down (item 19); and the report queued while the server is down, delivered once after. Both engine modes:
 * Firefox has SharedWorker, and the dedicated-worker fallback is what a browser without it runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraJpeg } from '../../fixtures/images.ts';
import type { EngineMode } from '../harness/browser.ts';
import { newFirefoxTab, startFirefoxApp, waitForFirefoxServiceWorker, type FirefoxApp } from '../harness/firefox.ts';
import { captionSizes } from '../pages/driver-photos.ts';
import { associationFor, reportsOn } from '../pages/driver-records.ts';
import {
  attachPhotos,
  fillReport,
  openReport,
  outboxPending,
  screenTitle,
  signInAsDriver,
  submitReport,
  waitForTaskCard,
} from '../pages/firefox-driver.ts';

let app: FirefoxApp;
let photoDir: string;
let photoPath: string;

beforeAll(async () => {
  app = await startFirefoxApp();
  photoDir = await mkdtemp(join(tmpdir(), 'reis-firefox-'));
  photoPath = join(photoDir, 'IMG_3000.jpg');
  await writeFile(photoPath, await cameraJpeg(3000, 2000));
});

afterAll(async () => {
  await app?.close();
  if (photoDir) await rm(photoDir, { recursive: true, force: true });
});

describe('Firefox ESR: the driver', () => {
  it('signs in through the form and lands on his tasks, his engine in a SharedWorker', async () => {
    const { page, context, errors } = await newFirefoxTab(app.browser);
    try {
      await signInAsDriver(page, app.url);
      expect(await screenTitle(page)).toBe('Текущие задачи');
      expect(await page.evaluate(() => typeof SharedWorker)).toBe('function');
      await page.waitForFunction(() => '__reisEngine' in window);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reloads and opens another screen with the server down: the service worker answers the app shell', async () => {
    const { page, context, errors } = await newFirefoxTab(app.browser);
    try {
      await signInAsDriver(page, app.url);
      await waitForFirefoxServiceWorker(page);
      app.proxy.setDown(true);

      await page.reload();
      expect(await screenTitle(page)).toBe('Текущие задачи');
      await waitForTaskCard(page, null);

      await page.goto(`${app.url}/available-tasks`);
      expect(await screenTitle(page)).toBe('Доступные задачи');
      expect(errors).toEqual([]);
    } finally {
      app.proxy.setDown(false);
      await context.close();
    }
  });
});

/** An accepted seed task per mode: one report each, from one server. */
const CARGO: Record<EngineMode, string> = {
  shared: 'Песок мытый',
  dedicated: 'Щебень гранитный 20–40',
};

describe.each(['shared', 'dedicated'] as const)('Firefox ESR: a report made with the server down (%s engine)', (mode) => {
  it('compresses its photo in a fresh profile, waits in the queue and is delivered once when the server is back', async () => {
    const { server, proxy } = app;
    const cargo = CARGO[mode];
    const association = await associationFor(server, cargo);
    // A fresh profile: the service worker may not control the page (nor the engine) yet.
    const { page, context, errors } = await newFirefoxTab(app.browser, mode);
    try {
      await signInAsDriver(page, app.url);
      await waitForTaskCard(page, cargo);
      proxy.setDown(true);

      await openReport(page, cargo);
      await fillReport(page, '18,5');
      const [caption] = await attachPhotos(page, [photoPath]);
      const { original, compressed } = captionSizes(caption!);
      expect(compressed).toBeLessThan(original / 4);

      await submitReport(page);
      await expect.poll(() => outboxPending(page), { timeout: 10_000 }).toBe(1);
      expect(await reportsOn(server, association.id)).toEqual([]);

      proxy.setDown(false);
      await expect.poll(() => outboxPending(page), { timeout: 30_000, interval: 250 }).toBe(0);
      const reports = await reportsOn(server, association.id);
      expect(reports).toHaveLength(1);
      expect(reports[0]!.quantity).toBe(18.5);
      // 3000×2000 scaled to the width cap; the library truncates the height (682,67).
      expect(reports[0]!.photos.map((p) => [p.type, p.width, p.height])).toEqual([['jpg', 1024, 682]]);
      expect(errors).toEqual([]);
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});
