/**
 * A paused clock for the engine, moved by the test. Playwright's `context.clock` fakes time in pages only:
 * measured here, `Date.now()` inside the dedicated worker and the SharedWorker stays real after
 * `clock.install()` and `fastForward()`. So the same idea is installed inside the worker itself — through
 * Playwright's Worker handle for a dedicated worker, over the DevTools protocol for a SharedWorker (Playwright
 * has no handle for those): `Date.now()` stops at the install and moves only by `advance(ms)`, and timers of
 * a second or more follow that clock (the outbox's retry after 2^attempts s is one), firing when `advance`
 * reaches them. Shorter timers and intervals stay real, so the engine's plumbing runs as usual.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { EngineMode } from '../harness/browser.ts';

/** Runs in the worker: installs the clock once, moves it by `ms`, fires the timers now due; answers now. */
const ADVANCE = (ms: number) => `(() => {
  const scope = self;
  if (!scope.__e2eClock) {
    const clock = { now: Date.now(), timers: new Map(), nextId: 1e9 };
    const realSetTimeout = scope.setTimeout.bind(scope);
    const realClearTimeout = scope.clearTimeout.bind(scope);
    Date.now = () => clock.now;
    scope.setTimeout = (fn, delay, ...args) => {
      if (typeof fn !== 'function' || !(delay >= 1000)) return realSetTimeout(fn, delay, ...args);
      const id = clock.nextId++;
      clock.timers.set(id, { fn, args, due: clock.now + delay });
      return id;
    };
    scope.clearTimeout = (id) => {
      if (!clock.timers.delete(id)) realClearTimeout(id);
    };
    scope.__e2eClock = clock;
  }
  const clock = scope.__e2eClock;
  clock.now += ${ms};
  for (const [id, timer] of [...clock.timers].sort((a, b) => a[1].due - b[1].due)) {
    if (timer.due > clock.now) continue;
    clock.timers.delete(id);
    queueMicrotask(() => timer.fn(...timer.args));
  }
  return clock.now;
})()`;

interface CdpAnswer {
  id?: number;
  result?: { result?: { value?: unknown } };
  error?: unknown;
}

interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

export interface EngineClock {
  /** Moves the engine's clock by `ms` and fires the timers that are then due; answers the engine's now. */
  advance(ms: number): Promise<number>;
  close(): Promise<void>;
}

/** Installs the paused clock in the engine this tab talks to (after the tab's last navigation). */
export async function engineClock(context: BrowserContext, page: Page, mode: EngineMode): Promise<EngineClock> {
  let clock: EngineClock;
  if (mode === 'dedicated') {
    const worker = page.workers().find((w) => w.url().includes('/assets/dedicated'));
    if (!worker) throw new Error('the tab has no dedicated engine worker');
    clock = { advance: (ms) => worker.evaluate(ADVANCE(ms)) as Promise<number>, close: async () => undefined };
  } else {
    clock = await sharedWorkerClock(context, page);
  }
  await clock.advance(0);
  return clock;
}

async function sharedWorkerClock(context: BrowserContext, page: Page): Promise<EngineClock> {
  const pageSession = await context.newCDPSession(page);
  const own = (await pageSession.send('Target.getTargetInfo')) as { targetInfo: TargetInfo };
  await pageSession.detach();
  const browserSession: CDPSession = await page.context().browser()!.newBrowserCDPSession();
  const { targetInfos } = (await browserSession.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
  const target = targetInfos.find((t) => t.type === 'shared_worker' && t.browserContextId === own.targetInfo.browserContextId);
  if (!target) throw new Error('the context runs no SharedWorker');
  const { sessionId } = (await browserSession.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as {
    sessionId: string;
  };

  let nextId = 1;
  const waiting = new Map<number, (message: CdpAnswer) => void>();
  browserSession.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as CdpAnswer;
    if (message.id !== undefined) waiting.get(message.id)?.(message);
  });

  async function evaluate(expression: string): Promise<unknown> {
    const id = nextId++;
    const answer = new Promise<CdpAnswer>((resolve) => waiting.set(id, resolve));
    await browserSession.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }),
    });
    const message = await answer;
    waiting.delete(id);
    if (message.error) throw new Error(`Runtime.evaluate in the SharedWorker failed: ${JSON.stringify(message.error)}`);
    return message.result?.result?.value;
  }

  return {
    advance: async (ms) => (await evaluate(ADVANCE(ms))) as number,
    close: () => browserSession.detach(),
  };
}
