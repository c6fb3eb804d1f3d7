/**
 * Issue 10 A: a report queued while the server is unreachable but the network is up, in an engine that was
 * started during the outage (the tab reloaded while the server was down), is delivered once the server is
 * back — without a reload, a click or an 'online' event. Before, the recovery timer's back-off (30 s doubling
 * to 10 min) left it waiting minutes; it now retries every few seconds. The bound below is generous (a shared
 * machine): it is not a timing assertion, it fails only if nothing retries for half a minute.
 */
import { describe, expect, it } from 'vitest';
import { useDriverSuite } from './pages/driver-suite.ts';
import { newContext } from './harness/browser.ts';
import { reportsOn } from './pages/driver-records.ts';
import { queueWithServerDown } from './pages/driver-queue.ts';

const suite = useDriverSuite(1);

describe('delivery after an outage', () => {
  it('an engine started while the server was down sends the queue by itself once the server answers', async () => {
    const { server, proxy, browser } = suite.app;
    // The service worker serves the app shell, so the tab can reload while the server is down.
    const context = await newContext(browser, 'shared', 390);
    try {
      // The server goes away; the browser still says it is online.
      const { page, associationId, outbox } = await queueWithServerDown(suite.app, context, { cargo: 'Песок мытый', quantity: '9', photos: suite.photos });
      // The engine restarts during the outage (the only tab reloads): it starts in offline mode.
      await page.reload();
      await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(1);

      const back = Date.now();
      proxy.setDown(false);
      await expect.poll(() => reportsOn(server, associationId), { timeout: 30_000, interval: 250 }).toHaveLength(1);
      console.info(`delivered ${((Date.now() - back) / 1000).toFixed(1)} s after the server came back`);
      await expect.poll(() => outbox.pending(), { timeout: 15_000 }).toBe(0);
    } finally {
      proxy.setDown(false);
      await context.close();
    }
  });
});
