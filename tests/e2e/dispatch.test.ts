/**
 * The dispatcher's board in Chromium on the demo data: a task dragged with the mouse onto a driver, one moved to the
 * next driver and one column reordered with the keyboard alone (Alt+arrows), two selected with Space and assigned
 * from the bar, one move undone from its toast; a second tab of the same manager sees every change without a reload;
 * the keyboard alone: arrows in «Назначить водителю» only choose (Enter assigns), the focus follows a card moved with
 * Alt+← to its new column, so a second Alt+← moves it on;
 * the server cut: the staff banner «Нет связи с сервером…» appears, and goes when it is back.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Board } from '../../contract/calls/dispatch.ts';
import { call, login } from '../fixtures/accounts.ts';
import { dayFromToday } from '../fixtures/tasks.ts';
import { DEMO, DEMO_PASSWORD, startE2eApp, type E2eApp } from './harness/app.ts';
import { newContext, trackErrors } from './harness/browser.ts';
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

describe('dispatch board', () => {
  let desk: BrowserContext;
  beforeEach(async () => {
    desk = await newContext(app.browser, 'shared', 1440, { serviceWorkers: 'block' });
  });
  afterEach(async () => {
    await desk.close();
  });

  it('drag, keyboard, bulk assign and undo; a second tab follows without a reload', async () => {
    const today = dayFromToday(0);
    const token = (await login(app.server, DEMO.manager, DEMO_PASSWORD)).access_token;
    for (const cargo of ['Доска: песок', 'Доска: щебень']) {
      const res = await call(app.server, 'POST', '/api/tasks/', { token, body: { date: today, cargo, loading_place: 'Карьер', unloading_place: 'Объект', planned_quantity: 40, rate: 600 } });
      expect(res.status).toBe(201);
    }
    const api = async () => (await call<Board>(app.server, 'GET', `/api/dispatch/board?date=${today}`, { token })).body;
    const start = await api();
    const driver = (name: string) => start.drivers.find((d) => d.name === name)!;
    const [morozov, petrov] = [driver('Дмитрий Морозов'), driver('Иван Петров')];
    const task = (cargo: string) => start.tasks.find((t) => t.cargo === cargo && start.unassigned.includes(t.id))!.id;
    const [gravel, sand, crushed] = [task('Щебень гранитный 5–20'), task('Доска: песок'), task('Доска: щебень')];

    const page = await signIn(desk, app.url, DEMO.manager, DEMO_PASSWORD);
    const errors = trackErrors(page);
    await page.goto(`${app.url}/dispatch`);
    const other = await desk.newPage();
    await other.goto(`${app.url}/dispatch`);
    // The manager works in the first tab: it is the one in front (a hidden tab draws no frames, so every mouse step
    // and every wait on it crawled, and under load a wait ran out).
    await page.bringToFront();
    const column = (p: Page, name: string) => p.getByRole('region', { name: `Колонка: ${name}` });
    const card = (p: Page, name: string, id: number) => column(p, name).locator(`[data-task-id="${id}"]`);
    await card(page, 'Без водителя', gravel).waitFor();

    // 1. The mouse: «Без водителя» → Морозов.
    const from = await card(page, 'Без водителя', gravel).boundingBox();
    const to = await column(page, morozov.name).boundingBox();
    await page.mouse.move(from!.x + 40, from!.y + 20);
    await page.mouse.down();
    await page.mouse.move(from!.x + 60, from!.y + 30, { steps: 5 });
    await page.mouse.move(to!.x + to!.width / 2, to!.y + 120, { steps: 15 });
    await page.mouse.up();
    await new Shell(page).toast(new RegExp(`^«Щебень гранитный 5–20» → ${morozov.name}`)).waitFor();
    await card(other, morozov.name, gravel).waitFor();

    // 2. The keyboard: Alt+→ takes it on to the next column (Петров), Alt+↑ puts it first there.
    // Each key once the last move is answered and drawn, as a dispatcher sees it: the server has the card at its
    // place, the board is not busy, and the page shows it there (a key pressed while the answer redraws the board
    // was lost in full runs). A failure names what the page showed.
    const placeOnPage = (name: string, id: number) =>
      column(page, name).locator('[data-task-id]').evaluateAll((cards, wanted) => cards.findIndex((c) => c.getAttribute('data-task-id') === String(wanted)), id);
    const settledAt = async (driverId: number, name: string, id: number, index: number, message: string) => {
      try {
        await waitFor(async () => (await api()).drivers.find((d) => d.id === driverId)?.task_ids.indexOf(id) === index, { message: `${message}: on the server` });
        await waitFor(async () => (await page.locator('.dispatch-board[aria-busy="false"]').count()) === 1 && (await placeOnPage(name, id)) === index, { message: `${message}: on the page` });
      } catch (error) {
        const toasts = await page.locator('.Toastify__toast').allInnerTexts();
        throw new Error(`${(error as Error).message}; the page has it at ${await placeOnPage(name, id)}, toasts ${JSON.stringify(toasts)}`, { cause: error });
      }
    };
    await card(page, morozov.name, gravel).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await card(page, petrov.name, gravel).waitFor();
    // Put after Петров's two tasks of the day.
    await settledAt(petrov.id, petrov.name, gravel, 2, 'moved to Петров');
    await card(page, petrov.name, gravel).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await settledAt(petrov.id, petrov.name, gravel, 1, 'one place up');
    await card(page, petrov.name, gravel).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await settledAt(petrov.id, petrov.name, gravel, 0, 'first in Петров’s column');

    // 3. Space selects two; the bar assigns them to Морозов at once.
    await card(page, 'Без водителя', sand).focus();
    await page.keyboard.press('Space');
    await card(page, 'Без водителя', crushed).focus();
    await page.keyboard.press('Space');
    const bar = page.getByRole('toolbar', { name: 'Выбранные задачи' });
    await bar.getByText('Выбрано: 2 задачи').waitFor();
    await bar.getByLabel('Назначить водителю').selectOption({ label: morozov.name });
    await bar.getByRole('button', { name: 'Назначить', exact: true }).click();
    await new Shell(page).toast(`${morozov.name}: 2 задачи назначены`).waitFor();
    await card(other, morozov.name, crushed).waitFor();

    // 4. Undo from the toast: the last move back.
    await card(page, morozov.name, crushed).focus();
    await page.keyboard.press('Alt+ArrowUp');
    const toast = page.locator('.Toastify__toast', { hasText: '«Доска: щебень»: место 1' });
    await toast.getByRole('button', { name: 'Отменить' }).click();
    await waitFor(async () => (await api()).drivers.find((d) => d.id === morozov.id)?.task_ids.join() === [sand, crushed].join(), { message: 'the undo restored the order' });

    const end = await api();
    expect(end.unassigned).not.toContain(gravel);
    expect(end.drivers.find((d) => d.id === petrov.id)?.task_ids[0]).toBe(gravel);
    await waitFor(async () => (await column(other, morozov.name).locator('[data-task-id]').count()) === 2, { message: 'the second tab shows Морозов’s two tasks' });
    expect(errors).toEqual([]);

    // 5. The server goes away: the staff banner says the screen may be stale; it goes when the server is back.
    // Cut once the undo's answer has reached the tab (the board no longer busy), not merely once the server has it:
    // an answer cut on its way is a write that met a dead server, which rightly puts the app in offline mode — and
    // its banner, not the live feed's, is what a full run then showed.
    await page.locator('.dispatch-board[aria-busy="false"]').waitFor();
    const banner = page.getByRole('status').filter({ hasText: 'Нет связи с сервером — данные на экране могут быть устаревшими' });
    const cut = Date.now();
    app.proxy.setDown(true);
    let shownAfter: number;
    try {
      await banner.waitFor().catch(async (error: unknown) => {
        // What the tab said instead, if anything: the failure names it.
        const said = await page.getByRole('status').allInnerTexts().catch(() => []);
        throw new Error(`no live banner; the statuses on screen: ${JSON.stringify(said)}`, { cause: error });
      });
      shownAfter = Date.now() - cut;
    } finally {
      // Never left down for the next test, whatever happened here.
      app.proxy.setDown(false);
    }
    const back = Date.now();
    await banner.waitFor({ state: 'detached' });
    // Reported, not asserted (the machines are shared): the goal is 10 s each way.
    console.info(`live banner: shown ${shownAfter} ms after the cut, gone ${Date.now() - back} ms after the return`);
  });

  it('the keyboard alone: arrows in «Назначить водителю» only choose, Enter assigns; the focus follows the moved card', async () => {
    const { id, board: api } = await todaysTask(app, 'Клавиатура: ПГС');
    const drivers = (await api()).drivers;
    expect(drivers.length).toBeGreaterThanOrEqual(2);
    const [first, second] = [drivers[0]!, drivers[1]!];

    const page = await signIn(desk, app.url, DEMO.manager, DEMO_PASSWORD);
    await page.goto(`${app.url}/dispatch`);
    const column = (name: string) => page.getByRole('region', { name: `Колонка: ${name}` });
    const card = (name: string) => column(name).locator(`[data-task-id="${id}"]`);
    /** The column whose card has the focus, and the card's task. */
    const focused = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        return { column: active?.closest('section')?.getAttribute('aria-label') ?? null, task: active?.dataset.taskId ?? null };
      });
    const frame = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

    await card('Без водителя').focus();
    await page.keyboard.press('Space');
    const bar = page.getByRole('toolbar', { name: 'Выбранные задачи' });
    await bar.getByText('Выбрано: 1 задача').waitFor();
    const choose = bar.getByLabel('Назначить водителю');
    await choose.focus();
    // One arrow: the choice moves to the first driver, nothing is assigned (the selection and its bar stay).
    await page.keyboard.press('ArrowDown');
    await frame();
    expect(await choose.inputValue()).toBe(String(first.id));
    expect(await bar.getByText('Выбрано: 1 задача').isVisible()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await frame();
    expect(await choose.inputValue()).toBe(String(second.id));
    expect((await api()).unassigned).toContain(id);
    // Enter assigns the chosen one.
    await page.keyboard.press('Enter');
    await new Shell(page).toast(`${second.name}: 1 задача назначена`).waitFor();
    await card(second.name).waitFor();
    expect((await api()).drivers.find((d) => d.id === second.id)?.task_ids).toContain(id);

    // Alt+←: onto the first driver, the focus with it; Alt+← again, with no Tab between: back to «Без водителя».
    await card(second.name).focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await waitFor(async () => (await focused()).column === `Колонка: ${first.name}`, { message: 'the focus followed the card to the first driver' });
    expect((await focused()).task).toBe(String(id));
    await waitFor(async () => (await api()).drivers.find((d) => d.id === first.id)?.task_ids.includes(id) === true, { message: 'moved on the server' });
    await page.keyboard.press('Alt+ArrowLeft');
    await waitFor(async () => (await api()).unassigned.includes(id), { message: 'the second Alt+← took it off' });
    // The column and the card are focused in two renders: wait for both, not the column alone.
    await waitFor(async () => (await focused()).column === 'Колонка: Без водителя' && (await focused()).task === String(id), { message: 'the focus followed the card to «Без водителя»' });
  });
});
