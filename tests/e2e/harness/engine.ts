/**
 * Reaching the engine from a test: each tab exposes its Comlink proxy as `window.__reisEngine`
 * (src/engine/connect.ts), and Chromium's DevTools protocol lists the SharedWorkers a context runs.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { CachedResult, Result } from '../../../worker/api.ts';

/** A GET through the tab's engine (cache, bearer, 401 → refresh), as a screen's query makes it. */
export function engineGet<T = unknown>(page: Page, path: string): Promise<Result<CachedResult<T>>> {
  return page.evaluate(async (p) => {
    const engine = (window as unknown as { __reisEngine?: { get(path: string): Promise<unknown> } }).__reisEngine;
    if (!engine) throw new Error('the engine is not connected in this tab');
    return engine.get(p);
  }, path) as Promise<Result<CachedResult<T>>>;
}

/** Whether the tab has connected to its engine yet. */
export function engineConnected(page: Page): Promise<boolean> {
  return page.evaluate(() => '__reisEngine' in window);
}

interface TargetInfo {
  type: string;
  url: string;
  browserContextId?: string;
}

/** The SharedWorkers running for this page's browser context (Playwright has no API for them). */
export async function sharedWorkersOf(context: BrowserContext, page: Page): Promise<TargetInfo[]> {
  const session = await context.newCDPSession(page);
  try {
    const own = (await session.send('Target.getTargetInfo')) as { targetInfo: TargetInfo };
    const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    return targetInfos.filter(
      (t) => t.type === 'shared_worker' && t.browserContextId === own.targetInfo.browserContextId,
    );
  } finally {
    await session.detach();
  }
}

/**
 * Waits until the service worker controls the tab, so a reload without network is served by it. Installing
 * precaches every chunk; on a loaded CI machine that once took over 20 s, hence the minute.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
}
