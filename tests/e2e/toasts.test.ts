/**
 * Toasts stay out of the way: five quick moves on the board never show more than three at once, none over the menu,
 * their «Отменить» on one line; a save's toast on the task form never covers «Создать» (at 1440 and at 360 px).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext } from './harness/browser.ts';
import { waitFor } from './harness/wait.ts';
import { signIn } from './pages/login-page.ts';
import { Shell } from './pages/shell.ts';
import { todaysTask } from './pages/dispatch-board.ts';

let app: E2eApp;
beforeAll(async () => {
  app = await startE2eApp();
});
afterAll(async () => {
  await app?.close();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxes = async (locator: Locator): Promise<Box[]> => (await Promise.all((await locator.all()).map((l) => l.boundingBox()))).filter((b): b is Box => b !== null);
/** Where a toast stands once it has slid in (the same box twice running). */
async function settledBox(locator: Locator): Promise<Box> {
  let last = '';
  return waitFor(async () => {
    const box = await locator.boundingBox();
    const seen = JSON.stringify(box);
    const settled = box !== null && seen === last;
    last = seen;
    return settled ? box : null;
  }, { message: 'the toast in place' });
}

/**
 * Counts the toasts on screen at every change, from now on: `window.__mostToasts` is the most seen at once. One
 * sliding out (made room for a newer one) is leaving, not counted.
 */
async function countToasts(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const w = window as unknown as { __mostToasts: number };
    w.__mostToasts = 0;
    const count = () => (w.__mostToasts = Math.max(w.__mostToasts, document.querySelectorAll('.Toastify__toast:not([class*="exit"])').length));
    new MutationObserver(count).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __mostToasts: number }).__mostToasts);
}

describe('toasts', () => {
  let context: BrowserContext;
  afterEach(async () => {
    await context.close();
  });

  it('five quick moves on the board: at most three toasts at once, none over the menu, «Отменить» on one line', async () => {
    context = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
    const { id, board } = await todaysTask(app, 'Уведомления: песок');
    const first = (await board()).drivers[0]!;

    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    await page.goto(`${app.url}/dispatch`);
    const card = (column: string) => page.getByRole('region', { name: `Колонка: ${column}` }).locator(`[data-task-id="${id}"]`);
    await card('Без водителя').waitFor();
    const most = await countToasts(page);
    const toasts = page.locator('.Toastify__toast');
    await card('Без водителя').focus();
    for (let move = 0; move < 5; move++) {
      const [to, key] = move % 2 === 0 ? [first.name, 'Alt+ArrowRight'] : ['Без водителя', 'Alt+ArrowLeft'];
      await card(move % 2 === 0 ? 'Без водителя' : first.name).focus();
      await page.keyboard.press(key);
      await card(to).waitFor();
      // Each move made on the server before the next: it refuses a move from a column it has not seen.
      await waitFor(async () => (await board()).unassigned.includes(id) === (to === 'Без водителя'), { message: `move ${move + 1} made` });
    }
    expect(await most()).toBeGreaterThanOrEqual(2);
    expect.soft(await most()).toBeLessThanOrEqual(3);

    const menu = (await page.getByRole('navigation', { name: 'Разделы' }).boundingBox())!;
    await settledBox(toasts.first());
    for (const box of await boxes(toasts)) expect.soft(overlaps(box, menu), 'a toast over the menu').toBe(false);
    const undo = toasts.getByRole('button', { name: 'Отменить' });
    expect(await undo.count()).toBeGreaterThan(0);
    const lines = await undo.evaluateAll((buttons) =>
      buttons.map((b) => {
        const range = document.createRange();
        range.selectNodeContents(b);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      }),
    );
    expect(lines.every((n) => n === 1), `«Отменить» on one line: ${lines.join(', ')}`).toBe(true);
  });

  it.each([1440, 360])('a save on the task form: its toast never covers «Создать» (%i px)', async (width) => {
    context = await newContext(app.browser, 'shared', width, { serviceWorkers: 'block' });
    const page = await signIn(context, app.url, DEMO.manager, DEMO_PASSWORD);
    await page.goto(`${app.url}/tasks/create`);
    const field = (name: string) => page.locator(`[name="${name}"]`);
    await field('cargo').waitFor();
    await field('cargo').fill(`Уведомления: щебень ${width}`);
    await field('loading_place').fill('Карьер');
    await field('unloading_place').fill('Объект');
    await field('planned_quantity').fill('30');
    await page.getByRole('button', { name: 'Создать ещё одну' }).click();
    const toast = new Shell(page).toast(/^Задача №\d+ «Уведомления: щебень \d+» создана/);
    await toast.waitFor();
    const create = page.getByRole('button', { name: 'Создать', exact: true });
    await waitFor(() => create.isEnabled(), { message: 'the form is ready again' });
    const [box, button] = [await settledBox(page.locator('.Toastify__toast').first()), (await create.boundingBox())!];
    expect(overlaps(box, button), `toast ${JSON.stringify(box)} over «Создать» ${JSON.stringify(button)}`).toBe(false);
    if (width >= 900) {
      const menu = (await page.getByRole('navigation', { name: 'Разделы' }).boundingBox())!;
      expect(overlaps(box, menu), 'a toast over the menu').toBe(false);
    }
  });
});
